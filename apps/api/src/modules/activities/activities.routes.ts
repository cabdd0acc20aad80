import {
  ACTIVITY_MSG,
  RECORD_STATUS,
  SECTIONS,
  ZActivitiesQuery,
  ZActivitiesResponse,
  ZActivityCreate,
  ZActivityResponse,
  ZActivityUpdate,
  ZErrorResponse,
  ZIdParam,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/access.ts';
import type { Services } from '../../services.ts';

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };
const tags = ['activities'];

/** Activities live inside the ticket screens; who may do what on a ticket is the service's rule. */
const ticketScreens = {
  anyOf: [
    { section: SECTIONS.tickets, flag: 'r' as const },
    { section: SECTIONS.generalTickets, flag: 'r' as const },
  ],
};

export const activitiesRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { activities } = services;

  app.get(
    '/activities',
    {
      config: { access: ticketScreens },
      schema: {
        tags,
        summary: 'Actividades activas de un ticket (asignado: lectura y escritura; rol privilegiado: solo lectura)',
        querystring: ZActivitiesQuery,
        response: { 200: ZActivitiesResponse, ...errors },
      },
    },
    async (request) => ({ status: true as const, ...(await activities.list(currentUser(request), request.query)) }),
  );

  app.post(
    '/activities/create',
    {
      config: { access: ticketScreens },
      schema: {
        tags,
        summary: 'Registra una actividad; solo el usuario asignado al ticket',
        description:
          'user_id y status_id del cuerpo se ignoran: el autor es el usuario de la sesión y la actividad nace activa.',
        body: ZActivityCreate,
        response: { 201: ZActivityResponse, ...errors },
      },
    },
    async (request, reply) => {
      const data = await activities.create(currentUser(request), request.body);
      return reply.status(201).send({ status: true as const, message: ACTIVITY_MSG.created, data });
    },
  );

  app.put(
    '/activities/:id',
    {
      config: { access: ticketScreens },
      schema: {
        tags,
        summary: 'Cambia el estado de una actividad (2 la elimina); solo el usuario asignado al ticket',
        params: ZIdParam,
        body: ZActivityUpdate,
        response: { 200: ZActivityResponse, ...errors },
      },
    },
    async (request) => {
      const data = await activities.setStatus(currentUser(request), request.params.id, request.body.status_id);
      const message = data.status_id === RECORD_STATUS.inactive ? ACTIVITY_MSG.deleted : ACTIVITY_MSG.updated;
      return { status: true as const, message, data };
    },
  );
};
