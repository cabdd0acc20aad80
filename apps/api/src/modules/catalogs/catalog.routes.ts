import {
  MSG,
  ZChangeStatusBody,
  ZDataResponse,
  ZErrorResponse,
  ZIdParam,
  ZListQuery,
  ZMoveBody,
  ZOptionsResponse,
  ZPage,
  catalogResources,
  optionResources,
  type CatalogResourceName,
} from '@portal/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/access.ts';
import { asksFresh } from '../../lib/answer-cache.ts';
import { z } from 'zod';
import type { Services } from '../../services.ts';
import { catalogDefinitionOf } from './catalog.definitions.ts';
import type { CatalogActor } from './catalog.service.ts';

/**
 * Records come from a table chosen at run time; the response schema of each
 * route checks (and strips) their shape, so the static type is not needed here.
 */
const checkedByResponseSchema = <T>(value: T) => value as never;

const actorOf = (request: FastifyRequest): CatalogActor => {
  const { id, username } = currentUser(request);
  return { userId: id, username, ip: request.ip };
};

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };

/** list, show, create, update, change-status and active-records for one resource. */
function registerResource(
  app: Parameters<FastifyPluginAsyncZod>[0],
  services: Services,
  resource: CatalogResourceName,
) {
  const { catalogs } = services;
  const def = catalogDefinitionOf(resource);
  const schemas = catalogResources[resource];
  const access = (flag: 'r' | 'w' | 'u' | 'd') => ({ section: def.section, flag });
  const tags = [resource];
  const base = `/${resource}`;

  app.post(
    base,
    {
      config: { access: access('r') },
      schema: {
        tags,
        summary: 'Lista paginada con búsqueda',
        body: ZListQuery,
        response: { 200: ZPage(schemas.record), ...errors },
      },
    },
    // The answer as sent (the route's own serializer, whose schema checks the records), kept by the
    // service while nothing changed it; its bytes go out as they are.
    async (request, reply) =>
      reply.type('application/json; charset=utf-8').send(
        checkedByResponseSchema(
          await catalogs.listAnswer(resource, request.body, (page) => String(reply.serialize(page)), {
            fresh: asksFresh(request.headers),
          }),
        ),
      ),
  );

  if (optionResources.includes(resource as (typeof optionResources)[number])) {
    app.get(
      `${base}/active-records`,
      {
        config: { access: def.optionsAccess },
        schema: {
          tags,
          summary: 'Registros activos como opciones { id, name }',
          ...(def.hasPrivilegedOptions && {
            description: 'Con `privileged=1`, solo los usuarios de un rol privilegiado (supervisores).',
            querystring: z.object({ privileged: z.enum(['0', '1']).optional() }),
          }),
          response: { 200: ZOptionsResponse, ...errors },
        },
      },
      async (request) => {
        const query = (request.query ?? {}) as { privileged?: '0' | '1' };
        return {
          status: true as const,
          data: await catalogs.options(resource, { isPrivilegedOnly: query.privileged === '1' }),
        };
      },
    );
  }

  app.get(
    `${base}/:id`,
    {
      config: { access: resource === 'users' ? { ...access('r'), unlessSelf: 'id' } : access('r') },
      schema: {
        tags,
        summary: 'Un registro',
        params: ZIdParam,
        response: { 200: ZDataResponse(schemas.record), ...errors },
      },
    },
    async (request) => ({
      status: true as const,
      message: 'Registro obtenido.',
      data: checkedByResponseSchema(await catalogs.show(resource, request.params.id)),
    }),
  );

  app.post(
    `${base}/create`,
    {
      config: { access: access('w') },
      schema: {
        tags,
        summary: 'Crea un registro',
        body: schemas.create,
        response: { 201: ZDataResponse(schemas.record), ...errors },
      },
    },
    async (request, reply) => {
      const data = await catalogs.create(resource, request.body as Record<string, unknown>, actorOf(request));
      return reply
        .status(201)
        .send({ status: true as const, message: MSG.created, data: checkedByResponseSchema(data) });
    },
  );

  // PUT /users/update/:id is served by the profile module: a user may also change their own profile.
  if (resource !== 'users')
    app.put(
      `${base}/update/:id`,
      {
        config: { access: access('u') },
        schema: {
          tags,
          summary: 'Actualiza un registro',
          params: ZIdParam,
          body: schemas.update,
          response: { 200: ZDataResponse(schemas.record), ...errors },
        },
      },
      async (request) => ({
        status: true as const,
        message: MSG.updated,
        data: checkedByResponseSchema(
          await catalogs.update(resource, request.params.id, request.body as Record<string, unknown>, actorOf(request)),
        ),
      }),
    );

  if (def.positionColumn)
    app.patch(
      `${base}/:id/move`,
      {
        config: { access: access('u') },
        schema: {
          tags,
          summary: 'Mueve un registro a otra posición del orden (1 primero; más allá del final: último)',
          params: ZIdParam,
          body: ZMoveBody,
          response: { 200: ZDataResponse(schemas.record), ...errors },
        },
      },
      async (request) => ({
        status: true as const,
        message: MSG.updated,
        data: checkedByResponseSchema(
          await catalogs.move(resource, request.params.id, request.body.position, actorOf(request)),
        ),
      }),
    );

  app.patch(
    `${base}/:id/change-status`,
    {
      config: { access: access('d') },
      schema: {
        tags,
        summary: 'Activa o desactiva un registro (alterna sin status_id)',
        params: ZIdParam,
        body: ZChangeStatusBody,
        response: { 200: ZDataResponse(schemas.record), ...errors },
      },
    },
    async (request) => ({
      status: true as const,
      message: MSG.statusChanged,
      data: checkedByResponseSchema(
        await catalogs.changeStatus(resource, request.params.id, request.body.status_id, actorOf(request)),
      ),
    }),
  );
}

export const catalogRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  for (const resource of Object.keys(catalogResources) as CatalogResourceName[]) {
    registerResource(app, services, resource);
  }
};
