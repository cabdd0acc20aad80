import {
  SAVED_VIEW_MSG,
  ZErrorResponse,
  ZIdParam,
  ZMessageResponse,
  ZSavedViewCreate,
  ZSavedViewResponse,
  ZSavedViewsResponse,
  ZSavedViewUpdate,
  ZSavedViewWriteResponse,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/access.ts';
import type { Services } from '../../services.ts';

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };
const tags = ['views'];

/**
 * Saved views (`/views`): any signed-in person keeps views of the lists they may read; the
 * service checks the list's section, and vi_main for sharing (w) and for another's shared view (u, d).
 */
export const savedViewsRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { savedViews } = services;
  const config = { access: 'authenticated' as const };

  app.get(
    '/views',
    {
      config,
      schema: {
        tags,
        summary: 'Las vistas del usuario y las compartidas con su rol, cada una con cuántos tickets muestra',
        description: 'El conteo se detiene en 10.000 como el de las listas (count.is_lower_bound: más de 10.000).',
        response: { 200: ZSavedViewsResponse, ...errors },
      },
    },
    async (request) => ({ status: true as const, ...(await savedViews.list(currentUser(request))) }),
  );

  app.get(
    '/views/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Una vista: su consulta y los valores de sus filtros que ya no aplican (desactivados)',
        params: ZIdParam,
        response: { 200: ZSavedViewResponse, ...errors },
      },
    },
    async (request) => ({
      status: true as const,
      data: await savedViews.get(currentUser(request), request.params.id),
    }),
  );

  app.post(
    '/views/create',
    {
      config,
      schema: {
        tags,
        summary: 'Guarda la búsqueda, filtros, orden y tamaño de página de una lista',
        description: 'Compartirla con roles (role_ids) requiere w en vi_main.',
        body: ZSavedViewCreate,
        response: { 201: ZSavedViewWriteResponse, ...errors },
      },
    },
    async (request, reply) => {
      const data = await savedViews.create(currentUser(request), request.body);
      return reply.status(201).send({ status: true as const, message: SAVED_VIEW_MSG.created, data });
    },
  );

  app.put(
    '/views/update/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Renombra una vista, guarda en ella los filtros actuales o cambia con quién se comparte',
        description:
          'Quien la creó; en una vista compartida de otra persona, u en vi_main. Cambiar los roles requiere w en vi_main.',
        params: ZIdParam,
        body: ZSavedViewUpdate,
        response: { 200: ZSavedViewWriteResponse, ...errors },
      },
    },
    async (request) => ({
      status: true as const,
      message: SAVED_VIEW_MSG.updated,
      data: await savedViews.update(currentUser(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/views/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Elimina una vista (quien la creó; una compartida de otra persona, con d en vi_main)',
        params: ZIdParam,
        response: { 200: ZMessageResponse, ...errors },
      },
    },
    async (request) => {
      await savedViews.remove(currentUser(request), request.params.id);
      return { status: true, message: SAVED_VIEW_MSG.deleted };
    },
  );
};
