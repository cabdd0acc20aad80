import { compileReferenceType, extractReferences, RECORD_STATUS } from '@portal/contract';
import type { Database } from '../../db/database.ts';
import {
  createReferenceReextractionRepository,
  CursorMoved,
  type TicketText,
} from './reference-reextraction.repository.ts';

/**
 * Tickets re-extracted per step. A step reads the batch's text and that type's references, then
 * writes only what changes: the cursor alone (or nothing, see SAVE_EVERY), or the changed
 * tickets' references and the cursor, in short transactions of at most WRITE_CHUNK tickets (on
 * SQLite each holds the one connection, on PostgreSQL it locks those tickets' rows), so a
 * ticket write waits at most that long.
 */
export const REEXTRACT_BATCH = 200;

/** Changed tickets written per transaction, at most: what one write locks (PostgreSQL) and holds. */
const WRITE_CHUNK = 50;

/** Batches done in memory, at most, before their cursor is stored (see `place`). */
const SAVE_EVERY = 10;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The background re-extraction after a reference type's pattern (or status) changes: every
 * ticket's references of that type are extracted again, in id order, REEXTRACT_BATCH tickets per
 * step. The type's `reference_reextractions` row holds the cursor (`after_id`) and the progress
 * the Referencias screen shows (`done` of `total`), so a process that stops resumes where it
 * was, and a new change starts over from the first ticket; the row goes when the run ends. It
 * lives apart from `reference_types` because a write to a catalogue table makes every process
 * forget what it keeps of the catalogues. Tickets written meanwhile are extracted by their own
 * write with the new pattern.
 */
export function createReferenceReextraction(database: Database, { batch = REEXTRACT_BATCH } = {}) {
  const rows = createReferenceReextractionRepository(database);
  let running: Promise<void> | null = null;
  let stopped = false;
  const stepListeners = new Set<(ms: number) => void>();

  /**
   * Where this process is in a run: the cursor as stored (`stored`) and as done (`after`,
   * `done`). Batches whose references all stay advance it in memory; it is stored with the next
   * batch that changes something, every SAVE_EVERY batches and at the end, so a run writes a
   * tenth as often. A process that stops redoes at most those batches. It is dropped when the
   * stored cursor, the pattern or the status is not what it was read with (a new change,
   * another process).
   */
  let place: {
    typeId: number;
    pattern: string;
    statusId: number;
    stored: number;
    after: number;
    done: number;
    unsaved: number;
  } | null = null;

  /**
   * One step: the batch's text and the type's stored references are read outside any
   * transaction (reads hold nothing a write waits for). A batch whose references all stay moves
   * the cursor in memory, or alone in one short transaction; otherwise that transaction also
   * replaces the changed tickets' references. How long it held the database is told to the
   * `onStep` listeners.
   */
  async function step(typeId: number): Promise<void> {
    const job = await rows.pending(typeId);
    if (!job) return;
    const isSameRun =
      place?.typeId === typeId &&
      place.pattern === job.pattern &&
      place.statusId === job.status_id &&
      place.stored === job.after_id;
    const at = isSameRun
      ? place!
      : {
          typeId,
          pattern: job.pattern,
          statusId: job.status_id,
          stored: job.after_id,
          after: job.after_id,
          done: job.done,
          unsaved: 0,
        };
    place = at;
    const compiled = job.status_id === RECORD_STATUS.active ? [compileReferenceType(job)] : [];
    const extracted = (t: TicketText) => [
      ...new Set(extractReferences(compiled, [t.name, t.description]).map((r) => r.value)),
    ];
    const tickets = await rows.textsAfter(at.after, batch);
    const next = tickets.length < batch ? null : { after_id: tickets.at(-1)!.id, done: at.done + tickets.length };
    const stored = await rows.storedValues(
      tickets.map((t) => t.id),
      typeId,
    );
    const same = (found: string[], kept: string[]) =>
      found.length === kept.length && kept.every((v) => found.includes(v));
    const changed = tickets.filter((t) => !same(extracted(t), stored.get(t.id) ?? [])).map((t) => t.id);
    if (changed.length === 0 && next && at.unsaved + 1 < SAVE_EVERY) {
      Object.assign(at, { after: next.after_id, done: next.done, unsaved: at.unsaved + 1 });
      return;
    }
    place = null; // until the write below has succeeded
    const extract = (t: TicketText) => extracted(t).map((value) => ({ ticket_id: t.id, type_id: typeId, value }));
    // At most WRITE_CHUNK changed tickets a transaction (none: the cursor alone); the last one
    // moves the cursor. A run that stops between them redoes the batch, and finds the written
    // part unchanged.
    const chunks: number[][] = [];
    for (let i = 0; i < changed.length; i += WRITE_CHUNK) chunks.push(changed.slice(i, i + WRITE_CHUNK));
    if (chunks.length === 0) chunks.push([]);
    for (const [k, chunk] of chunks.entries()) {
      const isLast = k === chunks.length - 1;
      const ms = await rows.write(typeId, chunk, extract, isLast ? { afterId: at.stored, next } : undefined);
      for (const listener of stepListeners) listener(ms);
    }
    if (next) place = { ...at, stored: next.after_id, after: next.after_id, done: next.done, unsaved: 0 };
  }

  async function drain(): Promise<void> {
    while (!stopped) {
      const job = await rows.pending();
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

    /** Calls `listener` with how long each write of a step held the database, in ms. */
    onStep(listener: (ms: number) => void): () => void {
      stepListeners.add(listener);
      return () => stepListeners.delete(listener);
    },

    /** Starts (or starts over) the re-extraction of a type, in the background. */
    async start(typeId: number): Promise<void> {
      await rows.start(typeId);
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
      while (!stopped && (await rows.pending())) await wake();
    },
  };
}
export type ReferenceReextraction = ReturnType<typeof createReferenceReextraction>;
