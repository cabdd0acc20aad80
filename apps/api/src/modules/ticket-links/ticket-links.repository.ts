import type { TicketRelation, TicketStage } from '@portal/contract';
import { sql, type Kysely } from 'kysely';
import { nowIso, type Database } from '../../db/database.ts';
import type { DB, TicketLinkKind } from '../../db/schema.ts';

/** A parent chain (or a duplicate chain) is walked at most this deep looking for a cycle. */
const MAX_CHAIN = 10_000;

export interface LinkedTicketRow {
  linkId: number;
  relation: TicketRelation;
  ticketId: number;
  name: string;
  created_by: number;
  user_assigned_id: number | null;
  status_name: string;
  stage: TicketStage;
}

/** How a stored link reads from each of its ends. */
const relationFrom: Record<TicketLinkKind, { from: TicketRelation; to: TicketRelation }> = {
  parent: { from: 'child', to: 'parent' },
  duplicate: { from: 'duplicate_of', to: 'duplicated_by' },
  related: { from: 'related', to: 'related' },
};

/**
 * `ticket_links`: parent → child, duplicate → original, and related pairs (lower id first).
 * The link writers hold one lock (PostgreSQL: a transaction-level advisory lock; SQLite
 * writes one transaction at a time), so two links written at once cannot close a cycle.
 */
export function createTicketLinksRepository(database: Database) {
  const { db } = database;

  const linked = (trx: Kysely<DB>, ticketId: number, end: 'from' | 'to') =>
    trx
      .selectFrom('ticket_links as l')
      .innerJoin('tickets as t', 't.id', end === 'from' ? 'l.to_ticket_id' : 'l.from_ticket_id')
      .innerJoin('ticket_statuses as s', 's.id', 't.status_id')
      .select([
        'l.id as linkId',
        'l.kind',
        't.id as ticketId',
        't.name',
        't.created_by',
        't.user_assigned_id',
        's.name as status_name',
        't.stage',
      ])
      .where(end === 'from' ? 'l.from_ticket_id' : 'l.to_ticket_id', '=', ticketId)
      .execute();

  return {
    /** Serialises link writes with each other (call first inside the transaction). */
    async lock(trx: Kysely<DB>): Promise<void> {
      if (database.dialect === 'postgres') await sql`select pg_advisory_xact_lock(7215, 1)`.execute(trx);
    },

    /** Every link of the ticket, read from its side, ordered by relation then ticket number. */
    async linksOf(ticketId: number, trx: Kysely<DB> = db): Promise<LinkedTicketRow[]> {
      const [outgoing, incoming] = await Promise.all([linked(trx, ticketId, 'from'), linked(trx, ticketId, 'to')]);
      const rows = [
        ...outgoing.map(({ kind, ...r }) => ({ ...r, relation: relationFrom[kind].from })),
        ...incoming.map(({ kind, ...r }) => ({ ...r, relation: relationFrom[kind].to })),
      ];
      return rows.sort((a, b) => a.relation.localeCompare(b.relation) || a.ticketId - b.ticketId);
    },

    findLink(linkId: number, trx: Kysely<DB> = db) {
      return trx.selectFrom('ticket_links').selectAll().where('id', '=', linkId).executeTakeFirst();
    },

    /** The link between two tickets in either direction, of any kind. */
    findBetween(a: number, b: number, trx: Kysely<DB> = db) {
      return trx
        .selectFrom('ticket_links')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb.and([eb('from_ticket_id', '=', a), eb('to_ticket_id', '=', b)]),
            eb.and([eb('from_ticket_id', '=', b), eb('to_ticket_id', '=', a)]),
          ]),
        )
        .executeTakeFirst();
    },

    /** The ticket a directed link of `kind` points up to from `ticketId` (its parent, or its original). */
    async upOf(ticketId: number, kind: 'parent' | 'duplicate', trx: Kysely<DB> = db): Promise<number | undefined> {
      const row =
        kind === 'parent'
          ? await trx
              .selectFrom('ticket_links')
              .select('from_ticket_id as up')
              .where('to_ticket_id', '=', ticketId)
              .where('kind', '=', 'parent')
              .executeTakeFirst()
          : await trx
              .selectFrom('ticket_links')
              .select('to_ticket_id as up')
              .where('from_ticket_id', '=', ticketId)
              .where('kind', '=', 'duplicate')
              .executeTakeFirst();
      return row?.up;
    },

    /** Whether `ancestor` is reached from `ticketId` by following `kind` upwards (the ticket itself included). */
    async reaches(ticketId: number, ancestor: number, kind: 'parent' | 'duplicate', trx: Kysely<DB>) {
      let current: number | undefined = ticketId;
      for (let step = 0; current !== undefined && step < MAX_CHAIN; step += 1) {
        if (current === ancestor) return true;
        current = await this.upOf(current, kind, trx);
      }
      return false;
    },

    async insert(
      link: { from: number; to: number; kind: TicketLinkKind; createdBy: number },
      trx: Kysely<DB>,
    ): Promise<number> {
      const [from, to] =
        link.kind === 'related' ? [Math.min(link.from, link.to), Math.max(link.from, link.to)] : [link.from, link.to];
      const row = await trx
        .insertInto('ticket_links')
        .values({
          from_ticket_id: from,
          to_ticket_id: to,
          kind: link.kind,
          created_by: link.createdBy,
          created_at: nowIso(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async remove(linkId: number, trx: Kysely<DB>): Promise<void> {
      await trx.deleteFrom('ticket_links').where('id', '=', linkId).execute();
    },

    /** The status a merged duplicate closes in: 'Cancelado', else the first status of the closed stage. */
    async cancelledStatus(trx: Kysely<DB>) {
      const closed = await trx
        .selectFrom('ticket_statuses')
        .select(['id', 'name'])
        .where('stage', '=', 'closed')
        .orderBy('id')
        .execute();
      return closed.find((s) => s.name === 'Cancelado') ?? closed[0];
    },

    /**
     * A merge's writes: the duplicate's activities and attachments move to the original, each
     * marked with the duplicate it came from, and the duplicate takes `statusId`.
     */
    async moveInto(duplicateId: number, originalId: number, statusId: number, trx: Kysely<DB>) {
      const moved = { ticket_id: originalId, merged_from_ticket_id: duplicateId };
      const activities = await trx
        .updateTable('activities')
        .set(moved)
        .where('ticket_id', '=', duplicateId)
        .executeTakeFirst();
      const attachments = await trx
        .updateTable('ticket_attachments')
        .set(moved)
        .where('ticket_id', '=', duplicateId)
        .executeTakeFirst();
      await trx
        .updateTable('tickets')
        .set({ status_id: statusId, updated_at: nowIso() })
        .where('id', '=', duplicateId)
        .execute();
      return { activities: Number(activities.numUpdatedRows), attachments: Number(attachments.numUpdatedRows) };
    },

    /** The parent's children not in a closed stage, by number. */
    openChildren(parentId: number, trx: Kysely<DB> = db) {
      return trx
        .selectFrom('ticket_links as l')
        .innerJoin('tickets as t', 't.id', 'l.to_ticket_id')
        .select(['t.id', 't.name'])
        .where('l.from_ticket_id', '=', parentId)
        .where('l.kind', '=', 'parent')
        .where('t.stage', '<>', 'closed')
        .orderBy('t.id')
        .execute();
    },
  };
}
export type TicketLinksRepository = ReturnType<typeof createTicketLinksRepository>;
