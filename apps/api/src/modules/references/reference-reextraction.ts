import { compileReferenceType, extractReferences, RECORD_STATUS } from '@portal/contract';
import type { Kysely } from 'kysely';
import { nowIso, type Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/**
 * Tickets re-extracted per step. Each step is one short transaction (read the batch's text,
 * replace that type's references, move the cursor): on SQLite it holds the one connection, on
 * PostgreSQL it locks the batch's rows, so a ticket write waits at most one step (a few ms).
 */
export const REEXTRACT_BATCH = 200;

/** A step found the cursor moved by someone else (a new change of pattern, another process): undone. */
class CursorMoved extends Error {}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The background re-extraction after a reference type's pattern (or status) changes: every
 * ticket's references of that type are extracted again, in id order, REEXTRACT_BATCH tickets per
 * step, each step its own transaction. The type's row holds the cursor (`reextract_after_id`)
 * and the progress the Referencias screen shows (`reextract_done` of `reextract_total`), so a
 * process that stops resumes where it was, and a new change starts over from the first ticket.
 * Tickets written meanwhile are extracted by their own write with the new pattern.
 */
export function createReferenceReextraction(database: Database, { batch = REEXTRACT_BATCH } = {}) {
  const { db } = database;
  let running: Promise<void> | null = null;
  let stopped = false;

  async function step(typeId: number): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const type = await trx
        .selectFrom('reference_types')
        .select(['id', 'name', 'pattern', 'status_id', 'reextract_after_id', 'reextract_done'])
        .where('id', '=', typeId)
        .executeTakeFirst();
      if (!type || type.reextract_after_id === null) return;
      const after = type.reextract_after_id;
      const tickets = await trx
        .selectFrom('tickets')
        .select(['id', 'name', 'description'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(batch)
        // A ticket written meanwhile waits for this step, then writes its own references.
        .$if(database.dialect === 'postgres', (q) => q.forUpdate())
        .execute();
      const isDone = tickets.length < batch;
      if (tickets.length > 0) {
        // By the batch's ids, so the key is read (a range of ids would let SQLite read the
        // whole type through the value index instead).
        await trx
          .deleteFrom('ticket_references')
          .where(
            'ticket_id',
            'in',
            tickets.map((t) => t.id),
          )
          .where('type_id', '=', typeId)
          .execute();
        if (type.status_id === RECORD_STATUS.active) {
          const compiled = [compileReferenceType(type)];
          const rows = tickets.flatMap((t) =>
            extractReferences(compiled, [t.name, t.description]).map((r) => ({ ticket_id: t.id, ...r })),
          );
          for (let i = 0; i < rows.length; i += 500) {
            await trx
              .insertInto('ticket_references')
              .values(rows.slice(i, i + 500))
              .execute();
          }
        }
      }
      const moved = await trx
        .updateTable('reference_types')
        .set({
          reextract_after_id: isDone ? null : tickets.at(-1)!.id,
          reextract_done: isDone ? null : (type.reextract_done ?? 0) + tickets.length,
          reextract_total: isDone ? null : undefined,
          updated_at: nowIso(),
        })
        .where('id', '=', typeId)
        .where('reextract_after_id', '=', after)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw new CursorMoved();
    });
  }

  const pending = (trx: Kysely<DB> = db) =>
    trx
      .selectFrom('reference_types')
      .select('id')
      .where('reextract_after_id', 'is not', null)
      .orderBy('id')
      .executeTakeFirst();

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

    /** Starts (or starts over) the re-extraction of a type, in the background. */
    async start(typeId: number): Promise<void> {
      const row = await db
        .selectFrom('tickets')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      await db
        .updateTable('reference_types')
        .set({ reextract_after_id: 0, reextract_done: 0, reextract_total: Number(row.n), updated_at: nowIso() })
        .where('id', '=', typeId)
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
