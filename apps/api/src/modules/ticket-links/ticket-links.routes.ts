import {
  SECTIONS,
  TICKET_LINK_MSG,
  ZErrorResponse,
  ZIdParam,
  ZTicketLinkCreate,
  ZTicketLinkParams,
  ZTicketLinkResponse,
  ZTicketLinks,
  ZTicketMerge,
  ZTicketMergeResponse,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/access.ts';
import type { Services } from '../../services.ts';

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };
const tags = ['tickets'];

/** `/tickets/{id}/links`: the Relacionados panel of a ticket's page. */
export const ticketLinksRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { ticketLinks } = services;
  const update = {
    anyOf: [SECTIONS.tickets, SECTIONS.generalTickets].map((section) => ({ section, flag: 'u' as const })),
  };

  app.get(
    '/tickets/:id/links',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Los tickets relacionados: padre, hijos (con su avance), duplicados y relacionados',
        description: 'La misma regla de visibilidad que la página del ticket (403 si no puede verlo).',
        params: ZIdParam,
        response: { 200: ZTicketLinks, ...errors },
      },
    },
    async (request) => ticketLinks.list(currentUser(request), request.params.id),
  );

  app.post(
    '/tickets/:id/links',
    {
      config: { access: update },
      schema: {
        tags,
        summary: 'Relaciona el ticket con otro (padre, hijo, duplicado de, relacionado con)',
        description:
          'Requiere u sobre el ticket y poder ver el otro. Se rechazan los ciclos, un segundo padre y un segundo original (422).',
        params: ZIdParam,
        body: ZTicketLinkCreate,
        response: { 201: ZTicketLinkResponse, ...errors },
      },
    },
    async (request, reply) => {
      await ticketLinks.add(currentUser(request), request.params.id, request.body);
      return reply.status(201).send({ status: true as const, message: TICKET_LINK_MSG.created });
    },
  );

  app.post(
    '/tickets/:id/merge',
    {
      config: { access: update },
      schema: {
        tags,
        summary: 'Marca el ticket como duplicado de otro y lo fusiona en él',
        description:
          'En una transacción: mueve actividades y adjuntos al ticket indicado (marcados con su origen), relaciona ambos como duplicado → original, cierra el duplicado en Cancelado y avisa a ambos asignados. Requiere u sobre los dos tickets.',
        params: ZIdParam,
        body: ZTicketMerge,
        response: { 200: ZTicketMergeResponse, 409: ZErrorResponse, ...errors },
      },
    },
    async (request) => {
      const data = await ticketLinks.merge(currentUser(request), request.params.id, request.body.ticket_id);
      return { status: true as const, message: TICKET_LINK_MSG.merged(data.original_id), data };
    },
  );

  app.delete(
    '/tickets/:id/links/:linkId',
    {
      config: { access: update },
      schema: {
        tags,
        summary: 'Quita una relación del ticket',
        params: ZTicketLinkParams,
        response: { 200: ZTicketLinkResponse, ...errors },
      },
    },
    async (request) => {
      await ticketLinks.remove(currentUser(request), request.params.id, request.params.linkId);
      return { status: true as const, message: TICKET_LINK_MSG.removed };
    },
  );
};
