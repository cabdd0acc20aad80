import { SECTIONS, ZErrorResponse, ZReportSummaryQuery, ZReportSummaryResponse } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.ts';
import { createReportsRepository } from './reports.repository.ts';
import { createReportsService } from './reports.service.ts';

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 422: ZErrorResponse };

export const reportsRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const reports = createReportsService({ reports: createReportsRepository(services.database) });

  app.get(
    '/reports/summary',
    {
      config: { access: { section: SECTIONS.dashboard, flag: 'r' } },
      schema: {
        tags: ['reports'],
        summary:
          'Tablero: tickets abiertos, en proceso, sin asignar, por vencer y vencidos ahora; creados, cerrados y mediana de cierre en el rango; series semanales (también SLA a tiempo), por etapa, prioridad, área, proyecto y agente',
        querystring: ZReportSummaryQuery,
        response: { 200: ZReportSummaryResponse, ...errors },
      },
    },
    async (request) => ({
      status: true as const,
      message: 'Resumen del tablero.',
      data: await reports.summary(request.query),
    }),
  );
};
