import {
  QUEUE_MSG,
  SECTIONS,
  ZErrorResponse,
  ZListQueryWith,
  ZQueueParams,
  ZQueueTabsResponse,
  ZTakeParams,
  ZTicketPage,
  ZTicketResponse,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/access.ts';
import type { Services } from '../../services.ts';

const errors = {
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
  422: ZErrorResponse,
};
const tags = ['queues'];
const access = (flag: 'r' | 'w') => ({ section: SECTIONS.queues, flag });

/** Colas (section qu_main): r shows the queues, w takes a ticket from one. */
export const queuesRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { queues } = services;

  app.get(
    '/queues',
    {
      config: { access: access('r') },
      schema: {
        tags,
        summary: 'Las colas del usuario: sus grupos (un supervisor ve todos) con cuántos tickets esperan',
        response: { 200: ZQueueTabsResponse, ...errors },
      },
    },
    async (request) => ({ status: true as const, data: await queues.tabs(currentUser(request)) }),
  );

  app.post(
    '/queues/:groupId',
    {
      config: { access: access('r') },
      schema: {
        tags,
        summary: 'Una página de la cola de un grupo: sin asignar y no cerrados, lo más urgente y antiguo primero',
        params: ZQueueParams,
        body: ZListQueryWith(20).pick({ page: true, per_page: true }),
        response: { 200: ZTicketPage, ...errors },
      },
    },
    async (request) => ({
      status: true as const,
      ...(await queues.page(currentUser(request), request.params.groupId, request.body)),
    }),
  );

  app.post(
    '/queues/take/:ticketId',
    {
      config: { access: access('w') },
      schema: {
        tags,
        summary: 'Tomar: se asigna el ticket en cola al usuario; 409 si otro agente lo tomó antes',
        params: ZTakeParams,
        response: { 200: ZTicketResponse, ...errors },
      },
    },
    async (request) => ({
      status: true as const,
      message: QUEUE_MSG.taken,
      data: await queues.take(currentUser(request), request.params.ticketId, request.ip),
    }),
  );
};
