import { ACTIVITY_MSG, NOTIFICATION_TEXT, RECORD_STATUS, TICKET_MSG, type TActivity } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { forbidden, notFound } from '../../lib/http-error.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import type { TicketEventsRepository } from '../tickets/ticket-events.repository.ts';
import type { TicketsRepository } from '../tickets/tickets.repository.ts';
import type { AuthUserRow } from '../users/users.repository.ts';
import type { SlaRepository } from '../sla/sla.repository.ts';
import type { ActivitiesRepository } from './activities.repository.ts';

interface Deps {
  database: Database;
  activities: ActivitiesRepository;
  tickets: TicketsRepository;
  /** The ticket's timeline: activity added / removed / restored, in the same transaction. */
  events: TicketEventsRepository;
  notifications: Pick<NotificationsService, 'notify' | 'ticketChanged'>;
  sla: Pick<SlaRepository, 'recordFirstResponse'>;
  now?: () => number;
}

type Actor = Pick<AuthUserRow, 'id' | 'is_supervisor'>;

const ticketChange = (t: { id: number; created_by: number; user_assigned_id: number | null }) => ({
  ticketId: t.id,
  userIds: [t.created_by, ...(t.user_assigned_id === null ? [] : [t.user_assigned_id])],
});
type Mode = 'write' | 'read';

/**
 * The ticket's assignee adds and deletes its activities; a privileged role
 * (is_supervisor) reads them; anyone else is refused.
 */
export function createActivitiesService({
  database,
  activities,
  tickets,
  events,
  notifications,
  sla,
  now = Date.now,
}: Deps) {
  async function ticketFor(actor: Actor, ticketId: number) {
    const ticket = await tickets.findOwnership(ticketId);
    if (!ticket) throw notFound(TICKET_MSG.notFound);
    const mode: Mode | null =
      ticket.user_assigned_id === actor.id ? 'write' : Number(actor.is_supervisor) === 1 ? 'read' : null;
    if (!mode) throw forbidden(ACTIVITY_MSG.cannotRead);
    return { ticket, mode };
  }

  async function requireWrite(actor: Actor, ticketId: number) {
    const { ticket, mode } = await ticketFor(actor, ticketId);
    if (mode !== 'write') throw forbidden(ACTIVITY_MSG.onlyAssignee);
    return ticket;
  }

  return {
    async list(actor: Actor, query: { ticket_id: number; page: number; per_page: number; search: string }) {
      const { mode } = await ticketFor(actor, query.ticket_id);
      return { can_write: mode === 'write', data: await activities.list(query.ticket_id, query) };
    },

    async create(actor: Actor, input: { name: string; ticket_id: number }): Promise<TActivity> {
      const ticket = await requireWrite(actor, input.ticket_id);
      const id = await database.db.transaction().execute(async (trx) => {
        const inserted = await activities.insert({ name: input.name, ticket_id: ticket.id, user_id: actor.id }, trx);
        await events.record([{ ticketId: ticket.id, userId: actor.id, kind: 'activity_added', to: input.name }], trx);
        // The first activity by someone other than the creator is the ticket's first response.
        if (actor.id !== ticket.created_by)
          await sla.recordFirstResponse(ticket.id, new Date(now()).toISOString(), trx);
        await notifications.notify(
          {
            recipientId: ticket.created_by,
            actorId: actor.id,
            ticketId: ticket.id,
            event: 'activity_added',
            message: NOTIFICATION_TEXT.activityAdded,
            detail: input.name,
          },
          trx,
        );
        return inserted;
      });
      notifications.ticketChanged(ticketChange(ticket));
      return (await activities.findById(id))!;
    },

    /**
     * A reply by e-mail: an activity by its sender, who the mail-in service has checked may see the
     * ticket. `alsoInTransaction` writes what came with it (its attachments) in the same transaction.
     * The creator and the assignee are told, never the sender.
     */
    async createFromMail(
      actor: Actor,
      ticketId: number,
      name: string,
      alsoInTransaction: (trx: Kysely<DB>) => Promise<void>,
    ): Promise<number> {
      const ticket = await tickets.findOwnership(ticketId);
      if (!ticket) throw notFound(TICKET_MSG.notFound);
      const id = await database.db.transaction().execute(async (trx) => {
        const inserted = await activities.insert({ name, ticket_id: ticket.id, user_id: actor.id }, trx);
        await events.record([{ ticketId: ticket.id, userId: actor.id, kind: 'activity_added', to: name }], trx);
        if (actor.id !== ticket.created_by)
          await sla.recordFirstResponse(ticket.id, new Date(now()).toISOString(), trx);
        await alsoInTransaction(trx);
        for (const recipientId of new Set([ticket.created_by, ticket.user_assigned_id])) {
          if (recipientId === null) continue;
          await notifications.notify(
            {
              recipientId,
              actorId: actor.id,
              ticketId: ticket.id,
              event: 'activity_added',
              message: NOTIFICATION_TEXT.activityAdded,
              detail: name,
            },
            trx,
          );
        }
        return inserted;
      });
      notifications.ticketChanged(ticketChange(ticket));
      return id;
    },

    /** Status 2 deletes an activity (softly), status 1 restores it. */
    async setStatus(actor: Actor, id: number, statusId: number): Promise<TActivity> {
      const activity = await activities.findById(id);
      if (!activity) throw notFound(ACTIVITY_MSG.notFound);
      const ticket = await requireWrite(actor, activity.ticket_id);
      if (activity.status_id !== statusId) {
        await database.db.transaction().execute(async (trx) => {
          await activities.setStatus(id, statusId, trx);
          const kind = statusId === RECORD_STATUS.inactive ? 'activity_removed' : 'activity_restored';
          await events.record([{ ticketId: ticket.id, userId: actor.id, kind, from: activity.name }], trx);
        });
        notifications.ticketChanged(ticketChange(ticket));
      }
      return (await activities.findById(id))!;
    },
  };
}
export type ActivitiesService = ReturnType<typeof createActivitiesService>;
