import { QUEUE_COUNT_CAP, QUEUE_MSG, TICKET_MSG, type TQueueTab, type TTicket } from '@portal/contract';
import type { Database } from '../../db/database.ts';
import { forbidden, HttpError, notFound } from '../../lib/http-error.ts';
import type { AuditRepository } from '../audit/audit.repository.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import type { TicketEventsRepository } from '../tickets/ticket-events.repository.ts';
import type { TicketsRepository } from '../tickets/tickets.repository.ts';
import type { GroupsRepository } from './groups.repository.ts';

interface Deps {
  database: Database;
  groups: GroupsRepository;
  tickets: Pick<TicketsRepository, 'findOwnership' | 'detailsOf' | 'userName' | 'findById'>;
  events: TicketEventsRepository;
  notifications: Pick<NotificationsService, 'ticketChanged'>;
  audit: Pick<AuditRepository, 'record'>;
}

interface Actor {
  id: number;
  is_supervisor: number;
}

/**
 * Colas: each group's unassigned tickets that are not closed, most urgent first (priority,
 * then oldest). An agent sees the queues of their groups; a supervisor (a privileged role)
 * every active group's. Taking a ticket assigns it to the caller atomically: of two agents
 * taking it at once one wins, the other gets a 409; both lists (and every member's) hear of it.
 */
export function createQueuesService({ database, groups, tickets, events, notifications, audit }: Deps) {
  const seesAll = (actor: Actor) => Number(actor.is_supervisor) === 1;

  async function requireQueue(actor: Actor, groupId: number) {
    if (seesAll(actor)) return;
    if (!(await groups.isMember(groupId, actor.id))) throw forbidden(QUEUE_MSG.notYourQueue);
  }

  return {
    /** The caller's queue tabs with their bounded counts. */
    async tabs(actor: Actor): Promise<TQueueTab[]> {
      const list = await groups.queueGroups(seesAll(actor) ? null : actor.id);
      return Promise.all(
        list.map(async (g) => {
          const n = await groups.queueCount(g.id, QUEUE_COUNT_CAP);
          return { ...g, count: Math.min(n, QUEUE_COUNT_CAP), count_is_lower_bound: n > QUEUE_COUNT_CAP };
        }),
      );
    },

    /** A page of one group's queue (403 for a group the caller may not see). */
    async page(actor: Actor, groupId: number, { page, per_page }: { page: number; per_page: number }) {
      if (!(await groups.findGroup(groupId))) throw notFound(QUEUE_MSG.notYourQueue);
      await requireQueue(actor, groupId);
      const [ids, n] = await Promise.all([
        groups.queuePage(groupId, per_page, (page - 1) * per_page),
        groups.queueCount(groupId, QUEUE_COUNT_CAP),
      ]);
      const total = Math.min(n, QUEUE_COUNT_CAP);
      return {
        data: await tickets.detailsOf(ids),
        meta: {
          total,
          current_page: page,
          per_page,
          last_page: Math.max(1, Math.ceil(total / per_page)),
          ...(n > QUEUE_COUNT_CAP ? { total_is_lower_bound: true } : {}),
        },
      };
    },

    /** 'Tomar': assigns the queued ticket to the caller, unless another agent took it first (409). */
    async take(actor: Actor, ticketId: number, ip: string | null): Promise<TTicket> {
      const ticket = await tickets.findOwnership(ticketId);
      if (!ticket) throw notFound(TICKET_MSG.notFound);
      if (ticket.group_id === null) throw new HttpError(409, QUEUE_MSG.notInQueue);
      await requireQueue(actor, ticket.group_id);
      if (ticket.user_assigned_id !== null) throw new HttpError(409, QUEUE_MSG.takenByOther);
      await database.db.transaction().execute(async (trx) => {
        if (!(await groups.take(ticketId, actor.id, trx))) throw new HttpError(409, QUEUE_MSG.takenByOther);
        await events.record(
          [
            {
              ticketId,
              userId: actor.id,
              kind: 'assigned',
              field: 'user_assigned_id',
              from: null,
              to: await tickets.userName(actor.id, trx),
            },
          ],
          trx,
        );
      });
      const members = await groups.memberIds(ticket.group_id);
      notifications.ticketChanged({ ticketId, userIds: [...new Set([ticket.created_by, actor.id, ...members])] });
      await audit.record({
        event: 'ticket.assigned',
        userId: actor.id,
        ip,
        detail: { ticket_id: ticketId, assignee_id: actor.id },
      });
      return (await tickets.findById(ticketId))!;
    },
  };
}
export type QueuesService = ReturnType<typeof createQueuesService>;
