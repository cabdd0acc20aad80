import {
  SECTIONS,
  ZErrorResponse,
  ZReferenceBulk,
  ZReferenceBulkResponse,
  ZReferencePage,
  ZReferenceParams,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/access.ts';
import type { Services } from '../../services.ts';

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };
const tags = ['tickets'];

/** `/references/{typeId}/{value}`: the page of a logistics reference and its bulk actions. */
export const referencesRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { referencesService } = services;

  app.get(
    '/references/:typeId/:value',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Los tickets con una referencia (embarque, pedido, guía, placa), abiertos y cerrados, y su resumen',
        description: 'Solo los tickets que el usuario puede ver (la regla de las listas). El valor se normaliza.',
        params: ZReferenceParams,
        response: { 200: ZReferencePage, ...errors },
      },
    },
    async (request) => ({
      status: true as const,
      data: await referencesService.page(currentUser(request), request.params.typeId, request.params.value),
    }),
  );

  app.post(
    '/references/:typeId/:value/bulk',
    {
      config: {
        access: {
          anyOf: [SECTIONS.tickets, SECTIONS.generalTickets].map((section) => ({ section, flag: 'u' as const })),
        },
      },
      schema: {
        tags,
        summary: 'Asigna o cambia de estado todos los tickets abiertos con la referencia',
        description:
          'Cada ticket se revisa uno por uno con los permisos del usuario (como si lo editara o asignara él): los que no puede cambiar quedan en el informe con su motivo y los demás se actualizan.',
        params: ZReferenceParams,
        body: ZReferenceBulk,
        response: { 200: ZReferenceBulkResponse, ...errors },
      },
    },
    async (request) => ({
      status: true as const,
      ...(await referencesService.bulk(
        currentUser(request),
        request.params.typeId,
        request.params.value,
        request.body,
        request.ip,
      )),
    }),
  );
};
