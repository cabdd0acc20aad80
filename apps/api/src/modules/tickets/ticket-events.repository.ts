import type { TicketEventKind, TTicketEvent } from '@portal/contract';
import { sql, type Kysely } from 'kysely';
import { nowIso, type Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/** One entry of a ticket's timeline, as its writer records it. */
export interface NewTicketEvent {
  ticketId: number;
  /** Who acted; null: the portal itself (an automatic assignment). */
  userId: number | null;
  kind: TicketEventKind;
  field?: string | null;
  from?: string | null;
  to?: string | null;
}

/** A ticket's timeline is read whole; past this many entries only the newest are shown. */
export const MAX_TICKET_EVENTS = 500;

/** The row of an event, written at `now`. */
export const eventRow = (e: NewTicketEvent, now: string) => ({
  ticket_id: e.ticketId,
  user_id: e.userId,
  kind: e.kind,
  field: e.field ?? null,
  from_value: e.from ?? null,
  to_value: e.to ?? null,
  created_at: now,
});

/** `ticket_events`: what happened to each ticket, written in the transaction of the change itself. */
export function createTicketEventsRepository(database: Database) {
  const { db } = database;
  return {
    async record(events: NewTicketEvent[], trx: Kysely<DB>): Promise<void> {
      if (events.length === 0) return;
      const now = nowIso();
      await trx
        .insertInto('ticket_events')
        .values(events.map((e) => eventRow(e, now)))
        .execute();
    },

    /** The ticket's timeline, oldest first. */
    async listOf(ticketId: number): Promise<TTicketEvent[]> {
      const rows = await db
        .selectFrom('ticket_events as e')
        .leftJoin('users as u', 'u.id', 'e.user_id')
        .select([
          'e.id',
          'e.kind',
          'e.field',
          'e.from_value',
          'e.to_value',
          'e.user_id',
          'e.created_at',
          sql<string | null>`u.name || ' ' || u.last_name`.as('user_name'),
        ])
        .where('e.ticket_id', '=', ticketId)
        .orderBy('e.id', 'desc')
        .limit(MAX_TICKET_EVENTS)
        .execute();
      return rows.reverse().map((r) => ({
        id: r.id,
        kind: r.kind,
        field: r.field,
        from_value: r.from_value,
        to_value: r.to_value,
        user: r.user_id === null ? null : { id: r.user_id, name: r.user_name ?? '' },
        created_at: r.created_at,
      }));
    },
  };
}
export type TicketEventsRepository = ReturnType<typeof createTicketEventsRepository>;
