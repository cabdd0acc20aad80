import {
  SECTIONS,
  TICKET_MSG,
  ZAssignParams,
  ZAssignResponse,
  ZAssignableUsersPage,
  ZAssignableUsersQuery,
  ZErrorResponse,
  ZTicketDetailResponse,
  ZTicketExportQuery,
  ZIdParam,
  ZKanbanMove,
  KANBAN_MSG,
  ZLastTickets,
  ZTicketListQuery,
  ZTicketPage,
  ZTicketResponse,
  ZTicketCreateResponse,
  ZTicketUpdate,
  ZTicketWrite,
  type TicketListKind,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { currentUser } from '../../plugins/access.ts';
import type { Services } from '../../services.ts';
import { TICKET_LIST_SECTION } from './tickets.service.ts';

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };
const tags = ['tickets'];

export const ticketsRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { tickets } = services;
  const either = (flags: ('w' | 'u')[]) => ({
    anyOf: [SECTIONS.tickets, SECTIONS.generalTickets].flatMap((section) => flags.map((flag) => ({ section, flag }))),
  });

  // The four ticket lists: one body, one answer; each needs `r` on its own section.
  const historyDescription =
    'Todos los tickets para quien puede ver Tickets Generales; si no, los creados por el usuario o asignados a él.';
  const lists: { url: string; list: TicketListKind; summary: string; description?: string }[] = [
    {
      url: '/tickets',
      list: 'mine',
      summary: 'Mis Tickets: los creados por el usuario o asignados a él, más recientes primero',
    },
    {
      url: '/general-tickets',
      list: 'general',
      summary: 'Tickets Generales: todos los tickets, más recientes primero',
    },
    {
      url: '/tickets/current',
      list: 'current',
      summary: 'Tickets Actuales: los que no están en una etapa cerrada',
      description: historyDescription,
    },
    {
      url: '/tickets/old',
      list: 'old',
      summary: 'Tickets Antiguos: los que están en una etapa cerrada',
      description: historyDescription,
    },
  ];
  for (const { url, list, summary, description } of lists) {
    app.post(
      url,
      {
        config: { access: { section: TICKET_LIST_SECTION[list], flag: 'r' } },
        schema: { tags, summary, description, body: ZTicketListQuery, response: { 200: ZTicketPage, ...errors } },
      },
      async (request) => ({ status: true as const, ...(await tickets.list(currentUser(request), list, request.body)) }),
    );
  }

  app.post(
    '/tickets/create',
    {
      config: { access: either(['w']) },
      schema: {
        tags,
        summary: 'Crea un ticket; el creador es el usuario de la sesión',
        body: ZTicketWrite,
        response: { 201: ZTicketCreateResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { possible_duplicate, ...data } = await tickets.create(currentUser(request), request.body);
      return reply.status(201).send({ status: true as const, message: TICKET_MSG.created, data, possible_duplicate });
    },
  );

  app.put(
    '/tickets/update/:id',
    {
      config: { access: either(['u']) },
      schema: {
        tags,
        summary: 'Actualiza un ticket (Mis Tickets: solo los propios; Tickets Generales: cualquiera)',
        description:
          'Cerrar un ticket padre con hijos abiertos responde 409 con la lista de hijos (errors.open_children), salvo con close_with_open_children: true.',
        params: ZIdParam,
        body: ZTicketUpdate,
        response: { 200: ZTicketResponse, 409: ZErrorResponse, ...errors },
      },
    },
    async (request) => {
      const { close_with_open_children: closeWithOpenChildren, ...values } = request.body;
      return {
        status: true as const,
        message: TICKET_MSG.updated,
        data: await tickets.update(currentUser(request), request.params.id, values, { closeWithOpenChildren }),
      };
    },
  );

  app.patch(
    '/tickets/:id/status',
    {
      config: { access: either(['u']) },
      schema: {
        tags,
        summary: 'Cambia el estado de un ticket (una tarjeta del Kanban soltada en otra columna)',
        description:
          'Las mismas reglas que editar el ticket (u sobre él; estado activo; un padre con hijos abiertos responde 409 salvo con close_with_open_children: true); la línea de tiempo lo registra como cambio de estado.',
        params: ZIdParam,
        body: ZKanbanMove,
        response: { 200: ZTicketResponse, 409: ZErrorResponse, ...errors },
      },
    },
    async (request) => ({
      status: true as const,
      message: KANBAN_MSG.moved,
      data: await tickets.moveStatus(currentUser(request), request.params.id, request.body.status_id, {
        closeWithOpenChildren: request.body.close_with_open_children,
      }),
    }),
  );

  app.patch(
    '/tickets/:id/assign/:userId',
    {
      config: { access: either(['w', 'u']) },
      schema: {
        tags,
        summary: 'Asigna el ticket a un usuario y le envía una notificación',
        description: 'Asignar un ticket sin asignado requiere w; cambiar el asignado requiere u.',
        params: ZAssignParams,
        response: { 200: ZAssignResponse, 409: ZErrorResponse, ...errors },
      },
    },
    async (request) => ({
      status: true as const,
      message: TICKET_MSG.assigned,
      data: await tickets.assign(currentUser(request), request.params.id, request.params.userId, request.ip),
    }),
  );

  app.post(
    '/tickets/assignable-users',
    {
      config: { access: either(['w', 'u']) },
      schema: {
        tags,
        summary: 'Usuarios activos a los que se puede asignar un ticket (modal Asignar)',
        body: ZAssignableUsersQuery,
        response: { 200: ZAssignableUsersPage, ...errors },
      },
    },
    async (request) => ({ status: true as const, ...(await tickets.assignableUsers(request.body)) }),
  );

  app.post(
    '/tickets/export',
    {
      config: {
        access: {
          anyOf: Object.values(TICKET_LIST_SECTION).map((section) => ({ section, flag: 'r' as const })),
        },
      },
      schema: {
        tags,
        summary: 'Exporta a CSV la lista indicada con su búsqueda, filtros y orden (todas sus páginas)',
        description:
          'text/csv; charset=utf-8 con BOM, encabezados en español, comillas RFC 4180 y celdas que empiezan con = + - @ neutralizadas. Se envía fila a fila. Requiere r en la sección de la lista.',
        body: ZTicketExportQuery,
        response: { 200: z.string().describe('CSV'), ...errors },
      },
    },
    async (request, reply) => {
      const chunks = await tickets.export(currentUser(request), request.body);
      const stamp = new Date().toISOString().slice(0, 10);
      return (
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="tickets-${request.body.list}-${stamp}.csv"`)
          .header('cache-control', 'no-store')
          // A stream bypasses the response serializer; the schema documents the body only.
          .send(Readable.from(chunks) as unknown as string)
      );
    },
  );

  app.get(
    '/tickets/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Un ticket con su historial de cambios (línea de tiempo) y lo que el usuario puede hacer en él',
        description:
          'La misma regla de visibilidad que las listas: 403 si el usuario no puede verlo, 404 si no existe.',
        params: ZIdParam,
        response: { 200: ZTicketDetailResponse, ...errors },
      },
    },
    async (request) => ({
      status: true as const,
      data: await tickets.detail(currentUser(request), request.params.id),
    }),
  );

  app.get(
    '/tickets/last-three',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Los tres tickets más recientes del usuario (creados o asignados)',
        response: { 200: ZLastTickets, 401: ZErrorResponse },
      },
    },
    async (request) => tickets.lastThree(currentUser(request)),
  );
};
