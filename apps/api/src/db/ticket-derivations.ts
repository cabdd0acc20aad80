import { TICKET_COUNT_CAP, TICKET_FIELDS, ticketTokenFields, type TicketField } from '@portal/contract';
import type SQLite from 'better-sqlite3';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { columnWords, fts5Matches } from '../lib/fts5-match.ts';
import { textWords } from '../lib/search-text.ts';
import type { Database, Dialect } from './database.ts';
import type { DB } from './schema.ts';
import { withTicketReportDerivationsSuspended } from './ticket-report-derivations.ts';
import { withTriggersOff, type TableTriggers } from './triggers.ts';

/**
 * What the database derives from each ticket row, in the transaction that writes it,
 * by triggers (so every write path, the seed and bulk loads included, keeps it true;
 * the triggers and their functions are created by the migrations, 0003 and 0012, and
 * this file holds what run time needs beside them):
 *
 * - the full-text index of name and description: on SQLite the FTS5 table `tickets_fts`
 *   (`body`, plus `attrs`: one token per filterable value, so a search combined with the
 *   list's scope and stage is answered by the index alone), and `ticket_words`, every word
 *   it holds, so a searched prefix becomes the few whole words it starts (FTS5 reads a
 *   prefix by merging whole doclists first, but for the prefixes of up to three characters it
 *   indexes, migration 0051); on PostgreSQL the column
 *   `tickets.search_doc` (tsvector, GIN) with the same attribute tokens as lexemes (`_creator12`)
 *   and every word's first one to three characters as lexemes too (`^14`, migration 0052),
 *   and `ticket_words` too;
 * - on PostgreSQL, `ticket_attr_blocks`: for each attribute token and each common word
 *   (`ticket_bitmap_words`), bitmaps of the tickets carrying it, 8,192 ids a row (ids of one
 *   residue modulo 8 in a block of 65,536, so consecutive tickets flip different rows), so a
 *   filtered list's total, or a search's of common words, is counted from one row per token
 *   for every 8,192 tickets (migrations 0027, 0039, 0049 and 0050); and
 *   `ticket_word_counts`, how many tickets hold each word, so a search for a common word is
 *   told "more than" the cap without counting its matches (migration 0048);
 * - on SQLite, `ticket_attr_bits`: for each attribute token, bitmaps of the tickets carrying it,
 *   1,024 ids a row, so a list filtered by several fields is counted without FTS5 reading every
 *   posting of each token (migration 0054);
 * - `ticket_counts`: how many tickets per stage and status in each counted set (migration
 *   0053 added the status), so list totals and the workload read a few rows instead of
 *   counting tickets. Rows are spread over `COUNT_SHARDS` shards (by ticket id) so
 *   concurrent writers rarely wait on one row; readers add the shards up.
 */
export const COUNT_SHARDS = 8;

/** The SQLite functions the triggers and the lists call: every connection that writes tickets registers them. */
export function registerSqliteFunctions(connection: SQLite.Database): void {
  connection.function('portal_words', { deterministic: true }, (text: unknown) =>
    JSON.stringify(textWords(typeof text === 'string' ? text : '')),
  );
  connection.function('portal_fts_match', { deterministic: true }, (query: unknown, body: unknown, attrs: unknown) =>
    fts5Matches(String(query), { body: columnWords(String(body)), attrs: columnWords(String(attrs)) }) ? 1 : 0,
  );
  // How many bits the words of 32 bits hold (`ticket_attr_bits`, lists' totals).
  connection.function('portal_bit_count', { deterministic: true, varargs: true }, (...words: unknown[]) => {
    let n = 0;
    for (const word of words) {
      let v = Number(word) >>> 0;
      v -= (v >>> 1) & 0x55555555;
      v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
      n += Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
    }
    return n;
  });
}

/** The counted sets of `ticket_counts.kind`; `user_id` is 0 where no user applies. */
export const COUNT_KIND = {
  /** Every ticket. */
  all: 0,
  /** Tickets the user created. */
  created: 1,
  /** Tickets assigned to the user; user 0 counts the unassigned ones. */
  assigned: 2,
  /** Tickets the user created and is assigned to (so Mis Tickets counts them once). */
  self: 3,
} as const;

/** The fields with an attribute token in the text index (contract TICKET_FIELDS), with their token and column. */
const tokenFields = ticketTokenFields.map((key) => TICKET_FIELDS[key] as TicketField & { token: string });

/** The SLA state's field: on PostgreSQL its token is in the attribute bitmaps only. */
const slaField = tokenFields.find((f) => f.kind === 'sla-states')!;

/** A field's token of a row's value (SQL, row alias `t`), as the contract's `tokenValue` writes it. */
const tokenOf = (f: TicketField & { token: string }, t: string) =>
  `'${f.token}' || ${
    f.kind === 'optional-ids'
      ? `coalesce(${t}.${f.column}, 0)`
      : f.kind === 'sla-states'
        ? `replace(${t}.${f.column}, '_', '')`
        : `${t}.${f.column}`
  }`;

/** The SQLite expression of a ticket's attribute tokens, for row alias `t` (`tickets`, a queued `t`), e.g. `status5`. */
const attrsOf = (t: string) => tokenFields.map((f) => tokenOf(f, t)).join(` || ' ' || `);

/**
 * PostgreSQL: the same attribute tokens, as lexemes of `search_doc` marked by a leading `_`
 * (a lexeme of the text never holds one: it is folded to letters and digits), e.g. `_creator12`.
 */
export const PG_ATTR_MARK = '_';

/**
 * PostgreSQL: the mark of a word's prefix lexemes in `search_doc`, its first one, two and three
 * characters (`^1`, `^14`, `^140` of `14023`, migration 0052): a searched word of up to
 * PG_PREFIX_LENGTH characters that starts too many words to list is asked as one lexeme.
 */
export const PG_PREFIX_MARK = '^';
export const PG_PREFIX_LENGTH = 3;

/**
 * The fields behind the PostgreSQL attribute lexemes, in the order of `portal_ticket_attrs`'
 * arguments (migrations 0018, 0020), without the id (a number search asks `id = n`) and the SLA
 * state, whose token is in the attribute bitmaps only (migration 0046).
 */
const pgAttrFields = tokenFields.filter((f) => f.column !== 'id' && f.kind !== 'sla-states');

/** `portal_ticket_attrs(…)` of the row alias `row` (`new`, `old`, `tickets`, a loader's `r`): its attribute lexemes. */
export const pgAttrsCall = (row: string) =>
  `portal_ticket_attrs(${pgAttrFields.map((f) => `${row}.${f.column}`).join(', ')})`;

/**
 * The `search_doc` of a row whose text is already folded into `words` (SQL): what the trigger
 * writes (the words, their prefixes and the attributes), for bulk loads that write it
 * themselves (withTicketDerivationsSuspended).
 */
export const pgSearchDocOf = (words: string, row: string) =>
  `portal_text_doc(${words}) || array_to_tsvector(${pgAttrsCall(row)})`;

/** How many queued tickets one step of SQLite's index sync writes, in a transaction of its own. */
export const INDEX_SYNC_BATCH = 1000;

/**
 * Brings SQLite's text index (FTS5 and `ticket_words`) up to the tickets written since
 * the last call (their ids wait in `tickets_fts_pending`, queued by the triggers). FTS5
 * flushes its buffer at every statement savepoint, and a statement with triggers takes
 * one: written from a trigger, each ticket would cost a segment flush; written here, in
 * statements of their own, the index is flushed once per step. Ticket writers leave it to
 * `createTicketIndexSync`, which runs it for all the writes of a moment at once. A no-op
 * on PostgreSQL.
 *
 * The queue is written in steps of INDEX_SYNC_BATCH tickets, newest first, each its own
 * transaction, giving the event loop a turn between steps, so a queue of millions (tickets
 * written by SQL) never holds the process. With `isBounded` (a search) the caller does one
 * step and leaves the rest to a run in the background; what is still queued is matched by
 * `ftsRows` directly. Concurrent runs are one. Within a transaction (the seed, a rebuild)
 * the steps run in it, back to back. Answers whether tickets may still wait in the queue.
 */
export async function syncTicketIndex(db: Kysely<DB>, dialect: Dialect, isBounded = false): Promise<boolean> {
  if (dialect !== 'sqlite') return false;
  if (db.isTransaction) {
    while (!(await indexQueuedStep(db)));
    return false;
  }
  if (isBounded) {
    // Nearly always the queue is empty: one look, no transaction. A queue of one step or less
    // (what writers leave between two syncs) is written before the caller reads the index, by
    // the caller or by the run already at it (waited for briefly), so the index alone answers;
    // a longer one is left to the run in the background.
    const queued = await queuedUpTo(db, INDEX_SYNC_BATCH + 1);
    if (queued === 0) return false;
    const run = runs.get(db);
    if (run && queued <= INDEX_SYNC_BATCH) {
      await Promise.race([run, new Promise((resolve) => setTimeout(resolve, INDEX_SYNC_DELAY_MS).unref())]);
      return isQueued(db);
    }
    if (!run && queued <= INDEX_SYNC_BATCH && (await db.transaction().execute(indexQueuedStep))) return false;
    void indexInBackground(db).catch(() => undefined); // the next write or search starts it again
    return true;
  }
  await indexInBackground(db);
  // A ticket queued while the shared run was finishing may be after its last look.
  if (!stopped.has(db) && (await isQueued(db))) return syncTicketIndex(db, dialect);
  return stopped.has(db);
}

/** The run of `syncTicketIndex` in progress, per database. */
const runs = new WeakMap<Kysely<DB>, Promise<void>>();
/** Databases about to close: their runs stop after the current step (the queue waits in its table). */
const stopped = new WeakSet<Kysely<DB>>();

/** How many tickets wait in the queue, counted up to `limit`. */
const queuedUpTo = async (db: Kysely<DB>, limit: number) =>
  Number(
    (
      await sql<{
        n: number;
      }>`select count(*) as n from (select 1 from tickets_fts_pending limit ${sql.lit(limit)})`.execute(db)
    ).rows[0]?.n ?? 0,
  );
const isQueued = async (db: Kysely<DB>) => (await queuedUpTo(db, 1)) > 0;

/** Works the queue off step by step, one run per database at a time. */
function indexInBackground(db: Kysely<DB>): Promise<void> {
  let run = runs.get(db);
  if (!run) {
    run = (async () => {
      while (!stopped.has(db) && !(await db.transaction().execute(indexQueuedStep))) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    })().finally(() => runs.delete(db));
    runs.set(db, run);
  }
  return run;
}

/**
 * SQLite: the ids (`rowid`) of the tickets that match an FTS5 query, as a table to select
 * from: the index's, but for tickets still queued for it, which are matched here directly on
 * their row by the same word rule (lib/fts5-match.ts), so a search misses none of them while
 * the queue is worked off. The queue is read first (`cross join` keeps that order) and in id
 * order, so a page stops as soon as it has its rows, as the index's own read does. With an
 * empty queue (`hasQueued` false: nearly always) it is the index alone, whose rows come in
 * rowid order, so a page or an export batch reads only as far as it needs.
 */
export const ftsRows = (match: string, hasQueued: boolean) =>
  hasQueued
    ? sql`(select rowid from tickets_fts where tickets_fts match ${match}
        and rowid not in (select id from tickets_fts_pending)
      union all
      select p.id as rowid from tickets_fts_pending p cross join tickets t on t.id = p.id
      where portal_fts_match(${match}, t.name || ' ' || t.description, ${sql.raw(attrsOf('t'))}))`
    : sql`(select rowid from tickets_fts where tickets_fts match ${match})`;

/** Writes the newest INDEX_SYNC_BATCH queued tickets to the index; true when the queue is then empty. */
async function indexQueuedStep(db: Kysely<DB>): Promise<boolean> {
  const { rows } = await sql<{ id: number }>`select id from tickets_fts_pending
    order by id desc limit ${sql.lit(INDEX_SYNC_BATCH + 1)}`.execute(db);
  if (rows.length === 0) return true;
  const step = sql`(select value from json_each(${JSON.stringify(rows.slice(0, INDEX_SYNC_BATCH).map((r) => r.id))}))`;
  await sql`insert or replace into tickets_fts (rowid, body, attrs)
    select id, name || ' ' || description, ${sql.raw(attrsOf('tickets'))} from tickets where id in ${step}`.execute(db);
  await sql`insert or ignore into ticket_words (word)
    select w.value from tickets t, json_each(portal_words(t.name || ' ' || t.description)) w
    where t.id in ${step}`.execute(db);
  // Deleted tickets leave the index.
  await sql`delete from tickets_fts where rowid in
    (select s.value from ${step} s where not exists (select 1 from tickets t where t.id = s.value))`.execute(db);
  await sql`delete from tickets_fts_pending where id in ${step}`.execute(db);
  return rows.length <= INDEX_SYNC_BATCH;
}

/** Runs `fn` in `db`'s transaction, or in a new one. */
const inTransaction = <T, R>(db: Kysely<T>, fn: (trx: Kysely<T>) => Promise<R>) =>
  db.isTransaction ? fn(db) : db.transaction().execute(fn);

/** How long after a ticket write SQLite's text index is brought up to it (unless a search does it first). */
export const INDEX_SYNC_DELAY_MS = 100;

/**
 * How long after a ticket write PostgreSQL looks for words that became common (addTicketWordBitmaps):
 * the look reads every word's counts, and a word is common long before the look matters.
 */
const WORD_BITMAPS_DELAY_MS = 10 * 60_000;

/** How long that look waits for ticket writers to finish before it gives up until the next one. */
const WORD_BITMAPS_LOCK_TIMEOUT_MS = 1_000;

/**
 * Keeps what the text index derives up to the ticket writes, a moment after them, once for all
 * the writes of that moment, and also on what is there when it is created (tickets written by
 * SQL while no portal ran). Nothing waits for it and nothing is lost if it never runs.
 * - SQLite: `syncTicketIndex`, so the FTS5 segment flush and the index pages are written once
 *   per step instead of once per ticket (a search syncs first; the queue is a table).
 * - PostgreSQL: `addTicketWordBitmaps`, at most once a WORD_BITMAPS_DELAY_MS (until then a
 *   search of a word that just became common is counted through the text index).
 */
export function createTicketIndexSync(
  database: Pick<Database, 'db' | 'dialect'>,
  delayMs = database.dialect === 'sqlite' ? INDEX_SYNC_DELAY_MS : WORD_BITMAPS_DELAY_MS,
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let isClosed = false;
  const step = () =>
    database.dialect === 'sqlite'
      ? syncTicketIndex(database.db, database.dialect)
      : addTicketWordBitmaps(database.db, WORD_BITMAPS_LOCK_TIMEOUT_MS);
  const run = async () => {
    timer = undefined;
    running = step().catch(() => undefined); // the next write starts it again
    await running;
    running = undefined;
  };
  const sync = {
    /** A ticket write has committed or is about to: sync soon. */
    queued(): void {
      if (timer || isClosed) return;
      timer = setTimeout(() => void run(), delayMs);
      timer.unref();
    },
    /** Stops after the step in progress (before the database closes); the rest stays queued for the next start. */
    async close(): Promise<void> {
      isClosed = true;
      clearTimeout(timer);
      stopped.add(database.db);
      await running;
      await runs.get(database.db);
    },
  };
  sync.queued();
  return sync;
}
export type TicketIndexSync = ReturnType<typeof createTicketIndexSync>;

/** Recomputes the counters from the tickets, in one statement per counted set. */
export async function rebuildTicketCounts<T>(db: Kysely<T>): Promise<void> {
  await sql`delete from ticket_counts`.execute(db);
  const shard = sql.raw(`id % ${COUNT_SHARDS}`);
  const insert = (kind: number, user: RawBuilder<unknown>, where: RawBuilder<unknown> = sql`1 = 1`) =>
    sql`insert into ticket_counts (kind, user_id, stage, status_id, shard, n)
        select ${sql.lit(kind)}, x.user_id, x.stage, x.status_id, x.shard, count(*)
        from (select ${user} as user_id, stage, status_id, ${shard} as shard from tickets where ${where}) x
        group by x.user_id, x.stage, x.status_id, x.shard`.execute(db);
  await insert(COUNT_KIND.all, sql`0`);
  await insert(COUNT_KIND.created, sql`created_by`);
  await insert(COUNT_KIND.assigned, sql`coalesce(user_assigned_id, 0)`);
  await insert(COUNT_KIND.self, sql`created_by`, sql`created_by = user_assigned_id`);
}

/** SQLite: the words of a row of `ticket_attr_bits` (migration 0054), 32 bits each. */
export const ATTR_BIT_WORDS = Array.from({ length: 32 }, (_, i) => `w${i}`);

/**
 * SQLite: recomputes `ticket_attr_bits` from the tickets: ticket `id` is bit `id & 31` of word
 * `(id >> 5) & 31` of its token's row of chunk `id >> 10` (a word's bits are distinct tickets,
 * so their sum is their OR).
 */
export async function rebuildSqliteAttrBits<T>(db: Kysely<T>): Promise<void> {
  await sql`delete from ticket_attr_bits`.execute(db);
  const tokens = tokenFields.filter((f) => f.kind !== 'id').map((f) => tokenOf(f, 't'));
  const words = ATTR_BIT_WORDS.map((_, i) => `sum(iif(t.id >> 5 & 31 = ${i}, 1 << (t.id & 31), 0))`);
  await sql
    .raw(
      `insert into ticket_attr_bits (token, chunk, ${ATTR_BIT_WORDS.join(', ')})
        select j.value, t.id >> 10, ${words.join(', ')}
        from tickets t, json_each(json_array(${tokens.join(', ')})) j group by j.value, t.id >> 10`,
    )
    .execute(db);
}

/** Recomputes SQLite's FTS5 index from the tickets. */
function rebuildSqliteIndex<T>(db: Kysely<T>): Promise<void> {
  // One transaction, so no queued sync runs between emptying the index and filling it again.
  return inTransaction(db, async (trx) => {
    // The queued tickets' words go to ticket_words first (the queue is where writers leave them).
    await syncTicketIndex(trx as unknown as Kysely<DB>, 'sqlite');
    await sql`insert into tickets_fts (tickets_fts) values ('delete-all')`.execute(trx);
    await sql
      .raw(
        `insert into tickets_fts (rowid, body, attrs) select id, name || ' ' || description, ${attrsOf('tickets')} from tickets`,
      )
      .execute(trx);
  });
}

/**
 * PostgreSQL: the GIN index of `search_doc` (a migration's, or after a bulk load), without a
 * pending list: every search would scan it whole (migration 0016).
 */
export async function createPgSearchIndex<T>(db: Kysely<T>): Promise<void> {
  await sql`create index if not exists tickets_search_idx on tickets using gin (search_doc)
    with (fastupdate = off)`.execute(db);
}

/**
 * PostgreSQL: the `ticket_attr_blocks` rows `(token, block, shard, bits)` of the `(token, id)`
 * pairs of query `pairs` (migration 0049's layout: ticket `id` is bit (id >> 3) & 8191 from
 * the left of the row of block id >> 16 and shard id & 7). The bits are gathered in 64-bit
 * integers first (hashed: only their assembly needs an order), then each row is written once
 * as hexadecimal: OR-ing a whole bit string per pair copies a kilobyte each time.
 */
const bitmapsOfPairs = (pairs: string) => `with words as materialized (
    select token collate "C" as token, id >> 16 as block, id & 7 as shard, (id >> 9) & 127 as w,
      bit_or(1::bigint << (63 - ((id >> 3) & 63))) as v
    from (${pairs}) p(token, id) group by 1, 2, 3, 4)
  select token, block, shard, ('x' || rpad(string_agg(repeat('0', 16 * (w - prev - 1))
    || lpad(to_hex(v), 16, '0'), '' order by w), 2048, '0'))::bit(8192)
  from (select *, coalesce(lag(w) over (partition by token, block, shard order by w), -1) as prev from words) x
  group by 1, 2, 3`;

/**
 * PostgreSQL: how the rebuild of the bitmaps is planned, for its statements only. A block's
 * tickets are read through the primary key (the planner would scan the whole table for each);
 * their pairs are grouped by hashing, in memory (a sort of millions of them costs more); no
 * statement is worth compiling.
 */
const REBUILD_SETTINGS = { work_mem: '256MB', enable_seqscan: 'off', enable_sort: 'off', jit: 'off' };

/** PostgreSQL: runs `fn` in the caller's transaction with `settings`, then puts the previous values back. */
async function withLocalSettings<T, R>(db: Kysely<T>, settings: Record<string, string>, fn: () => Promise<R>) {
  const set = (values: Record<string, string>) =>
    sql<Record<string, string>>`select ${sql.join(
      Object.entries(values).map(([name, value]) => sql`set_config(${name}, ${value}, true) as ${sql.id(name)}`),
    )}`.execute(db);
  const { rows } = await sql<Record<string, string>>`select ${sql.join(
    Object.keys(settings).map((name) => sql`current_setting(${name}) as ${sql.id(name)}`),
  )}`.execute(db);
  await set(settings);
  const result = await fn();
  // Not after a failure: the transaction is then aborted, and its rollback puts them back.
  await set(rows[0]!);
  return result;
}

/**
 * PostgreSQL: recomputes `ticket_attr_blocks` (migrations 0027, 0039, 0046, 0049 and 0050) from
 * the tickets: the bitmaps of each attribute token, from `search_doc` and, for the SLA state,
 * its column; and those of the words more tickets than the cap hold (`ticket_word_counts`, which
 * must be current), listed again in `ticket_bitmap_words`. One statement per block of 65,536 ids
 * that holds tickets, each reading its tickets once, with room to gather its bits in memory: the
 * whole table's at once spill to disk for as long as the rest of a bulk load takes.
 */
export async function rebuildTicketAttrBlocks<T>(db: Kysely<T>): Promise<void> {
  await sql`delete from ticket_attr_blocks`.execute(db);
  await sql`delete from ticket_bitmap_words`.execute(db);
  await sql`insert into ticket_bitmap_words (word)
    select word from ticket_word_counts group by word having sum(n) > ${TICKET_COUNT_CAP}`.execute(db);
  /** The first block from `block` on that holds a ticket, or null. */
  const nextBlock = async (block: number) =>
    (
      await sql<{ block: number | null }>`select min(id) >> 16 as block from tickets
      where id >= ${block * 65_536}`.execute(db)
    ).rows[0]?.block ?? null;
  await withLocalSettings(db, REBUILD_SETTINGS, async () => {
    for (let block = await nextBlock(0); block !== null; block = await nextBlock(block + 1)) {
      const pairs = `select p.token, t.id from tickets t cross join lateral (
          select u.lexeme from unnest(t.search_doc) u
          where left(u.lexeme, 1) = '${PG_ATTR_MARK}' or u.lexeme in (select word from ticket_bitmap_words)
          union all select '${PG_ATTR_MARK}' || ${tokenOf(slaField, 't')}) p(token)
        where t.id >= ${block * 65_536} and t.id < ${(block + 1) * 65_536}`;
      await sql.raw(`insert into ticket_attr_blocks (token, block, shard, bits) ${bitmapsOfPairs(pairs)}`).execute(db);
    }
  });
}

/**
 * PostgreSQL: lists the words more tickets than the cap hold (`ticket_word_counts`) that have no
 * bitmaps yet, and writes theirs to `ticket_attr_blocks` (migration 0050), so searches that
 * combine them are counted from the bitmaps. It locks ticket writes out while it builds; outside
 * a bulk load, a lock not granted within `lockTimeoutMs` gives up (the next run tries again).
 */
export async function addTicketWordBitmaps<T>(db: Kysely<T>, lockTimeoutMs?: number): Promise<number> {
  return inTransaction(db, async (trx) => {
    if (lockTimeoutMs !== undefined)
      await sql`select set_config('lock_timeout', ${`${lockTimeoutMs}ms`}, true)`.execute(trx);
    const { rows } = await sql<{ n: number }>`select portal_ticket_word_bitmaps(${TICKET_COUNT_CAP}) as n`.execute(trx);
    return Number(rows[0]?.n ?? 0);
  });
}

/** PostgreSQL: recounts `ticket_word_counts` (migration 0048; words and prefix lexemes) from the text index, in shard 0. */
export async function rebuildTicketWordCounts<T>(db: Kysely<T>): Promise<void> {
  await sql`truncate ticket_word_counts`.execute(db);
  await sql`insert into ticket_word_counts (word, shard, n)
    select word, 0, ndoc from ts_stat('select search_doc from tickets')
    where left(word, 1) <> ${PG_ATTR_MARK}`.execute(db);
}

/** The copied SLA clock columns of `ticket_sla_watch` (migration 0041), the ticket's id first. */
const SLA_WATCH_COLUMNS = [
  'sla_state',
  'sla_alerted',
  'sla_at_risk_at',
  'resolution_due_at',
  'resolved_at',
  'sla_paused_at',
  'resolution_due_sort',
  'first_response_due_sort',
].join(', ');

/** Copies every ticket's SLA clock columns to `ticket_sla_watch` anew (what its triggers keep). */
async function rebuildTicketSlaWatch<T>(db: Kysely<T>, dialect: Dialect): Promise<void> {
  await sql.raw(dialect === 'postgres' ? 'truncate ticket_sla_watch' : 'delete from ticket_sla_watch').execute(db);
  await sql
    .raw(`insert into ticket_sla_watch (ticket_id, ${SLA_WATCH_COLUMNS}) select id, ${SLA_WATCH_COLUMNS} from tickets`)
    .execute(db);
}

/** The per-row triggers of the derivations (migrations 0003 and 0041), which a bulk load suspends. */
const derivationTriggers: Record<Dialect, TableTriggers[]> = {
  postgres: [
    {
      table: 'tickets',
      names: [
        'tickets_derive_stage',
        'tickets_counts',
        'tickets_search_doc',
        'tickets_attr_blocks_insert',
        'tickets_attr_blocks_update',
        'tickets_attr_blocks_delete',
        'tickets_word_counts_insert',
        'tickets_word_counts_update',
        'tickets_word_counts_delete',
        'tickets_sla_watch_insert',
        'tickets_sla_watch_update',
      ],
    },
    {
      table: 'ticket_sla_watch',
      names: ['ticket_sla_watch_blocks_insert', 'ticket_sla_watch_blocks_update', 'ticket_sla_watch_blocks_delete'],
    },
  ],
  sqlite: [
    {
      table: 'tickets',
      names: [
        'tickets_derive_insert',
        'tickets_derive_update',
        'tickets_derive_delete',
        'tickets_sla_index',
        'tickets_sla_watch_insert',
        'tickets_sla_watch_update',
        'tickets_attr_bits_insert',
        'tickets_attr_bits_update',
        'tickets_attr_bits_delete',
      ],
    },
  ],
};

/**
 * Runs a bulk load of tickets without the per-row triggers, then rebuilds what they
 * would have derived. The words of the text are the load's to write, far cheaper
 * from what it knows than folded again row by row (lib/search-text.ts `textWords`):
 * `ticket_words` (each word once) and, on PostgreSQL, `search_doc`
 * (`pgSearchDocOf(<the words>, <the row>)`: the words and the attribute lexemes).
 * PostgreSQL's text index is dropped during the load and built again after it
 * (one sorted build instead of a million insertions).
 */
export async function withTicketDerivationsSuspended<T>(
  db: Kysely<T>,
  dialect: Dialect,
  load: () => Promise<void>,
): Promise<void> {
  const loadRows = load;
  load = withTicketReportDerivationsSuspended(db, dialect, async () => {
    await loadRows();
    if (dialect !== 'postgres') return;
    // The stage trigger was off with the others: a row loaded with a stage its status does not
    // have is corrected here, and its text index with it (below).
    await sql`update tickets set stage = s.stage, search_doc = null from ticket_statuses s
      where s.id = tickets.status_id and tickets.stage is distinct from s.stage`.execute(db);
    // Rows the load left without their `search_doc` get it here (a test's few thousand).
    await sql
      .raw(
        `with filled as (
           update tickets set search_doc = ${pgSearchDocOf(`portal_search_text(name || ' ' || description)`, 'tickets')}
           where search_doc is null returning search_doc)
         insert into ticket_words (word) select distinct w from filled, unnest(tsvector_to_array(search_doc)) w
         where left(w, 1) not in ('${PG_ATTR_MARK}', '${PG_PREFIX_MARK}') on conflict do nothing`,
      )
      .execute(db);
  });
  const isPg = dialect === 'postgres';
  await withTriggersOff(db, dialect, derivationTriggers[dialect], async () => {
    if (isPg) await sql`drop index if exists tickets_search_idx`.execute(db);
    try {
      await load();
    } finally {
      await (isPg ? createPgSearchIndex(db) : rebuildSqliteIndex(db));
      if (isPg) {
        await rebuildTicketWordCounts(db);
        await rebuildTicketAttrBlocks(db);
      } else {
        await rebuildSqliteAttrBits(db);
      }
      await rebuildTicketCounts(db);
      await rebuildTicketSlaWatch(db, dialect);
    }
  });
}
