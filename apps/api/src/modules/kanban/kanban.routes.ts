import {
  SECTIONS,
  ZErrorResponse,
  ZKanbanBoardResponse,
  ZKanbanColumnPageResponse,
  ZKanbanColumnQuery,
  ZKanbanQuery,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/access.ts';
import type { Services } from '../../services.ts';

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 422: ZErrorResponse };
const tags = ['kanban'];
const access = { section: SECTIONS.kanban, flag: 'r' as const };

/**
 * Kanban (section kb_main, r): the board and a column's next page. Moving a card is a ticket
 * update (`PATCH /tickets/{id}/status`, u on the ticket).
 */
export const kanbanRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { kanban } = services;

  app.post(
    '/tickets/board',
    {
      config: { access },
      schema: {
        tags,
        summary:
          'Kanban: una columna por estado activo (abierto → en progreso → cerrado), sus primeras 30 tarjetas y cuántas hay',
        description:
          'Los mismos filtros, búsqueda y orden que las listas de tickets; `mine`: solo los creados por el usuario o asignados a él. Las columnas de estados cerrados muestran los tickets de los últimos 7 días. Cada tarjeta lleva lo que muestra (número, nombre, prioridad, estado del SLA, asignado) y su estado; el resto está en la página del ticket. El total se cuenta hasta 10.000 (count_is_lower_bound: más de 10.000).',
        body: ZKanbanQuery,
        response: { 200: ZKanbanBoardResponse, ...errors },
      },
    },
    async (request) => ({ status: true as const, data: await kanban.board(currentUser(request), request.body) }),
  );

  app.post(
    '/tickets/board/column',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Cargar más: la siguiente página de una columna, después de la posición (cursor) de la anterior',
        body: ZKanbanColumnQuery,
        response: { 200: ZKanbanColumnPageResponse, ...errors },
      },
    },
    async (request) => ({ status: true as const, data: await kanban.column(currentUser(request), request.body) }),
  );
};
