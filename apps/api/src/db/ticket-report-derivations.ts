import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.ts';
import { withTriggersOff, type TableTriggers } from './triggers.ts';

/**
 * The dashboard's figures (Reportes → Tablero), kept by triggers in the transaction of
 * every ticket write, like `ticket-derivations.ts` keeps the list counters:
 *
 * - `ticket_report_now`: tickets not closed, per (area, project, stage, priority,
 *   assignee or 0). At most a few tens of thousands of rows whatever the number of
 *   tickets, so "now" figures add up a slice of it per request; `ticket_report_backlog`, the
 *   same without the assignee, follows it by triggers of its own (migration 0047);
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
 * - the SLA figures (migration 0032): `ticket_report_sla_daily`, per decision day, area, project
 *   and shard, resolutions met (on the day resolved) and breached (on the day they fell due,
 *   resolved since or still overdue: `sla_state` breached) and first responses met or late (once
 *   given, on the earlier of the response and its due date); `ticket_report_sla_now`, the tickets
 *   not resolved `at_risk` or `breached` per area, project and state.
 *
 * The closing instant is the one fact here the tickets row does not keep: a rebuild keeps
 * the `closed_at` of existing closures and takes `updated_at` for closed tickets without one.
 */
export const REPORT_TABLES = [
  'ticket_report_now',
  'ticket_report_backlog',
  'ticket_report_daily',
  'ticket_closures',
  'ticket_report_sla_daily',
  'ticket_report_sla_now',
] as const;

export const REPORT_SHARDS = 8;

/** The shard of a ticket's counter rows, for a ticket id expression. */
const shardOf = (ticketId: string) => `${ticketId} % ${REPORT_SHARDS}`;

/** The report's triggers (migrations 0010 and 0013). */
const closureTriggers: TableTriggers = {
  table: 'ticket_closures',
  names: ['ticket_closures_report_insert', 'ticket_closures_report_update', 'ticket_closures_report_delete'],
};
/** The triggers that carry `ticket_report_now`'s changes to `ticket_report_backlog` (migration 0047). */
const backlogTriggers: Record<Dialect, TableTriggers> = {
  postgres: { table: 'ticket_report_now', names: ['ticket_report_now_backlog'] },
  sqlite: {
    table: 'ticket_report_now',
    names: ['ticket_report_now_backlog_insert', 'ticket_report_now_backlog_update', 'ticket_report_now_backlog_delete'],
  },
};
const reportTriggers: TableTriggers[] = [
  { table: 'tickets', names: ['tickets_report_insert', 'tickets_report_update', 'tickets_report_delete'] },
  closureTriggers,
];
/** The SLA figures' triggers (migration 0032). */
const slaReportTriggers: TableTriggers = {
  table: 'tickets',
  names: ['tickets_sla_report_insert', 'tickets_sla_report_update', 'tickets_sla_report_delete'],
};

// ---------------------------------------------------------------------------------------
// SQLite: timestamps are ISO-8601 text in UTC (`…Z`), so the day is the first ten characters.

const sqliteDay = (t: string) => `substr(${t}, 1, 10)`;
const sqliteSeconds = (closedAt: string, createdAt: string) =>
  `max(0, unixepoch(${closedAt}) - unixepoch(${createdAt}))`;

// ---------------------------------------------------------------------------------------
// PostgreSQL: the same day and duration, from timestamptz.

const pgDay = (t: string) => `to_char(${t} at time zone 'UTC', 'YYYY-MM-DD')`;
const pgSeconds = (closedAt: string, createdAt: string) =>
  `greatest(0, floor(extract(epoch from ${closedAt})) - floor(extract(epoch from ${createdAt})))::int`;

// ---------------------------------------------------------------------------------------

/** The SLA figures recounted from the tickets (as migration 0032 fills them). */
function slaRebuild(dialect: Dialect): string[] {
  const pg = dialect === 'postgres';
  const day = pg ? pgDay : sqliteDay;
  const least = pg ? 'least' : 'min';
  const flag = (condition: string) => (pg ? `case when ${condition} then 1 else 0 end` : `(${condition})`);
  const met = 'resolved_at is not null and resolved_at <= resolution_due_at';
  return [
    'delete from ticket_report_sla_daily',
    `insert into ticket_report_sla_daily (day, area_id, project_id, shard, resolution_met, resolution_breached,
       response_met, response_breached)
     select d, area_id, project_id, shard, sum(rm), sum(rb), sum(fm), sum(fb) from (
       select ${day(`${least}(coalesce(resolved_at, resolution_due_at), resolution_due_at)`)} as d, area_id, project_id,
         ${shardOf('id')} as shard, ${flag(met)} as rm, 1 - ${flag(met)} as rb, 0 as fm, 0 as fb
       from tickets where resolution_due_at is not null and (resolved_at is not null or sla_state = 'breached')
       union all
       select ${day(`${least}(first_responded_at, first_response_due_at)`)}, area_id, project_id, ${shardOf('id')}, 0, 0,
         ${flag('first_responded_at <= first_response_due_at')}, ${flag('first_responded_at > first_response_due_at')}
       from tickets where first_response_due_at is not null and first_responded_at is not null
     ) x
     group by d, area_id, project_id, shard`,
    'delete from ticket_report_sla_now',
    `insert into ticket_report_sla_now (area_id, project_id, sla_state, shard, n)
     select area_id, project_id, sla_state, ${shardOf('id')}, count(*) from tickets
     where sla_state = 'at_risk' or (sla_state = 'breached' and resolved_at is null)
     group by area_id, project_id, sla_state, ${shardOf('id')}`,
  ];
}

/**
 * Recomputes the report's figures from the tickets. Existing closures keep their
 * `closed_at` (the tickets row does not record it); closed tickets without one take
 * their `updated_at`; everything else is derived afresh. Runs without the closures'
 * trigger, then recounts the daily rows in bulk.
 */
export async function rebuildTicketReportDerivations<T>(db: Kysely<T>, dialect: Dialect): Promise<void> {
  const pg = dialect === 'postgres';
  const day = pg ? pgDay : sqliteDay;
  const seconds = pg ? pgSeconds : sqliteSeconds;

  await withTriggersOff(db, dialect, [closureTriggers, backlogTriggers[dialect]], async () => {
    await sql`delete from ticket_report_now`.execute(db);
    await sql
      .raw(
        `insert into ticket_report_now (area_id, project_id, stage, priority_type_id, user_id, shard, n)
         select area_id, project_id, stage, priority_type_id, coalesce(user_assigned_id, 0), ${shardOf('id')}, count(*)
         from tickets where stage <> 'closed'
         group by area_id, project_id, stage, priority_type_id, coalesce(user_assigned_id, 0), ${shardOf('id')}`,
      )
      .execute(db);
    await sql`delete from ticket_report_backlog`.execute(db);
    await sql`insert into ticket_report_backlog (area_id, project_id, stage, priority_type_id, shard, n)
      select area_id, project_id, stage, priority_type_id, shard, sum(n) from ticket_report_now
      group by area_id, project_id, stage, priority_type_id, shard`.execute(db);

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
    for (const statement of slaRebuild(dialect)) await sql.raw(statement).execute(db);
  });
}

/**
 * Wraps the load of `withTicketDerivationsSuspended` (a bulk load of tickets): the report's
 * triggers are off while it runs and its figures are rebuilt once after it. The bulk-load
 * test of test/reports.test.ts holds both dialects to it.
 */
export function withTicketReportDerivationsSuspended<T>(
  db: Kysely<T>,
  dialect: Dialect,
  load: () => Promise<void>,
): () => Promise<void> {
  return () =>
    withTriggersOff(db, dialect, [...reportTriggers, slaReportTriggers], async () => {
      try {
        await load();
      } finally {
        await rebuildTicketReportDerivations(db, dialect);
      }
    });
}

/** Drops the report's triggers (tables stay): what a database before migration 0010 lacks. */
export async function dropTicketReportTriggers<T>(db: Kysely<T>, dialect: Dialect): Promise<void> {
  for (const { table, names } of reportTriggers) {
    for (const name of names) {
      await sql
        .raw(dialect === 'postgres' ? `drop trigger if exists ${name} on ${table}` : `drop trigger if exists ${name}`)
        .execute(db);
    }
  }
}
