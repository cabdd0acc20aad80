import {
  compileReferenceType,
  extractReferences,
  RECORD_STATUS,
  searchedReferences,
  type CompiledReferenceType,
  type FoundReference,
  type TicketStage,
} from '@portal/contract';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { createLoadingCache } from '../../lib/loading-cache.ts';
import type { NotificationBus } from '../notifications/notifications.bus.ts';

/** The most tickets a reference's page lists (a reference is carried by a handful). */
export const MAX_REFERENCE_TICKETS = 500;

/** The most open tickets a new ticket is linked to automatically. */
export const MAX_AUTO_LINKS = 20;

/** `r` carries one of the references: one equality pair per reference (each an index seek on both databases). */
const carriesOneOf = (refs: readonly FoundReference[]) =>
  sql<boolean>`(${sql.join(
    refs.map((ref) => sql`(r.type_id = ${ref.type_id} and r.value = ${ref.value})`),
    sql` or `,
  )})`;

/**
 * Other tickets not in a closed stage carrying one of `refs`, by number: a row per ticket and
 * reference shared, at most MAX_AUTO_LINKS rows. With `before`, only tickets older than `ticketId`.
 */
export const openSharing = (
  trx: Kysely<DB>,
  ticketId: number,
  refs: readonly FoundReference[],
  { before = false } = {},
) =>
  trx
    .selectFrom('ticket_references as r')
    .innerJoin('tickets as t', 't.id', 'r.ticket_id')
    .select(['t.id', 't.name', 'r.type_id', 'r.value'])
    .where(carriesOneOf(refs))
    .where('t.id', '<>', ticketId)
    .$if(before, (q) => q.where('t.id', '<', ticketId))
    .where('t.stage', '<>', 'closed')
    .orderBy('t.id')
    .limit(MAX_AUTO_LINKS);

/**
 * Logistics references: the active types' patterns, compiled and kept in memory until the bus
 * announces a write to them (`catalogs`), so extracting a ticket's references reads nothing;
 * and `ticket_references`, written in the transaction of every ticket write.
 */
export function createReferencesRepository(
  database: Database,
  bus: Pick<NotificationBus, 'onInvalidate' | 'canCache'>,
) {
  const { db } = database;
  const cache = createLoadingCache<'active', CompiledReferenceType[]>(1, () => bus.canCache());
  bus.onInvalidate(({ kind }) => {
    if (kind === 'catalogs' || kind === 'all') cache.clear();
  });
  const loadTypes = async () => {
    const rows = await db
      .selectFrom('reference_types')
      .select(['id', 'name', 'pattern'])
      .where('status_id', '=', RECORD_STATUS.active)
      .orderBy('id')
      .execute();
    return rows.map(compileReferenceType);
  };

  /** The active types, compiled (read before a write's transaction: SQLite's one connection is then held). */
  const types = () => cache.get('active', loadTypes);

  return {
    types,

    /** The references in a ticket's name and description, normalised. */
    async extract(texts: readonly string[]): Promise<FoundReference[]> {
      return extractReferences(await types(), texts);
    },

    /** The references a searched text is, whole. */
    async searched(text: string): Promise<FoundReference[]> {
      return searchedReferences(await types(), text);
    },

    async insert(ticketId: number, refs: readonly FoundReference[], trx: Kysely<DB>): Promise<void> {
      if (refs.length === 0) return;
      await trx
        .insertInto('ticket_references')
        .values(refs.map((r) => ({ ticket_id: ticketId, type_id: r.type_id, value: r.value })))
        .execute();
    },

    /** The ticket's references become `refs` (a write of its name or description). */
    async replace(ticketId: number, refs: readonly FoundReference[], trx: Kysely<DB>): Promise<void> {
      await trx.deleteFrom('ticket_references').where('ticket_id', '=', ticketId).execute();
      await this.insert(ticketId, refs, trx);
    },

    /** A merge: the duplicate's references are also the original's (each once). */
    async copy(fromTicketId: number, toTicketId: number, trx: Kysely<DB>): Promise<void> {
      await sql`insert into ticket_references (ticket_id, type_id, value)
        select ${toTicketId}, r.type_id, r.value from ticket_references r
        where r.ticket_id = ${fromTicketId}
          and not exists (select 1 from ticket_references o
            where o.ticket_id = ${toTicketId} and o.type_id = r.type_id and o.value = r.value)`.execute(trx);
    },

    /** A ticket's references of active types, for its page's chips. */
    ofTicket(ticketId: number) {
      return db
        .selectFrom('ticket_references as r')
        .innerJoin('reference_types as rt', 'rt.id', 'r.type_id')
        .select(['r.type_id', 'rt.name as type_name', 'r.value'])
        .where('r.ticket_id', '=', ticketId)
        .where('rt.status_id', '=', RECORD_STATUS.active)
        .orderBy('rt.id')
        .orderBy('r.value')
        .execute();
    },

    /** Other tickets not in a closed stage carrying one of `refs` (openSharing below). */
    openSharing(ticketId: number, refs: readonly FoundReference[], trx: Kysely<DB> = db, { before = false } = {}) {
      if (refs.length === 0) return Promise.resolve([]);
      return openSharing(trx, ticketId, refs, { before }).execute();
    },

    /** Whether some ticket carries one of `refs` (a search by reference finds something). */
    async anyTicketWith(refs: readonly FoundReference[]): Promise<boolean> {
      if (refs.length === 0) return false;
      const row = await db
        .selectFrom('ticket_references as r')
        .select('r.ticket_id')
        .where(carriesOneOf(refs))
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    findType(id: number) {
      return db
        .selectFrom('reference_types')
        .select(['id', 'name', 'status_id'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** The tickets carrying a reference, newest first, with what its page shows. */
    ticketsWith(typeId: number, value: string) {
      return db
        .selectFrom('ticket_references as r')
        .innerJoin('tickets as t', 't.id', 'r.ticket_id')
        .innerJoin('ticket_statuses as s', 's.id', 't.status_id')
        .leftJoin('users as u', 'u.id', 't.user_assigned_id')
        .select([
          't.id',
          't.name',
          't.created_at',
          't.updated_at',
          't.created_by',
          't.user_assigned_id',
          't.status_id',
          's.name as status_name',
          sql<TicketStage>`t.stage`.as('stage'),
          sql<string | null>`u.name || ' ' || u.last_name`.as('assignee_name'),
        ])
        .where('r.type_id', '=', typeId)
        .where('r.value', '=', value)
        .orderBy('t.id', 'desc')
        .limit(MAX_REFERENCE_TICKETS)
        .execute();
    },

    /** The last activity on each ticket (its newest timeline entry). */
    async lastEventOf(ticketIds: number[]): Promise<string | null> {
      if (ticketIds.length === 0) return null;
      const row = await db
        .selectFrom('ticket_events')
        .select((eb) => eb.fn.max('created_at').as('at'))
        .where('ticket_id', 'in', ticketIds)
        .executeTakeFirst();
      return row?.at == null ? null : String(row.at);
    },
  };
}
export type ReferencesRepository = ReturnType<typeof createReferencesRepository>;
