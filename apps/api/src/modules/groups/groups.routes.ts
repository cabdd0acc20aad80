import {
  ABSENCE_MSG,
  GROUP_MSG,
  SECTIONS,
  ZErrorResponse,
  ZGroupMemberParams,
  ZGroupMemberResponse,
  ZGroupMembersResponse,
  ZGroupMemberWrite,
  ZAbsenceResponse,
  ZAbsenceWrite,
  ZIdParam,
  ZMessageResponse,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/access.ts';
import type { Services } from '../../services.ts';

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };
const tags = ['groups'];
const access = (flag: 'r' | 'w' | 'd') => ({ section: SECTIONS.groups, flag });
/** Users read and set their own absence; another user's needs the users section. */
const selfOr = (flag: 'r' | 'u') => ({ section: SECTIONS.users, flag, unlessSelf: 'id' });

/** A group's members, edited from the Grupos screen (section gr_main: r lists, w adds, d removes). */
export const groupsRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { groups } = services;

  app.get(
    '/groups/:id/members',
    {
      config: { access: access('r') },
      schema: {
        tags,
        summary: 'Miembros del grupo (líderes primero, luego por nombre)',
        params: ZIdParam,
        response: { 200: ZGroupMembersResponse, ...errors },
      },
    },
    async (request) => ({ status: true as const, data: await groups.members(request.params.id) }),
  );

  app.post(
    '/groups/:id/members',
    {
      config: { access: access('w') },
      schema: {
        tags,
        summary: 'Agrega un miembro al grupo, o cambia el rol de uno que ya lo es',
        description: '201 si el usuario se agregó; 200 si ya era miembro (su rol queda el indicado).',
        params: ZIdParam,
        body: ZGroupMemberWrite,
        response: { 200: ZGroupMemberResponse, 201: ZGroupMemberResponse, ...errors },
      },
    },
    async (request, reply) => {
      const actor = { id: currentUser(request).id, ip: request.ip };
      const { member, isNew } = await groups.addMember(actor, request.params.id, request.body);
      return reply.status(isNew ? 201 : 200).send({
        status: true as const,
        message: isNew ? GROUP_MSG.memberAdded : GROUP_MSG.memberUpdated,
        data: member,
      });
    },
  );

  app.delete(
    '/groups/:id/members/:userId',
    {
      config: { access: access('d') },
      schema: {
        tags,
        summary: 'Quita un miembro del grupo',
        params: ZGroupMemberParams,
        response: { 200: ZMessageResponse, ...errors },
      },
    },
    async (request) => {
      await groups.removeMember(
        { id: currentUser(request).id, ip: request.ip },
        request.params.id,
        request.params.userId,
      );
      return { status: true, message: GROUP_MSG.memberRemoved };
    },
  );

  app.get(
    '/users/:id/absence',
    {
      config: { access: selfOr('r') },
      schema: {
        tags,
        summary: 'Ausencia del usuario: si está ausente ahora, desde cuándo y hasta cuándo',
        params: ZIdParam,
        response: { 200: ZAbsenceResponse, ...errors },
      },
    },
    async (request) => ({ status: true as const, message: '', data: await groups.absence(request.params.id) }),
  );

  app.put(
    '/users/:id/absence',
    {
      config: { access: selfOr('u') },
      schema: {
        tags,
        summary: 'Marca al usuario como ausente (con fecha de regreso opcional) o de vuelta',
        description:
          'Un miembro ausente no recibe tickets por asignación automática. La fecha de regreso debe ser posterior al inicio (422).',
        params: ZIdParam,
        body: ZAbsenceWrite,
        response: { 200: ZAbsenceResponse, ...errors },
      },
    },
    async (request) => {
      const data = await groups.setAbsence(request.params.id, request.body);
      return { status: true as const, message: data.absent ? ABSENCE_MSG.marked : ABSENCE_MSG.cleared, data };
    },
  );
};
