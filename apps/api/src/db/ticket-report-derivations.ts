import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.ts';

/**
 * The dashboard's figures (Reportes → Tablero), kept by triggers in the transaction of
 * every ticket write, like `ticket-derivations.ts` keeps the list counters:
 *
 * - `ticket_report_now`: tickets not closed, per (area, project, stage, priority,
 *   assignee or 0). At most a few tens of thousands of rows whatever the number of
 *   tickets, so "now" figures add up a slice of it per request;
 * - `ticket_closures`: one row per closed ticket, for its last move into a closed stage:
 *   when (`closed_at`, the writer's `updated_at`), seconds from creation, and the ticket's
 *   current area, project and assignee (0: nobody). Reopening deletes it, closing again
 *   writes it anew. Indexed by `closed_at` (covering), for the per-agent figures and the
 *   medians of a range;
 * - `ticket_report_daily`: per (UTC day, area, project), tickets created that day
 *   (by `created_at`) and closures that day (kept by triggers on `ticket_closures`), for the
 *   range totals and the weekly series at the cost of a few rows per day.
 *
 * The two counter tables spread each key over `REPORT_SHARDS` rows (`shard`: the ticket id
 * modulo, like `ticket_counts`): every new ticket of one area and project on one day would
 * otherwise update the same row, so concurrent writers on PostgreSQL would wait for each
 * other's commit. Readers add the shards up; a single shard's row means nothing alone (a
 * rebuild or a move can leave it negative).
 *
 * The closing instant is the one fact here the tickets row does not keep: a rebuild keeps
 * the `closed_at` of existing closures and takes `updated_at` for closed tickets without one.
 */
export const REPORT_TABLES = ['ticket_report_now', 'ticket_report_daily', 'ticket_closures'] as const;

export const REPORT_SHARDS = 8;

/** The shard of a ticket's counter rows, for a ticket id expression. */
const shardOf = (ticketId: string) => `${ticketId} % ${REPORT_SHARDS}`;

/** Creates the counter tables `ticket_report_now` and `ticket_report_daily` (migrations 0010 and 0011). */
export async function createReportCounterTables<T>(database: Kysely<T>): Promise<void> {
  await database.schema
    .createTable('ticket_report_now')
    .addColumn('area_id', 'integer', (c) => c.notNull())
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('stage', 'varchar(10)', (c) => c.notNull())
    .addColumn('priority_type_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('shard', 'smallint', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('ticket_report_now_pk', [
      'area_id',
      'project_id',
      'stage',
      'priority_type_id',
      'user_id',
      'shard',
    ])
    .execute();
  await database.schema
    .createTable('ticket_report_daily')
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('area_id', 'integer', (c) => c.notNull())
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('shard', 'smallint', (c) => c.notNull())
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('closed', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('ticket_report_daily_pk', ['day', 'area_id', 'project_id', 'shard'])
    .execute();
}

/** Whether the counter tables have their shards (a database migrated by the first 0010 has not). */
export async function hasReportShards<T>(db: Kysely<T>, dialect: Dialect): Promise<boolean> {
  const { rows } =
    dialect === 'postgres'
      ? await sql`select 1 from information_schema.columns
          where table_schema = current_schema() and table_name = 'ticket_report_now' and column_name = 'shard'`.execute(
          db,
        )
      : await sql`select 1 from pragma_table_info('ticket_report_now') where name = 'shard'`.execute(db);
  return rows.length > 0;
}

const ticketTriggers = ['tickets_report_insert', 'tickets_report_update', 'tickets_report_delete'];
const closureTriggers = [
  'ticket_closures_report_insert',
  'ticket_closures_report_update',
  'ticket_closures_report_delete',
];

/** The columns whose change moves a ticket between the report's rows. */
const reportColumns = ['stage', 'priority_type_id', 'area_id', 'project_id', 'user_assigned_id', 'created_at'];
const changed = (columns: string[]) => columns.map((c) => `old.${c} is distinct from new.${c}`).join(' or ');

// ---------------------------------------------------------------------------------------
// SQLite: timestamps are ISO-8601 text in UTC (`…Z`), so the day is the first ten characters.

const sqliteDay = (t: string) => `substr(${t}, 1, 10)`;
const sqliteSeconds = (closedAt: string, createdAt: string) =>
  `max(0, unixepoch(${closedAt}) - unixepoch(${createdAt}))`;

function sqliteNowChange(row: 'new' | 'old', delta: 1 | -1): string {
  return `insert into ticket_report_now (area_id, project_id, stage, priority_type_id, user_id, shard, n)
    select ${row}.area_id, ${row}.project_id, ${row}.stage, ${row}.priority_type_id, coalesce(${row}.user_assigned_id, 0),
      ${shardOf(`${row}.id`)}, ${delta}
    where ${row}.stage <> 'closed'
    on conflict (area_id, project_id, stage, priority_type_id, user_id, shard) do update set n = n + excluded.n;`;
}

/** `row` is a ticket (`created`) or a closure (`closed`), whose ticket id is `ticket_id`. */
function sqliteDailyChange(column: 'created' | 'closed', day: string, row: 'new' | 'old', delta: 1 | -1): string {
  const ticketId = `${row}.${column === 'created' ? 'id' : 'ticket_id'}`;
  return `insert into ticket_report_daily (day, area_id, project_id, shard, created, closed)
    select ${day}, ${row}.area_id, ${row}.project_id, ${shardOf(ticketId)},
      ${column === 'created' ? delta : 0}, ${column === 'closed' ? delta : 0}
    where 1 = 1
    on conflict (day, area_id, project_id, shard) do update set ${column} = ${column} + excluded.${column};`;
}

const sqliteClosureValues = `new.id, new.updated_at, ${sqliteSeconds('new.updated_at', 'new.created_at')},
  new.area_id, new.project_id, coalesce(new.user_assigned_id, 0)`;

const sqliteClosureUpsert = `on conflict (ticket_id) do update set closed_at = excluded.closed_at,
  seconds = excluded.seconds, area_id = excluded.area_id, project_id = excluded.project_id, user_id = excluded.user_id;`;

async function createSqliteTriggers<T>(db: Kysely<T>): Promise<void> {
  await dropSqliteTriggers(db, [...ticketTriggers, ...closureTriggers]);
  const statements = [
    `create trigger tickets_report_insert after insert on tickets begin
      ${sqliteNowChange('new', 1)}
      ${sqliteDailyChange('created', sqliteDay('new.created_at'), 'new', 1)}
      insert into ticket_closures (ticket_id, closed_at, seconds, area_id, project_id, user_id)
        select ${sqliteClosureValues} where new.stage = 'closed'
        ${sqliteClosureUpsert}
    end`,
    `create trigger tickets_report_update after update of ${reportColumns.join(', ')} on tickets
     when ${changed(reportColumns)} begin
      ${sqliteNowChange('old', -1)}
      ${sqliteNowChange('new', 1)}
      ${sqliteDailyChange('created', sqliteDay('old.created_at'), 'old', -1)}
      ${sqliteDailyChange('created', sqliteDay('new.created_at'), 'new', 1)}
      delete from ticket_closures where ticket_id = old.id and new.stage <> 'closed';
      insert into ticket_closures (ticket_id, closed_at, seconds, area_id, project_id, user_id)
        select ${sqliteClosureValues} where new.stage = 'closed' and old.stage <> 'closed'
        ${sqliteClosureUpsert}
      update ticket_closures set area_id = new.area_id, project_id = new.project_id,
          user_id = coalesce(new.user_assigned_id, 0), seconds = ${sqliteSeconds('closed_at', 'new.created_at')}
        where ticket_id = new.id and new.stage = 'closed' and old.stage = 'closed';
    end`,
    `create trigger tickets_report_delete after delete on tickets begin
      ${sqliteNowChange('old', -1)}
      ${sqliteDailyChange('created', sqliteDay('old.created_at'), 'old', -1)}
      delete from ticket_closures where ticket_id = old.id;
    end`,
    ...sqliteClosureTriggers(),
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

function sqliteClosureTriggers(): string[] {
  const moved = ['closed_at', 'area_id', 'project_id'];
  return [
    `create trigger ticket_closures_report_insert after insert on ticket_closures begin
      ${sqliteDailyChange('closed', sqliteDay('new.closed_at'), 'new', 1)}
    end`,
    `create trigger ticket_closures_report_update after update of ${moved.join(', ')} on ticket_closures
     when ${changed(moved)} begin
      ${sqliteDailyChange('closed', sqliteDay('old.closed_at'), 'old', -1)}
      ${sqliteDailyChange('closed', sqliteDay('new.closed_at'), 'new', 1)}
    end`,
    `create trigger ticket_closures_report_delete after delete on ticket_closures begin
      ${sqliteDailyChange('closed', sqliteDay('old.closed_at'), 'old', -1)}
    end`,
  ];
}

async function dropSqliteTriggers<T>(db: Kysely<T>, names: string[]): Promise<void> {
  for (const name of names) await sql.raw(`drop trigger if exists ${name}`).execute(db);
}

// ---------------------------------------------------------------------------------------
// PostgreSQL: one plpgsql function per table; counter rows are written in key order so two
// transactions moving tickets between the same rows cannot deadlock.

const pgDay = (t: string) => `to_char(${t} at time zone 'UTC', 'YYYY-MM-DD')`;
const pgSeconds = (closedAt: string, createdAt: string) =>
  `greatest(0, floor(extract(epoch from ${closedAt})) - floor(extract(epoch from ${createdAt})))::int`;

const pgFunctions = `
create or replace function portal_ticket_report() returns trigger language plpgsql as $$
declare
  a int[] := '{}'; j int[] := '{}'; s text[] := '{}'; p int[] := '{}'; u int[] := '{}'; n int[] := '{}';
  days text[] := '{}'; da int[] := '{}'; dj int[] := '{}'; dn int[] := '{}';
  -- The shard; a row keeps its id, so old and new share it.
  k smallint := ${shardOf('coalesce(new.id, old.id)')};
begin
  if tg_op <> 'INSERT' then
    if old.stage <> 'closed' then
      a := a || old.area_id; j := j || old.project_id; s := s || old.stage::text;
      p := p || old.priority_type_id; u := u || coalesce(old.user_assigned_id, 0); n := n || -1;
    end if;
    days := days || ${pgDay('old.created_at')}; da := da || old.area_id; dj := dj || old.project_id; dn := dn || -1;
  end if;
  if tg_op <> 'DELETE' then
    if new.stage <> 'closed' then
      a := a || new.area_id; j := j || new.project_id; s := s || new.stage::text;
      p := p || new.priority_type_id; u := u || coalesce(new.user_assigned_id, 0); n := n || 1;
    end if;
    days := days || ${pgDay('new.created_at')}; da := da || new.area_id; dj := dj || new.project_id; dn := dn || 1;
  end if;

  insert into ticket_report_now as c (area_id, project_id, stage, priority_type_id, user_id, shard, n)
  select x.a, x.j, x.s, x.p, x.u, k, sum(x.n)::int
  from unnest(a, j, s, p, u, n) as x(a, j, s, p, u, n)
  group by x.a, x.j, x.s, x.p, x.u
  having sum(x.n) <> 0
  order by x.a, x.j, x.s, x.p, x.u
  on conflict (area_id, project_id, stage, priority_type_id, user_id, shard) do update set n = c.n + excluded.n;

  insert into ticket_report_daily as c (day, area_id, project_id, shard, created, closed)
  select x.day, x.a, x.j, k, sum(x.n)::int, 0
  from unnest(days, da, dj, dn) as x(day, a, j, n)
  group by x.day, x.a, x.j
  having sum(x.n) <> 0
  order by x.day, x.a, x.j
  on conflict (day, area_id, project_id, shard) do update set created = c.created + excluded.created;

  if tg_op = 'DELETE' or new.stage <> 'closed' then
    if tg_op <> 'INSERT' and old.stage = 'closed' then
      delete from ticket_closures where ticket_id = old.id;
    end if;
  elsif tg_op = 'INSERT' or old.stage <> 'closed' then
    insert into ticket_closures as c (ticket_id, closed_at, seconds, area_id, project_id, user_id)
    values (new.id, new.updated_at, ${pgSeconds('new.updated_at', 'new.created_at')},
            new.area_id, new.project_id, coalesce(new.user_assigned_id, 0))
    on conflict (ticket_id) do update set closed_at = excluded.closed_at, seconds = excluded.seconds,
      area_id = excluded.area_id, project_id = excluded.project_id, user_id = excluded.user_id;
  else
    update ticket_closures set area_id = new.area_id, project_id = new.project_id,
        user_id = coalesce(new.user_assigned_id, 0), seconds = ${pgSeconds('closed_at', 'new.created_at')}
      where ticket_id = new.id;
  end if;
  return null;
end $$;

create or replace function portal_tickets_report_rows() returns trigger language plpgsql as $$
declare
  sign int := case when tg_op = 'INSERT' then 1 else -1 end;
begin
  insert into ticket_report_now as c (area_id, project_id, stage, priority_type_id, user_id, shard, n)
  select area_id, project_id, stage, priority_type_id, coalesce(user_assigned_id, 0), ${shardOf('id')}, sign * count(*)
  from report_rows where stage <> 'closed'
  group by 1, 2, 3, 4, 5, 6
  order by 1, 2, 3, 4, 5, 6
  on conflict (area_id, project_id, stage, priority_type_id, user_id, shard) do update set n = c.n + excluded.n;

  insert into ticket_report_daily as c (day, area_id, project_id, shard, created, closed)
  select ${pgDay('created_at')}, area_id, project_id, ${shardOf('id')}, sign * count(*), 0
  from report_rows group by 1, 2, 3, 4 order by 1, 2, 3, 4
  on conflict (day, area_id, project_id, shard) do update set created = c.created + excluded.created;

  if tg_op = 'INSERT' then
    insert into ticket_closures as c (ticket_id, closed_at, seconds, area_id, project_id, user_id)
    select id, updated_at, ${pgSeconds('updated_at', 'created_at')}, area_id, project_id, coalesce(user_assigned_id, 0)
    from report_rows where stage = 'closed'
    on conflict (ticket_id) do update set closed_at = excluded.closed_at, seconds = excluded.seconds,
      area_id = excluded.area_id, project_id = excluded.project_id, user_id = excluded.user_id;
  else
    delete from ticket_closures where ticket_id in (select id from report_rows where stage = 'closed');
  end if;
  return null;
end $$;

create or replace function portal_ticket_closures_report_rows() returns trigger language plpgsql as $$
declare
  sign int := case when tg_op = 'INSERT' then 1 else -1 end;
begin
  insert into ticket_report_daily as c (day, area_id, project_id, shard, created, closed)
  select ${pgDay('closed_at')}, area_id, project_id, ${shardOf('ticket_id')}, 0, sign * count(*)
  from report_rows group by 1, 2, 3, 4 order by 1, 2, 3, 4
  on conflict (day, area_id, project_id, shard) do update set closed = c.closed + excluded.closed;
  return null;
end $$;

create or replace function portal_ticket_closure_report() returns trigger language plpgsql as $$
declare
  days text[] := '{}'; da int[] := '{}'; dj int[] := '{}'; dn int[] := '{}';
  k smallint := ${shardOf('coalesce(new.ticket_id, old.ticket_id)')};
begin
  if tg_op <> 'INSERT' then
    days := days || ${pgDay('old.closed_at')}; da := da || old.area_id; dj := dj || old.project_id; dn := dn || -1;
  end if;
  if tg_op <> 'DELETE' then
    days := days || ${pgDay('new.closed_at')}; da := da || new.area_id; dj := dj || new.project_id; dn := dn || 1;
  end if;
  insert into ticket_report_daily as c (day, area_id, project_id, shard, created, closed)
  select x.day, x.a, x.j, k, 0, sum(x.n)::int
  from unnest(days, da, dj, dn) as x(day, a, j, n)
  group by x.day, x.a, x.j
  having sum(x.n) <> 0
  order by x.day, x.a, x.j
  on conflict (day, area_id, project_id, shard) do update set closed = c.closed + excluded.closed;
  return null;
end $$;
`;

async function createPgTriggers<T>(db: Kysely<T>): Promise<void> {
  await sql.raw(pgFunctions).execute(db);
  await dropPgTriggers(db);
  const statements = [
    // Inserts and deletes per statement (a bulk statement adds up its rows once), updates per row.
    ...['insert', 'delete'].flatMap((op) => [
      `create trigger tickets_report_${op} after ${op} on tickets
        referencing ${op === 'insert' ? 'new' : 'old'} table as report_rows
        for each statement execute function portal_tickets_report_rows()`,
      `create trigger ticket_closures_report_${op} after ${op} on ticket_closures
        referencing ${op === 'insert' ? 'new' : 'old'} table as report_rows
        for each statement execute function portal_ticket_closures_report_rows()`,
    ]),
    `create trigger tickets_report_update after update of ${reportColumns.join(', ')} on tickets
      for each row when (${changed(reportColumns)}) execute function portal_ticket_report()`,
    `create trigger ticket_closures_report_update after update of closed_at, area_id, project_id on ticket_closures
      for each row when (${changed(['closed_at', 'area_id', 'project_id'])}) execute function portal_ticket_closure_report()`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

async function dropPgTriggers<T>(db: Kysely<T>): Promise<void> {
  for (const name of ['tickets_report_insert', 'tickets_report_delete', 'tickets_report_update']) {
    await sql.raw(`drop trigger if exists ${name} on tickets`).execute(db);
  }
  for (const name of [
    'ticket_closures_report_insert',
    'ticket_closures_report_delete',
    'ticket_closures_report_update',
  ]) {
    await sql.raw(`drop trigger if exists ${name} on ticket_closures`).execute(db);
  }
}

// ---------------------------------------------------------------------------------------

/** Creates (or re-creates) the report's triggers; its tables come from migration 0010. */
export async function createTicketReportDerivations<T>(db: Kysely<T>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await createPgTriggers(db);
  else await createSqliteTriggers(db);
}

/** Drops the report's triggers (tables stay). */
export async function dropTicketReportTriggers<T>(db: Kysely<T>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await dropPgTriggers(db);
  else await dropSqliteTriggers(db, [...ticketTriggers, ...closureTriggers]);
}

/** False before migration 0010 (earlier migrations rebuild the other derivations). */
async function hasReportTables<T>(db: Kysely<T>, dialect: Dialect): Promise<boolean> {
  const { rows } =
    dialect === 'postgres'
      ? await sql<{ found: unknown }>`select to_regclass('ticket_closures') as found`.execute(db)
      : await sql<{
          found: unknown;
        }>`select name as found from sqlite_master where type = 'table' and name = 'ticket_closures'`.execute(db);
  return rows[0]?.found !== null && rows[0]?.found !== undefined;
}

/**
 * Recomputes the report's figures from the tickets. Existing closures keep their
 * `closed_at` (the tickets row does not record it); closed tickets without one take
 * their `updated_at`; everything else is derived afresh. Runs without the closures'
 * trigger, then recounts the daily rows in bulk.
 */
export async function rebuildTicketReportDerivations<T>(db: Kysely<T>, dialect: Dialect): Promise<void> {
  if (!(await hasReportTables(db, dialect))) return;
  const pg = dialect === 'postgres';
  const day = pg ? pgDay : sqliteDay;
  const seconds = pg ? pgSeconds : sqliteSeconds;

  if (pg) await sql`alter table ticket_closures disable trigger user`.execute(db);
  else await dropSqliteTriggers(db, closureTriggers);
  try {
    await sql`delete from ticket_report_now`.execute(db);
    await sql
      .raw(
        `insert into ticket_report_now (area_id, project_id, stage, priority_type_id, user_id, shard, n)
         select area_id, project_id, stage, priority_type_id, coalesce(user_assigned_id, 0), ${shardOf('id')}, count(*)
         from tickets where stage <> 'closed'
         group by area_id, project_id, stage, priority_type_id, coalesce(user_assigned_id, 0), ${shardOf('id')}`,
      )
      .execute(db);

    await sql`delete from ticket_closures
      where not exists (select 1 from tickets t where t.id = ticket_closures.ticket_id and t.stage = 'closed')`.execute(
      db,
    );
    await sql
      .raw(
        `update ticket_closures set area_id = t.area_id, project_id = t.project_id,
           user_id = coalesce(t.user_assigned_id, 0), seconds = ${seconds('ticket_closures.closed_at', 't.created_at')}
         from tickets t
         where t.id = ticket_closures.ticket_id and (ticket_closures.area_id <> t.area_id
           or ticket_closures.project_id <> t.project_id or ticket_closures.user_id <> coalesce(t.user_assigned_id, 0)
           or ticket_closures.seconds <> ${seconds('ticket_closures.closed_at', 't.created_at')})`,
      )
      .execute(db);
    await sql
      .raw(
        `insert into ticket_closures (ticket_id, closed_at, seconds, area_id, project_id, user_id)
         select t.id, t.updated_at, ${seconds('t.updated_at', 't.created_at')}, t.area_id, t.project_id,
           coalesce(t.user_assigned_id, 0)
         from tickets t
         where t.stage = 'closed' and not exists (select 1 from ticket_closures c where c.ticket_id = t.id)`,
      )
      .execute(db);

    await sql`delete from ticket_report_daily`.execute(db);
    await sql
      .raw(
        `insert into ticket_report_daily (day, area_id, project_id, shard, created, closed)
         select d, area_id, project_id, shard, sum(created), sum(closed) from (
           select ${day('created_at')} as d, area_id, project_id, ${shardOf('id')} as shard, count(*) as created, 0 as closed
           from tickets group by ${day('created_at')}, area_id, project_id, ${shardOf('id')}
           union all
           select ${day('closed_at')} as d, area_id, project_id, ${shardOf('ticket_id')} as shard, 0 as created,
             count(*) as closed
           from ticket_closures group by ${day('closed_at')}, area_id, project_id, ${shardOf('ticket_id')}
         ) x
         group by d, area_id, project_id, shard`,
      )
      .execute(db);
  } finally {
    if (pg) await sql`alter table ticket_closures enable trigger user`.execute(db);
    else for (const statement of sqliteClosureTriggers()) await sql.raw(statement).execute(db);
  }
}

/**
 * Wraps the load of `withTicketDerivationsSuspended` (a bulk load of tickets): the report's
 * triggers are off while it runs and its figures are rebuilt once. On SQLite that function
 * rebuilds every derivation after the load (`rebuildTicketDerivations`, which calls
 * `rebuildTicketReportDerivations`); on PostgreSQL it rebuilds only the counters, so the
 * report is rebuilt here. The bulk-load test of test/reports.test.ts holds both to it.
 */
export function withTicketReportDerivationsSuspended<T>(
  db: Kysely<T>,
  dialect: Dialect,
  load: () => Promise<void>,
): () => Promise<void> {
  return async () => {
    if (!(await hasReportTables(db, dialect))) return load();
    await dropTicketReportTriggers(db, dialect);
    try {
      await load();
    } finally {
      await rebuildTicketReportDerivations(db, dialect);
      await createTicketReportDerivations(db, dialect);
    }
  };
}
