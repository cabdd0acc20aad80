import { compileReferenceType, extractReferences, RECORD_STATUS } from '@portal/contract';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/**
 * Tickets re-extracted per step. Each step is one short transaction (read the batch's text and
 * that type's references, replace those that change, move the cursor): on SQLite it holds the
 * one connection, on PostgreSQL it locks the rows of the tickets whose references change, so a
 * ticket write waits at most one step. How long each step held its transaction is told to
 * `onStep`'s listeners (the metrics).
 */
export const REEXTRACT_BATCH = 200;

/** A step found the cursor moved by someone else (a new change of pattern, another process): undone. */
class CursorMoved extends Error {}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface TicketText {
  id: number;
  name: string;
  description: string;
}

/**
 * The background re-extraction after a reference type's pattern (or status) changes: every
 * ticket's references of that type are extracted again, in id order, REEXTRACT_BATCH tickets per
 * step, each step its own transaction. The type's `reference_reextractions` row holds the
 * cursor (`after_id`) and the progress the Referencias screen shows (`done` of `total`), so a
 * process that stops resumes where it was, and a new change starts over from the first ticket;
 * the row goes when the run ends. It lives apart from `reference_types` because a write to a
 * catalogue table makes every process forget what it keeps of the catalogues. Tickets written
 * meanwhile are extracted by their own write with the new pattern.
 */
export function createReferenceReextraction(database: Database, { batch = REEXTRACT_BATCH } = {}) {
  const { db } = database;
  let running: Promise<void> | null = null;
  let stopped = false;
  const stepListeners = new Set<(ms: number) => void>();

  async function step(typeId: number): Promise<void> {
    let held: number | undefined;
    await db.transaction().execute(async (trx) => {
      held = performance.now();
      // A step's commit need not wait for its WAL to reach the disk (PostgreSQL): a crash loses
      // at most the last steps, their references and their cursor together, and the run redoes
      // them. Writes of tickets meanwhile keep waiting for theirs.
      if (database.dialect === 'postgres') await sql`set local synchronous_commit = off`.execute(trx);
      const job = await trx
        .selectFrom('reference_reextractions as x')
        .innerJoin('reference_types as t', 't.id', 'x.type_id')
        .select(['t.id', 't.name', 't.pattern', 't.status_id', 'x.after_id', 'x.done'])
        .where('x.type_id', '=', typeId)
        .executeTakeFirst();
      if (!job) return;
      const after = job.after_id;
      const compiled = job.status_id === RECORD_STATUS.active ? [compileReferenceType(job)] : [];
      const extracted = (t: TicketText) => extractReferences(compiled, [t.name, t.description]).map((r) => r.value);
      const texts = (query: SelectQueryBuilder<DB, 'tickets', object>) =>
        query.select(['id', 'name', 'description']).orderBy('id').execute();
      const tickets = await texts(trx.selectFrom('tickets').where('id', '>', after).limit(batch));
      const isDone = tickets.length < batch;
      if (tickets.length > 0) {
        const ids = tickets.map((t) => t.id);
        // Only the tickets whose references of the type change are written (most keep theirs).
        const stored = new Map<number, string[]>();
        const rows = await trx
          .selectFrom('ticket_references')
          .select(['ticket_id', 'value'])
          .where('ticket_id', 'in', ids)
          .where('type_id', '=', typeId)
          .execute();
        for (const r of rows) stored.set(r.ticket_id, [...(stored.get(r.ticket_id) ?? []), r.value]);
        const same = (found: string[], kept: string[]) => {
          const values = new Set(found);
          return values.size === kept.length && kept.every((v) => values.has(v));
        };
        const changed = tickets.filter((t) => !same(extracted(t), stored.get(t.id) ?? []));
        if (changed.length > 0) {
          // PostgreSQL: those tickets are locked and read again, so a write of one meanwhile
          // (which extracts its own references with the new pattern) is waited for, not undone.
          const current =
            database.dialect === 'postgres'
              ? await texts(
                  trx
                    .selectFrom('tickets')
                    .where(
                      'id',
                      'in',
                      changed.map((t) => t.id),
                    )
                    .forUpdate(),
                )
              : changed;
          await trx
            .deleteFrom('ticket_references')
            .where(
              'ticket_id',
              'in',
              current.map((t) => t.id),
            )
            .where('type_id', '=', typeId)
            .execute();
          const found = current.flatMap((t) =>
            [...new Set(extracted(t))].map((value) => ({ ticket_id: t.id, type_id: typeId, value })),
          );
          for (let i = 0; i < found.length; i += 500) {
            await trx
              .insertInto('ticket_references')
              .values(found.slice(i, i + 500))
              .execute();
          }
        }
      }
      const moved = isDone
        ? await trx
            .deleteFrom('reference_reextractions')
            .where('type_id', '=', typeId)
            .where('after_id', '=', after)
            .executeTakeFirst()
            .then((r) => r.numDeletedRows)
        : await trx
            .updateTable('reference_reextractions')
            .set({ after_id: tickets.at(-1)!.id, done: job.done + tickets.length })
            .where('type_id', '=', typeId)
            .where('after_id', '=', after)
            .executeTakeFirst()
            .then((r) => r.numUpdatedRows);
      if (Number(moved) !== 1) throw new CursorMoved();
    });
    // From the transaction's first statement to its commit: how long writes may have waited.
    if (held !== undefined) for (const listener of stepListeners) listener(performance.now() - held);
  }

  const pending = () =>
    db.selectFrom('reference_reextractions').select('type_id as id').orderBy('type_id').executeTakeFirst();

  async function drain(): Promise<void> {
    while (!stopped) {
      const job = await pending();
      if (!job) return;
      try {
        await step(job.id);
      } catch (error) {
        if (!(error instanceof CursorMoved)) throw error;
      }
      await turn();
    }
  }

  /** Runs the pending re-extractions unless a run is going on (one per process). */
  function wake(): Promise<void> {
    if (stopped) return Promise.resolve();
    running ??= drain().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    wake,

    /** Calls `listener` with how long each step held its transaction, in ms. */
    onStep(listener: (ms: number) => void): () => void {
      stepListeners.add(listener);
      return () => stepListeners.delete(listener);
    },

    /** Starts (or starts over) the re-extraction of a type, in the background. */
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
      void wake().catch(() => undefined);
    },

    /** Resumes what a previous run left (at start). */
    resume(): void {
      stopped = false;
      void wake().catch(() => undefined);
    },

    /** Ends the run after its current step. */
    async stop(): Promise<void> {
      stopped = true;
      await running?.catch(() => undefined);
    },

    /** Waits for the pending re-extractions to finish (tests, the CLI). */
    async idle(): Promise<void> {
      while (!stopped && (await pending())) await wake();
    },
  };
}
export type ReferenceReextraction = ReturnType<typeof createReferenceReextraction>;
