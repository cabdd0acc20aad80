import {
  SECTIONS,
  ZErrorResponse,
  ZGroupLoadsQuery,
  ZGroupLoadsResponse,
  ZUserTicketsQuery,
  ZUserTicketsResponse,
  ZWorkloadPage,
  ZWorkloadQuery,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.ts';

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };
const tags = ['workload'];
const access = { section: SECTIONS.workload, flag: 'r' as const };

export const workloadRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { workload } = services;

  app.post(
    '/tickets/count-per-user',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Carga de trabajo: usuarios activos con sus tickets asignados, en proceso y terminados',
        body: ZWorkloadQuery,
        response: { 200: ZWorkloadPage, ...errors },
      },
    },
    async (request) => ({ status: true as const, ...(await workload.countPerUser(request.body)) }),
  );

  app.post(
    '/tickets/activities-per-user',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Tickets asignados a un usuario (modal de detalles de la carga de trabajo)',
        body: ZUserTicketsQuery,
        response: { 200: ZUserTicketsResponse, ...errors },
      },
    },
    async (request) => ({
      status: true as const,
      ...(await workload.ticketsOf(request.body.user_id, request.body)),
    }),
  );

  app.get(
    '/workload/groups',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Carga de trabajo por grupo: tickets en cola y tickets abiertos de cada miembro',
        querystring: ZGroupLoadsQuery,
        response: { 200: ZGroupLoadsResponse, ...errors },
      },
    },
    async (request) => ({ status: true as const, data: await workload.groupLoads(request.query.group_id) }),
  );
};
