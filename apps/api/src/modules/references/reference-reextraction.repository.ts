import { sql, type Kysely, type WhereInterface } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/** A ticket's text, as references are extracted from it. */
export interface TicketText {
  id: number;
  name: string;
  description: string;
}

/** A reference found in a ticket's text, to be stored. */
export interface ExtractedReference {
  ticket_id: number;
  type_id: number;
  value: string;
}

/** A step found the cursor moved by someone else (a new change of pattern, another process): undone. */
export class CursorMoved extends Error {}

/**
 * The background re-extraction's rows: a type's `reference_reextractions` row (the cursor,
 * `after_id`, and the progress, `done` of `total`), the tickets' text and their stored references.
 */
export function createReferenceReextractionRepository(database: Database) {
  const { db } = database;

  /**
   * On PostgreSQL a write that moves the cursor does not wait at its commit for its WAL to reach
   * the disk (`set_config` in the cursor's statement sets it for the transaction): a crash loses
   * at most the last steps, their references and their cursor together, and the run redoes them.
   * Ticket writes keep waiting for theirs.
   */
  const asyncCommit = <QB extends WhereInterface<DB, 'reference_reextractions'>>(qb: QB): QB =>
    database.dialect === 'postgres'
      ? (qb.where(sql<string>`set_config('synchronous_commit', 'off', true)`, '=', 'off') as QB)
      : qb;

  /**
   * Moves the type's cursor past a batch (`next`; null ends the run), unless someone else moved
   * it since `afterId` was read: CursorMoved then.
   */
  async function moveCursor(
    typeId: number,
    afterId: number,
    next: { after_id: number; done: number } | null,
    q: Kysely<DB>,
  ): Promise<void> {
    const mine = <QB extends WhereInterface<DB, 'reference_reextractions'>>(qb: QB): QB =>
      asyncCommit(qb.where('type_id', '=', typeId).where('after_id', '=', afterId) as QB);
    const moved = next
      ? (await mine(q.updateTable('reference_reextractions').set(next)).executeTakeFirst()).numUpdatedRows
      : (await mine(q.deleteFrom('reference_reextractions')).executeTakeFirst()).numDeletedRows;
    if (Number(moved) !== 1) throw new CursorMoved();
  }

  return {
    /** The first type whose re-extraction is pending, with its pattern and cursor. */
    async pending(typeId?: number) {
      return db
        .selectFrom('reference_reextractions as x')
        .innerJoin('reference_types as t', 't.id', 'x.type_id')
        .select(['t.id', 't.name', 't.pattern', 't.status_id', 'x.after_id', 'x.done'])
        .$if(typeId !== undefined, (q) => q.where('x.type_id', '=', typeId!))
        .orderBy('x.type_id')
        .executeTakeFirst();
    },

    /** Starts (or starts over) a type's run from the first ticket, counting the tickets to do. */
    async start(typeId: number): Promise<void> {
      const row = await db
        .selectFrom('tickets')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      const progress = { after_id: 0, done: 0, total: Number(row.n) };
      await db
        .insertInto('reference_reextractions')
        .values({ type_id: typeId, ...progress })
        .onConflict((oc) => oc.column('type_id').doUpdateSet(progress))
        .execute();
    },

    /** The next `limit` tickets after `afterId`, in id order. */
    textsAfter(afterId: number, limit: number): Promise<TicketText[]> {
      return db
        .selectFrom('tickets')
        .select(['id', 'name', 'description'])
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /** The type's stored references of these tickets, by ticket. */
    async storedValues(ticketIds: number[], typeId: number): Promise<Map<number, string[]>> {
      const stored = new Map<number, string[]>();
      if (ticketIds.length === 0) return stored;
      const rows = await db
        .selectFrom('ticket_references')
        .select(['ticket_id', 'value'])
        .where('ticket_id', 'in', ticketIds)
        .where('type_id', '=', typeId)
        .execute();
      for (const r of rows) stored.set(r.ticket_id, [...(stored.get(r.ticket_id) ?? []), r.value]);
      return stored;
    },

    /**
     * A step's write, in one transaction: the changed tickets' text read again (PostgreSQL:
     * locked, so a write of one meanwhile, which extracts its own references with the new
     * pattern, is waited for, not undone), their references of the type replaced by what
     * `extract` finds in it, and the cursor moved (`moveCursor`; without `cursor`, left where it
     * is). Answers how long it held the database, in ms: from its first statement, once it has
     * the connection, to its commit.
     */
    async write(
      typeId: number,
      ticketIds: number[],
      extract: (ticket: TicketText) => ExtractedReference[],
      cursor?: { afterId: number; next: { after_id: number; done: number } | null },
    ): Promise<number> {
      let held = 0;
      await db.transaction().execute(async (trx) => {
        held = performance.now();
        if (ticketIds.length > 0) {
          const byId = trx.selectFrom('tickets').select(['id', 'name', 'description']).where('id', 'in', ticketIds);
          const current = await (database.dialect === 'postgres' ? byId.forUpdate() : byId).execute();
          await trx
            .deleteFrom('ticket_references')
            .where('ticket_id', 'in', ticketIds)
            .where('type_id', '=', typeId)
            .execute();
          const found = current.flatMap(extract);
          for (let i = 0; i < found.length; i += 500) {
            await trx
              .insertInto('ticket_references')
              .values(found.slice(i, i + 500))
              .execute();
          }
        }
        if (cursor) await moveCursor(typeId, cursor.afterId, cursor.next, trx);
      });
      return performance.now() - held;
    },
  };
}
export type ReferenceReextractionRepository = ReturnType<typeof createReferenceReextractionRepository>;
