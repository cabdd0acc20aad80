import { STATUS_OPTIONS, ZErrorResponse, ZOptionsResponse } from '@portal/contract';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpError } from '../../lib/http-error.ts';
import type { Services } from '../../services.ts';

export const healthRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/healthz',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'El proceso está vivo',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'La base de datos responde',
        response: { 200: z.object({ status: z.literal('ok'), database: z.string() }), 503: ZErrorResponse },
      },
    },
    async () => {
      try {
        await services.database.ping();
      } catch {
        throw new HttpError(503, 'La base de datos no responde.');
      }
      return { status: 'ok' as const, database: services.database.dialect };
    },
  );

  app.get(
    '/csrf-token',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Token anti-falsificación para PUT y PATCH (también en la meta csrf-token del index.html)',
        response: { 200: z.object({ token: z.string() }) },
      },
    },
    async () => ({ token: services.csrf.issue() }),
  );

  app.get(
    '/statuses',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['catalogs'],
        summary: 'Estados de registro (Activo, Inactivo)',
        response: { 200: ZOptionsResponse },
      },
    },
    async () => ({ status: true as const, data: STATUS_OPTIONS }),
  );
};
