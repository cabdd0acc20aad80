import { TICKET_FIELDS, ticketTokenFields, type TicketField } from '@portal/contract';
import type SQLite from 'better-sqlite3';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { textWords } from '../lib/search-text.ts';
import type { Database, Dialect } from './database.ts';
import type { DB } from './schema.ts';
import { rebuildTicketReportDerivations, withTicketReportDerivationsSuspended } from './ticket-report-derivations.ts';

/**
 * What the database derives from each ticket row, in the transaction that writes it,
 * by triggers (so every write path, the seed and bulk loads included, keeps it true):
 *
 * - the full-text index of name and description: on SQLite the FTS5 table `tickets_fts`
 *   (`body`, plus `attrs`: one token per filterable value, so a search combined with the
 *   list's scope and stage is answered by the index alone), and `ticket_words`, every word
 *   it holds, so a searched prefix becomes the few whole words it starts (FTS5 reads a
 *   prefix by merging whole doclists first); on PostgreSQL the column
 *   `tickets.search_doc` (tsvector, GIN) with the same attribute tokens as lexemes (`_c12`),
 *   and `ticket_words` too;
 * - `ticket_counts`: how many tickets per stage in each counted set, so list totals and the
 *   workload read a few rows instead of counting tickets. Rows are spread over
 *   `COUNT_SHARDS` shards (by ticket id) so concurrent writers rarely wait on one row;
 *   readers add the shards up.
 */
export const COUNT_SHARDS = 8;

/** The SQLite functions the triggers call: every connection that writes tickets registers them. */
export function registerSqliteFunctions(connection: SQLite.Database): void {
  connection.function('portal_words', { deterministic: true }, (text: unknown) =>
    JSON.stringify(textWords(typeof text === 'string' ? text : '')),
  );
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

/** A field's token of a row's value (SQL, row alias `t`); none (null) is 0. */
const tokenOf = (f: TicketField & { token: string }, t: string) =>
  `'${f.token}' || ${f.kind === 'optional-ids' ? `coalesce(${t}.${f.column}, 0)` : `${t}.${f.column}`}`;

/** The SQLite expression of a ticket's attribute tokens, for row alias `t` (`new`, `tickets`), e.g. `status5`. */
const attrsOf = (t: string) => tokenFields.map((f) => tokenOf(f, t)).join(` || ' ' || `);

/** The columns the text index is made of (its words and attribute tokens): updating one re-derives it. */
const searchColumns = Object.values(TICKET_FIELDS as Record<string, TicketField>)
  .filter((f) => f.isSearchable || (f.token && f.column !== 'id'))
  .map((f) => f.column);

/** One counter change per counted set the row belongs to (SQLite trigger statements), when `when` holds. */
function sqliteCountChanges(row: 'new' | 'old', delta: 1 | -1, when = '1 = 1'): string {
  const shard = `${row}.id % ${COUNT_SHARDS}`;
  const upsert = (kind: number, user: string, also = '1 = 1') =>
    `insert into ticket_counts (kind, user_id, stage, shard, n)
       select ${kind}, ${user}, ${row}.stage, ${shard}, ${delta} where (${when}) and ${also}
       on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;`;
  return [
    upsert(COUNT_KIND.all, '0'),
    upsert(COUNT_KIND.created, `${row}.created_by`),
    upsert(COUNT_KIND.assigned, `coalesce(${row}.user_assigned_id, 0)`),
    upsert(COUNT_KIND.self, `${row}.created_by`, `${row}.created_by = ${row}.user_assigned_id`),
  ].join('\n');
}

const ticketTriggers = ['tickets_derive_insert', 'tickets_derive_update', 'tickets_derive_delete'];

/** A status moved to another stage moves its tickets (rare, so done in place; their triggers follow). */
const statusStageTrigger = (body: string) =>
  `create trigger ticket_statuses_stage after update of stage on ticket_statuses for each row
   when (old.stage is distinct from new.stage) ${body}`;

/**
 * PostgreSQL: the same attribute tokens, as lexemes of `search_doc` marked by a leading `_`
 * (a lexeme of the text never holds one: it is folded to letters and digits), e.g. `_c12`.
 */
export const PG_ATTR_MARK = '_';

/** The fields behind the PostgreSQL attribute lexemes (not the id: a number search asks `id = n`). */
const pgAttrFields = tokenFields.filter((f) => f.column !== 'id');

/** `portal_ticket_attrs(…)` of the row alias `row` (`new`, `old`, `tickets`, a loader's `r`): its attribute lexemes. */
export const pgAttrsCall = (row: string) =>
  `portal_ticket_attrs(${pgAttrFields.map((f) => `${row}.${f.column}`).join(', ')})`;

/**
 * The `search_doc` of a row whose text is already folded into `words` (SQL): what the trigger
 * writes, for bulk loads that write it themselves (withTicketDerivationsSuspended).
 */
export const pgSearchDocOf = (words: string, row: string) =>
  `to_tsvector('simple', ${words}) || array_to_tsvector(${pgAttrsCall(row)})`;

const pgAttrsFunction = `create or replace function portal_ticket_attrs(${pgAttrFields
  .map((f) => `${f.column} ${f.kind === 'stages' ? 'text' : 'int'}`)
  .join(', ')}) returns text[] language sql immutable parallel safe as $$
  select array[${pgAttrFields.map((f) => `'${PG_ATTR_MARK}' || ${tokenOf(f, 'portal_ticket_attrs')}`).join(', ')}]
$$`;

/** The PostgreSQL text a document or a query is matched on: lower case, no accents, words only. */
const pgFunctions = sql`
create or replace function portal_search_text(t text) returns text language sql immutable parallel safe as $$
  select regexp_replace(lower(public.unaccent('public.unaccent', t)), '[^[:alnum:]]+', ' ', 'g')
$$;

${sql.raw(pgAttrsFunction)};

create or replace function portal_ticket_search_doc() returns trigger language plpgsql as $$
declare
  body tsvector;
begin
  if tg_op = 'INSERT' or old.search_doc is null
     or new.name is distinct from old.name or new.description is distinct from old.description then
    body := to_tsvector('simple', portal_search_text(new.name || ' ' || new.description));
    -- Nearly every word is known: look first, so the insert (and its conflict check) is for new ones only.
    insert into ticket_words (word) select w from unnest(tsvector_to_array(body)) w
      where not exists (select 1 from ticket_words x where x.word = w) on conflict do nothing;
    new.search_doc := body || array_to_tsvector(${sql.raw(pgAttrsCall('new'))});
  else
    -- Only attributes changed: swap their lexemes, the text's stay.
    new.search_doc := ts_delete(old.search_doc, ${sql.raw(pgAttrsCall('old'))})
      || array_to_tsvector(${sql.raw(pgAttrsCall('new'))});
  end if;
  return new;
end $$;

create or replace function portal_status_stage() returns trigger language plpgsql as $$
begin
  update tickets set stage = new.stage where status_id = new.id;
  return null;
end $$;

create or replace function portal_ticket_counts() returns trigger language plpgsql as $$
declare
  kinds smallint[] := '{}';
  users int[] := '{}';
  stages text[] := '{}';
  shards smallint[] := '{}';
  deltas int[] := '{}';
begin
  if tg_op <> 'INSERT' then
    kinds := kinds || array[0, 1, 2, 3]::smallint[];
    users := users || array[0, old.created_by, coalesce(old.user_assigned_id, 0), old.created_by];
    stages := stages || array[old.stage, old.stage, old.stage, old.stage]::text[];
    shards := shards || array_fill((old.id % ${sql.lit(COUNT_SHARDS)})::smallint, array[4]);
    deltas := deltas || array[-1, -1, -1, case when old.created_by = old.user_assigned_id then -1 else 0 end];
  end if;
  if tg_op <> 'DELETE' then
    kinds := kinds || array[0, 1, 2, 3]::smallint[];
    users := users || array[0, new.created_by, coalesce(new.user_assigned_id, 0), new.created_by];
    stages := stages || array[new.stage, new.stage, new.stage, new.stage]::text[];
    shards := shards || array_fill((new.id % ${sql.lit(COUNT_SHARDS)})::smallint, array[4]);
    deltas := deltas || array[1, 1, 1, case when new.created_by = new.user_assigned_id then 1 else 0 end];
  end if;
  -- In key order, so two transactions moving tickets between the same users cannot deadlock.
  insert into ticket_counts as c (kind, user_id, stage, shard, n)
  select x.kind, x.user_id, x.stage, x.shard, sum(x.delta)::int
  from unnest(kinds, users, stages, shards, deltas) as x(kind, user_id, stage, shard, delta)
  group by x.kind, x.user_id, x.stage, x.shard
  having sum(x.delta) <> 0
  order by x.kind, x.user_id, x.stage, x.shard
  on conflict (kind, user_id, stage, shard) do update set n = c.n + excluded.n;
  return null;
end $$;
`;

/** Creates (or re-creates) the triggers, functions and index tables of the derivations. */
export async function createTicketDerivations<T>(db: Kysely<T>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`create extension if not exists unaccent`.execute(db);
    await sql`create table if not exists ticket_words (word text collate "C" primary key)`.execute(db);
    await pgFunctions.execute(db);
    await sql`drop trigger if exists tickets_search_doc on tickets`.execute(db);
    await sql`drop trigger if exists tickets_counts on tickets`.execute(db);
    await sql`create trigger tickets_search_doc before insert or update of ${sql.raw(searchColumns.join(', '))}
      on tickets for each row execute function portal_ticket_search_doc()`.execute(db);
    await sql`create trigger tickets_counts after insert or delete or update of stage, created_by, user_assigned_id
      on tickets for each row execute function portal_ticket_counts()`.execute(db);
    await sql`drop trigger if exists ticket_statuses_stage on ticket_statuses`.execute(db);
    await sql.raw(statusStageTrigger('execute function portal_status_stage()')).execute(db);
    return;
  }
  await sql`create virtual table if not exists tickets_fts using fts5(
      body, attrs, content = '', contentless_delete = 1, detail = column,
      tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
  await sql`create table if not exists ticket_words (word text primary key) without rowid`.execute(db);
  await sql`create table if not exists tickets_fts_pending (id integer primary key)`.execute(db);
  await dropSqliteTriggers(db);
  await sql`drop trigger if exists ticket_statuses_stage`.execute(db);
  await sql
    .raw(statusStageTrigger('begin update tickets set stage = new.stage where status_id = new.id; end'))
    .execute(db);
  const pending = (row: 'new' | 'old') => `insert or ignore into tickets_fts_pending (id) values (${row}.id);`;
  const countsChanged = ['stage', 'created_by', 'user_assigned_id'].map((c) => `old.${c} is not new.${c}`).join(' or ');
  await sql
    .raw(
      `create trigger tickets_derive_insert after insert on tickets begin
        ${pending('new')}
        ${sqliteCountChanges('new', 1)}
      end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger tickets_derive_update after update of ${searchColumns.join(', ')} on tickets begin
        ${pending('new')}
        ${sqliteCountChanges('old', -1, countsChanged)}
        ${sqliteCountChanges('new', 1, countsChanged)}
      end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger tickets_derive_delete after delete on tickets begin
        ${pending('old')}
        ${sqliteCountChanges('old', -1)}
      end`,
    )
    .execute(db);
}

/**
 * Brings SQLite's text index (FTS5 and `ticket_words`) up to the tickets written since
 * the last call (their ids wait in `tickets_fts_pending`, queued by the triggers). FTS5
 * flushes its buffer at every statement savepoint, and a statement with triggers takes
 * one: written from a trigger, each ticket cost a segment flush (about a millisecond at
 * a million tickets); written here, in statements of their own, the index is flushed
 * once, at commit. A search calls it first, so it never reads a stale index whatever
 * wrote the tickets; ticket writers leave it to `createTicketIndexSync`, which runs it
 * for all the writes of a moment at once. A no-op on PostgreSQL.
 */
export async function syncTicketIndex(db: Kysely<DB>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  const waiting = await sql<{ id: number }>`select id from tickets_fts_pending limit 1`.execute(db);
  if (waiting.rows.length === 0) return;
  // One transaction: another sync (a search's, the writers' batch) must not run between
  // these statements, or it would empty the queue this one is still reading.
  await inTransaction(db, writeQueuedToIndex);
}

/** Runs `fn` in `db`'s transaction, or in a new one. */
const inTransaction = <T>(db: Kysely<T>, fn: (trx: Kysely<T>) => Promise<void>) =>
  db.isTransaction ? fn(db) : db.transaction().execute(fn);

async function writeQueuedToIndex(db: Kysely<DB>): Promise<void> {
  await sql
    .raw(
      `insert or replace into tickets_fts (rowid, body, attrs)
       select id, name || ' ' || description, ${attrsOf('tickets')} from tickets
       where id in (select id from tickets_fts_pending)`,
    )
    .execute(db);
  await sql`insert or ignore into ticket_words (word)
    select w.value from tickets t, json_each(portal_words(t.name || ' ' || t.description)) w
    where t.id in (select id from tickets_fts_pending)`.execute(db);
  await sql`delete from tickets_fts where rowid in
    (select p.id from tickets_fts_pending p where not exists (select 1 from tickets t where t.id = p.id))`.execute(db);
  await sql`delete from tickets_fts_pending`.execute(db);
}

/** How long after a ticket write SQLite's text index is brought up to it (unless a search does it first). */
export const INDEX_SYNC_DELAY_MS = 100;

/**
 * Runs `syncTicketIndex` a moment after ticket writes, once for all the writes of that
 * moment, in a transaction of its own: the FTS5 segment flush and the index pages are then
 * written once per batch instead of once per ticket. Nothing waits for it (a search syncs
 * first) and nothing is lost if it never runs (the queue is a table). A no-op on PostgreSQL.
 */
export function createTicketIndexSync(database: Pick<Database, 'db' | 'dialect'>, delayMs = INDEX_SYNC_DELAY_MS) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let isClosed = false;
  const run = async () => {
    timer = undefined;
    running = database.db
      .transaction()
      .execute((trx) => syncTicketIndex(trx, database.dialect))
      .catch(() => undefined); // a search or the next write syncs again
    await running;
    running = undefined;
  };
  return {
    /** A ticket write has committed or is about to: sync soon. */
    queued(): void {
      if (database.dialect !== 'sqlite' || timer || isClosed) return;
      timer = setTimeout(() => void run(), delayMs);
      timer.unref();
    },
    /** Runs a pending sync now and stops (before the database closes). */
    async close(): Promise<void> {
      isClosed = true;
      if (timer) {
        clearTimeout(timer);
        await run();
      }
      await running;
    },
  };
}
export type TicketIndexSync = ReturnType<typeof createTicketIndexSync>;

async function dropSqliteTriggers<T>(db: Kysely<T>): Promise<void> {
  for (const name of ticketTriggers) await sql.raw(`drop trigger if exists ${name}`).execute(db);
}

/** Recomputes the counters from the tickets, in one statement per counted set. */
export async function rebuildTicketCounts<T>(db: Kysely<T>): Promise<void> {
  await sql`delete from ticket_counts`.execute(db);
  const shard = sql.raw(`id % ${COUNT_SHARDS}`);
  const insert = (kind: number, user: RawBuilder<unknown>, where: RawBuilder<unknown> = sql`1 = 1`) =>
    sql`insert into ticket_counts (kind, user_id, stage, shard, n)
        select ${sql.lit(kind)}, x.user_id, x.stage, x.shard, count(*)
        from (select ${user} as user_id, stage, ${shard} as shard from tickets where ${where}) x
        group by x.user_id, x.stage, x.shard`.execute(db);
  await insert(COUNT_KIND.all, sql`0`);
  await insert(COUNT_KIND.created, sql`created_by`);
  await insert(COUNT_KIND.assigned, sql`coalesce(user_assigned_id, 0)`);
  await insert(COUNT_KIND.self, sql`created_by`, sql`created_by = user_assigned_id`);
}

/** Recomputes SQLite's FTS5 index from the tickets. */
function rebuildSqliteIndex<T>(db: Kysely<T>): Promise<void> {
  // One transaction, so no queued sync runs between emptying the index and filling it again.
  return inTransaction(db, async (trx) => {
    // The queued tickets' words go to ticket_words first (the queue is where writers leave them).
    await writeQueuedToIndex(trx as unknown as Kysely<DB>);
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

/** PostgreSQL: `ticket_words` from the lexemes of every `search_doc` (its attribute lexemes aside). */
export async function rebuildPgWords<T>(db: Kysely<T>): Promise<void> {
  await sql`insert into ticket_words (word)
    select distinct w from tickets, unnest(tsvector_to_array(search_doc)) w where left(w, 1) <> ${PG_ATTR_MARK}
    on conflict do nothing`.execute(db);
}

/** Recomputes everything the triggers derive, from the tickets (a migration's backfill). */
export async function rebuildTicketDerivations<T>(db: Kysely<T>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql
      .raw(
        `update tickets set search_doc = ${pgSearchDocOf(`portal_search_text(name || ' ' || description)`, 'tickets')}`,
      )
      .execute(db);
    await rebuildPgWords(db);
  } else {
    await rebuildSqliteIndex(db);
    await sql`delete from ticket_words`.execute(db);
    await sql`insert or ignore into ticket_words (word)
      select w.value from tickets t, json_each(portal_words(t.name || ' ' || t.description)) w`.execute(db);
  }
  await rebuildTicketCounts(db);
  await rebuildTicketReportDerivations(db, dialect);
}

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
    // Rows the load left without their `search_doc` get it here (a test's few thousand).
    const unindexed = await sql
      .raw(
        `update tickets set search_doc = ${pgSearchDocOf(`portal_search_text(name || ' ' || description)`, 'tickets')}
         where search_doc is null`,
      )
      .execute(db);
    if (Number(unindexed.numAffectedRows ?? 0) > 0) await rebuildPgWords(db);
  });
  if (dialect === 'postgres') {
    await sql`alter table tickets disable trigger tickets_counts`.execute(db);
    await sql`alter table tickets disable trigger tickets_search_doc`.execute(db);
    await sql`drop index if exists tickets_search_idx`.execute(db);
    try {
      await load();
    } finally {
      await sql`alter table tickets enable trigger tickets_search_doc`.execute(db);
      await sql`alter table tickets enable trigger tickets_counts`.execute(db);
    }
    await createPgSearchIndex(db);
    await rebuildTicketCounts(db);
    return;
  }
  await dropSqliteTriggers(db);
  try {
    await load();
  } finally {
    await rebuildSqliteIndex(db);
    await rebuildTicketCounts(db);
    await createTicketDerivations(db, dialect);
  }
}
