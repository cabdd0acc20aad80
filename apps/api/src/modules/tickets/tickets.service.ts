import { MSG, NOTIFICATION_TEXT, SECTIONS, TICKET_MSG, type TTicket, type TTicketListQuery } from '@portal/contract';
import type { Database } from '../../db/database.ts';
import { HttpError, forbidden, notFound, validationFailed, type FieldErrors } from '../../lib/http-error.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import type { PermissionsRepository } from '../permissions/permissions.repository.ts';
import type { AuthUserRow } from '../users/users.repository.ts';
import type { TicketFilter, TicketValues, TicketsRepository } from './tickets.repository.ts';

interface Deps {
  database: Database;
  tickets: TicketsRepository;
  permissions: PermissionsRepository;
  notifications: Pick<NotificationsService, 'create' | 'notify'>;
}

type Actor = Pick<AuthUserRow, 'id' | 'role_id'>;

const isInvolved = (actor: Actor, ticket: { created_by: number; user_assigned_id: number | null }) =>
  ticket.created_by === actor.id || ticket.user_assigned_id === actor.id;

export function createTicketsService({ database, tickets, permissions, notifications }: Deps) {
  const can = (actor: Actor, section: string, flag: 'r' | 'w' | 'u' | 'd') =>
    permissions.hasFlag(actor.role_id, section, flag);

  /**
   * Tickets Generales grants the flag on every ticket; Mis Tickets only on the
   * tickets the caller created or is assigned to.
   */
  async function mayActOn(
    actor: Actor,
    ticket: { created_by: number; user_assigned_id: number | null },
    flag: 'w' | 'u',
  ): Promise<boolean> {
    if (await can(actor, SECTIONS.generalTickets, flag)) return true;
    return isInvolved(actor, ticket) && (await can(actor, SECTIONS.tickets, flag));
  }

  async function checkReferences(values: TicketValues, current?: TicketValues): Promise<void> {
    // A ticket may keep a catalogue value that was deactivated after it was chosen.
    const changed = current
      ? (Object.fromEntries(
          Object.entries(values).map(([k, v]) => [k, current[k as keyof TicketValues] === v ? null : v]),
        ) as Record<keyof TicketValues, number | null>)
      : values;
    const missing = await tickets.missingReferences(values);
    const errors: FieldErrors = {};
    for (const field of missing) if (changed[field] !== null) errors[field] = [MSG.invalidReference];
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
  }

  async function load(id: number): Promise<TTicket> {
    const ticket = await tickets.findById(id);
    if (!ticket) throw notFound(TICKET_MSG.notFound);
    return ticket;
  }

  return {
    listMine: (actor: Actor, query: TTicketListQuery) =>
      tickets.list({ scope: { kind: 'mine', userId: actor.id }, search: query.search }, query),

    listGeneral: (query: TTicketListQuery) => tickets.list({ scope: { kind: 'all' }, search: query.search }, query),

    /** History shows every ticket to those who may see Tickets Generales, otherwise the caller's own. */
    async listHistory(actor: Actor, history: NonNullable<TicketFilter['history']>, query: TTicketListQuery) {
      const seesAll = await can(actor, SECTIONS.generalTickets, 'r');
      const scope: TicketFilter['scope'] = seesAll ? { kind: 'all' } : { kind: 'mine', userId: actor.id };
      return tickets.list({ scope, search: query.search, history }, query);
    },

    async create(actor: Actor, values: TicketValues): Promise<TTicket> {
      await checkReferences(values);
      const id = await tickets.insert(values, actor.id);
      return load(id);
    },

    async update(actor: Actor, id: number, values: TicketValues): Promise<TTicket> {
      const current = await load(id);
      if (!(await mayActOn(actor, current, 'u'))) throw forbidden(TICKET_MSG.notYours);
      await checkReferences(values, current);
      await database.db.transaction().execute(async (trx) => {
        await tickets.update(id, values, trx);
        if (current.status_id !== values.status_id) {
          await notifications.notify(
            {
              recipientId: current.created_by,
              actorId: actor.id,
              ticketId: id,
              message: NOTIFICATION_TEXT.statusChanged,
            },
            trx,
          );
        }
      });
      return load(id);
    },

    /**
     * Assigns the ticket ('Asignar' needs w, changing an existing assignee needs u)
     * and notifies the assignee in the same transaction, unless they assigned it to themselves.
     */
    async assign(actor: Actor, id: number, assigneeId: number): Promise<TTicket> {
      const ticket = await tickets.findOwnership(id);
      if (!ticket) throw notFound(TICKET_MSG.notFound);
      const flag = ticket.user_assigned_id === null ? 'w' : 'u';
      if (!(await mayActOn(actor, ticket, flag))) {
        throw forbidden(flag === 'u' ? TICKET_MSG.reassignNeedsUpdate : TICKET_MSG.notYours);
      }
      if (ticket.user_assigned_id === assigneeId) throw new HttpError(409, TICKET_MSG.alreadyAssigned);
      if (!(await tickets.findActiveUser(assigneeId))) {
        throw validationFailed({ userId: [TICKET_MSG.assigneeInactive] });
      }
      await database.db.transaction().execute(async (trx) => {
        const isAssigned = await tickets.assign(id, assigneeId, ticket.user_assigned_id, trx);
        if (!isAssigned) throw new HttpError(409, 'El ticket cambió mientras lo asignabas. Inténtalo de nuevo.');
        if (assigneeId !== actor.id) {
          await notifications.create(
            {
              user_id: assigneeId,
              actor_id: actor.id,
              ticket_id: id,
              title: TICKET_MSG.assignmentTitle(id),
              message: TICKET_MSG.assignmentMessage,
              type: 'info',
            },
            trx,
          );
        }
      });
      return load(id);
    },

    lastThree: (actor: Actor) => tickets.lastOf(actor.id, 3),

    assignableUsers: (query: TTicketListQuery) => tickets.assignableUsers(query),
  };
}
export type TicketsService = ReturnType<typeof createTicketsService>;
