import {
  NOTIFICATION_TEXT,
  ZActiveNotificationsResponse,
  ZErrorResponse,
  ZNotificationHistoryQuery,
  ZNotificationHistoryResponse,
  ZNotificationIdsRequest,
  ZNotificationStreamQuery,
  ZNotificationUpdateResponse,
  ZStreamTicketResponse,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { OutgoingHttpHeaders } from 'node:http';
import { z } from 'zod';
import { unauthorized } from '../../lib/http-error.ts';
import { currentUser } from '../../plugins/access.ts';
import type { Services } from '../../services.ts';
import { STREAM_TICKET_TTL_SECONDS } from './notifications.service.ts';

const tags = ['notifications'];
const errors = { 401: ZErrorResponse, 422: ZErrorResponse };

/** Every route acts on the caller's own notifications only; the `authenticated` rule is the whole access check. */
export const notificationsRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { notifications } = services;

  app.addHook('onReady', () => notifications.start(app.log));
  // Before the server stops accepting: end the streams, or closing would wait for them forever.
  app.addHook('preClose', async () => notifications.closeStreams());
  app.addHook('onClose', () => notifications.close());

  app.get(
    '/notifications/active-records',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Notificaciones sin leer del usuario (las más recientes primero)',
        response: { 200: ZActiveNotificationsResponse, 401: ZErrorResponse },
      },
    },
    async (request) => ({ status: true as const, ...(await notifications.listActive(currentUser(request).id)) }),
  );

  app.get(
    '/notifications/all-data',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Historial de notificaciones del usuario, leídas o no (paginado por cursor before_id)',
        querystring: ZNotificationHistoryQuery,
        response: { 200: ZNotificationHistoryResponse, ...errors },
      },
    },
    async (request) => ({
      status: true as const,
      ...(await notifications.listHistory(currentUser(request).id, request.query)),
    }),
  );

  app.post(
    '/notifications/view',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Marca como vistas las notificaciones indicadas (solo las propias; las demás se ignoran)',
        body: ZNotificationIdsRequest,
        response: { 200: ZNotificationUpdateResponse, ...errors },
      },
    },
    async (request) => {
      const updated = await notifications.markViewed(currentUser(request).id, request.body.ids);
      return { status: true as const, message: NOTIFICATION_TEXT.viewed, data: { updated } };
    },
  );

  app.post(
    '/notifications/read',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Marca como leídas (quita de la bandeja) las notificaciones indicadas, solo las propias',
        body: ZNotificationIdsRequest,
        response: { 200: ZNotificationUpdateResponse, ...errors },
      },
    },
    async (request) => {
      const updated = await notifications.markRead(currentUser(request).id, request.body.ids);
      return { status: true as const, message: NOTIFICATION_TEXT.read, data: { updated } };
    },
  );

  app.post(
    '/notifications/read-all',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Marca como leídas todas las notificaciones del usuario',
        response: { 200: ZNotificationUpdateResponse, 401: ZErrorResponse },
      },
    },
    async (request) => {
      const updated = await notifications.markAllRead(currentUser(request).id);
      return { status: true as const, message: NOTIFICATION_TEXT.deleted, data: { updated } };
    },
  );

  app.post(
    '/notifications/stream-ticket',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: `Permiso de un solo uso (válido ${STREAM_TICKET_TTL_SECONDS} s) para abrir el canal de notificaciones`,
        response: { 200: ZStreamTicketResponse, 401: ZErrorResponse },
      },
    },
    async (request) => {
      if (!request.auth) throw unauthorized();
      const ticket = notifications.issueStreamTicket(request.auth.user.id, request.auth.claims);
      return {
        status: true as const,
        message: NOTIFICATION_TEXT.streamTicket,
        data: { ticket, expires_in: STREAM_TICKET_TTL_SECONDS },
      };
    },
  );

  app.get(
    '/notifications/stream',
    {
      // EventSource cannot send the bearer header: the single-use ticket from /stream-ticket authenticates instead.
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Canal en vivo (text/event-stream) de notificaciones nuevas',
        description:
          'Eventos: `ready` al abrir, `notification` (data: la notificación, id: su id) por cada nueva sin leer, `end` (data: { reason }) cuando el servidor cierra el canal. `since`: el id más reciente que el cliente ya tiene.',
        security: [],
        querystring: ZNotificationStreamQuery,
        produces: ['text/event-stream'],
        response: {
          200: z.string().describe('text/event-stream'),
          401: ZErrorResponse,
          422: ZErrorResponse,
          429: ZErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const session = await notifications.redeemStreamTicket(request.query.ticket, request.ip);
      const since = request.query.since ?? (await notifications.latestIdOf(session.userId));
      reply.hijack();
      await notifications.openStream(reply.raw, session, since, reply.getHeaders() as OutgoingHttpHeaders);
      return reply;
    },
  );
};
