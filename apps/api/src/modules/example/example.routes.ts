import {
  MSG,
  SECTIONS,
  ZErrorResponse,
  ZExampleChangeStatus,
  ZExampleChangeStatusResponse,
  ZIdParam,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 422: ZErrorResponse };

/**
 * The component showcase's endpoint ('/example'): the change-status
 * button calls a real route, which checks the caller and the body like any
 * other and answers, but stores nothing.
 */
export const exampleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.patch(
    '/example/:id/change-status',
    {
      config: { access: { section: SECTIONS.example, flag: 'd' } },
      schema: {
        tags: ['example'],
        summary: 'Cambio de estado de demostración del catálogo de componentes (no guarda nada)',
        params: ZIdParam,
        body: ZExampleChangeStatus,
        response: { 200: ZExampleChangeStatusResponse, ...errors },
      },
    },
    async (request) => ({
      status: true as const,
      message: MSG.statusChanged,
      data: { id: request.params.id, status_id: request.body.status_id },
    }),
  );
};
