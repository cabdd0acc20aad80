import {
  MAIL_OUTBOX_MSG,
  SECTIONS,
  ZDataResponse,
  ZErrorResponse,
  ZIdParam,
  ZMailInStatusResponse,
  ZMailOutboxItem,
  ZMailOutboxPage,
  ZMailOutboxQuery,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pageMeta } from '../../db/paging.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';
import type { Services } from '../../services.ts';

const errors = {
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
  422: ZErrorResponse,
};
const tags = ['mail'];
/** Accesos → Correo (section mo_main, seeded for Administrador alone): reading needs r, a retry w. */
const access = (flag: 'r' | 'w') => ({ section: SECTIONS.mailOutbox, flag });

/** The Correo screen: the outbox queue, a retry of a failed mail, and the mail-in poller's state. */
export const mailOutboxRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { mailOutbox, mailWorker, mailIn } = services;

  app.post(
    '/mail-outbox',
    {
      config: { access: access('r') },
      schema: {
        tags,
        summary: 'La cola de correo (pendientes, enviados, fallidos con su último error), lo más reciente primero',
        body: ZMailOutboxQuery,
        response: { 200: ZMailOutboxPage, ...errors },
      },
    },
    async (request) => {
      const { rows, total } = await mailOutbox.list(request.body);
      return { status: true as const, data: rows, meta: pageMeta(total, request.body) };
    },
  );

  app.post(
    '/mail-outbox/retry/:id',
    {
      config: { access: access('w') },
      schema: {
        tags,
        summary: 'Reintentar: un correo fallido vuelve a la cola con sus intentos desde cero; 409 si no está fallido',
        params: ZIdParam,
        response: { 200: ZDataResponse(ZMailOutboxItem), ...errors },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!(await mailOutbox.findById(id))) throw notFound(MAIL_OUTBOX_MSG.notFound);
      if (!(await mailOutbox.retry(id))) throw new HttpError(409, MAIL_OUTBOX_MSG.notFailed);
      mailWorker.wake();
      const row = (await mailOutbox.findById(id))!;
      return {
        status: true as const,
        message: MAIL_OUTBOX_MSG.retried,
        data: { ...row, status: row.status === 'digest' ? 'pending' : row.status },
      };
    },
  );

  app.get(
    '/mail-outbox/inbound',
    {
      config: { access: access('r') },
      schema: {
        tags,
        summary: 'Correo entrante: la última lectura del buzón, cuántos mensajes por resultado y el último error',
        response: { 200: ZMailInStatusResponse, ...errors },
      },
    },
    async () => ({ status: true as const, data: await mailIn.status(services.config.mailInUrl !== undefined) }),
  );
};
