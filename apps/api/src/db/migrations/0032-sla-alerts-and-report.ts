import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * SLA alerts and the Tablero's SLA figures:
 * - `tickets.sla_alerted`: the last threshold alerted for the ticket (0 none, 1 `Por vencer`,
 *   2 `Vencido`). The alert sweep finds the running tickets that crossed a threshold not yet
 *   alerted through two partial indexes (by the at-risk instant, by the resolution due date), so
 *   it never scans, whether the state moved at write time or not. Tickets that crossed a
 *   threshold before this migration count as alerted: the alerts start from now on;
 * - `sla_alerts` (unused until now) made anew: one row per ticket and threshold (the primary key
 *   keeps an alert single whatever the number of processes), with `notify_at`, the first working
 *   instant of the calendar at or after the crossing, and `sent_at` once delivered; a partial
 *   index on the pending ones;
 * - the Tablero's maintained SLA figures (db/ticket-report-derivations.ts), kept by triggers in
 *   the transaction of every ticket write, and filled from the tickets:
 *   `ticket_report_sla_daily` (per decision day, area, project and shard: resolutions met and
 *   breached, first responses met and breached) and `ticket_report_sla_now` (tickets not resolved
 *   `at_risk` or `breached`, per area, project, state and shard).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await runStatements(db, dialect === 'postgres' ? postgres : sqlite);
  await runStatements(db, common);
}

const common = [
  // The running tickets not yet alerted for each threshold (literal predicates: the sweep's queries repeat them).
  `create index tickets_sla_risk_alert_idx on tickets (sla_at_risk_at)
    where sla_alerted = 0 and resolved_at is null and sla_paused_at is null`,
  `create index tickets_sla_breach_alert_idx on tickets (resolution_due_at)
    where sla_alerted < 2 and resolved_at is null and sla_paused_at is null`,
  `create index sla_alerts_pending_idx on sla_alerts (notify_at) where sent_at is null`,
];

const sqliteNow = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/** SQLite: one side (old or new, `sign` ±1) of a ticket row in the SLA figures. */
const sqliteSide = (r: 'old' | 'new', sign: 1 | -1) => {
  const met = `(${r}.resolved_at is not null and ${r}.resolved_at <= ${r}.resolution_due_at)`;
  return `
        insert into ticket_report_sla_daily (day, area_id, project_id, shard, resolution_met, resolution_breached, response_met, response_breached)
          select substr(min(coalesce(${r}.resolved_at, ${r}.resolution_due_at), ${r}.resolution_due_at), 1, 10),
          ${r}.area_id, ${r}.project_id, ${r}.id % 8, ${sign} * ${met}, ${sign} * (1 - ${met}), 0, 0
          where ${r}.resolution_due_at is not null and (${r}.resolved_at is not null or ${r}.sla_state = 'breached')
          on conflict (day, area_id, project_id, shard) do update set resolution_met = resolution_met + excluded.resolution_met,
          resolution_breached = resolution_breached + excluded.resolution_breached;
        insert into ticket_report_sla_daily (day, area_id, project_id, shard, resolution_met, resolution_breached, response_met, response_breached)
          select substr(min(${r}.first_responded_at, ${r}.first_response_due_at), 1, 10),
          ${r}.area_id, ${r}.project_id, ${r}.id % 8, 0, 0,
          ${sign} * (${r}.first_responded_at <= ${r}.first_response_due_at), ${sign} * (${r}.first_responded_at > ${r}.first_response_due_at)
          where ${r}.first_response_due_at is not null and ${r}.first_responded_at is not null
          on conflict (day, area_id, project_id, shard) do update set response_met = response_met + excluded.response_met,
          response_breached = response_breached + excluded.response_breached;
        insert into ticket_report_sla_now (area_id, project_id, sla_state, shard, n)
          select ${r}.area_id, ${r}.project_id, ${r}.sla_state, ${r}.id % 8, ${sign}
          where ${r}.sla_state = 'at_risk' or (${r}.sla_state = 'breached' and ${r}.resolved_at is null)
          on conflict (area_id, project_id, sla_state, shard) do update set n = n + excluded.n;`;
};

const slaColumns = [
  'sla_state',
  'resolved_at',
  'resolution_due_at',
  'first_responded_at',
  'first_response_due_at',
  'area_id',
  'project_id',
];
const changed = slaColumns.map((c) => `old.${c} is distinct from new.${c}`).join(' or ');
const counted = (r: 'old' | 'new') =>
  `${r}.first_responded_at is not null or ${r}.resolved_at is not null or ${r}.sla_state in ('at_risk', 'breached')`;

const sqlite = [
  `alter table tickets add column sla_alerted smallint not null default 0`,
  `update tickets set sla_alerted = case when resolution_due_at <= ${sqliteNow} then 2 else 1 end
    where sla_at_risk_at <= ${sqliteNow} or resolution_due_at <= ${sqliteNow}`,
  `drop table sla_alerts`,
  `create table sla_alerts (
    ticket_id integer not null references tickets (id) on delete cascade,
    threshold varchar(10) not null check (threshold in ('at_risk', 'breached')),
    notify_at text not null,
    sent_at text,
    primary key (ticket_id, threshold)
  )`,
  `create table "ticket_report_sla_daily" ("day" varchar(10) not null, "area_id" integer not null, "project_id" integer not null, "shard" smallint not null, "resolution_met" integer default 0 not null, "resolution_breached" integer default 0 not null, "response_met" integer default 0 not null, "response_breached" integer default 0 not null, constraint "ticket_report_sla_daily_pk" primary key ("day", "area_id", "project_id", "shard"))`,
  `create table "ticket_report_sla_now" ("area_id" integer not null, "project_id" integer not null, "sla_state" varchar(10) not null, "shard" smallint not null, "n" integer not null, constraint "ticket_report_sla_now_pk" primary key ("area_id", "project_id", "sla_state", "shard"))`,
  `insert into ticket_report_sla_daily (day, area_id, project_id, shard, resolution_met, resolution_breached, response_met, response_breached)
    select d, area_id, project_id, shard, sum(rm), sum(rb), sum(fm), sum(fb) from (
      select substr(min(coalesce(resolved_at, resolution_due_at), resolution_due_at), 1, 10) as d, area_id, project_id,
        id % 8 as shard, (resolved_at is not null and resolved_at <= resolution_due_at) as rm,
        1 - (resolved_at is not null and resolved_at <= resolution_due_at) as rb, 0 as fm, 0 as fb
      from tickets where resolution_due_at is not null and (resolved_at is not null or sla_state = 'breached')
      union all
      select substr(min(first_responded_at, first_response_due_at), 1, 10), area_id, project_id, id % 8, 0, 0,
        (first_responded_at <= first_response_due_at), (first_responded_at > first_response_due_at)
      from tickets where first_response_due_at is not null and first_responded_at is not null
    ) x
    group by d, area_id, project_id, shard`,
  `insert into ticket_report_sla_now (area_id, project_id, sla_state, shard, n)
    select area_id, project_id, sla_state, id % 8, count(*) from tickets
    where sla_state = 'at_risk' or (sla_state = 'breached' and resolved_at is null)
    group by area_id, project_id, sla_state, id % 8`,
  `create trigger tickets_sla_report_insert after insert on tickets when ${counted('new')} begin${sqliteSide('new', 1)}
      end`,
  `create trigger tickets_sla_report_update after update of ${slaColumns.join(', ')} on tickets
      when ${changed} begin${sqliteSide('old', -1)}${sqliteSide('new', 1)}
      end`,
  `create trigger tickets_sla_report_delete after delete on tickets when ${counted('old')} begin${sqliteSide('old', -1)}
      end`,
];

const postgres = [
  `alter table tickets add column sla_alerted smallint not null default 0`,
  `update tickets set sla_alerted = case when resolution_due_at <= now() then 2 else 1 end
    where sla_at_risk_at <= now() or resolution_due_at <= now()`,
  `drop table sla_alerts`,
  `create table sla_alerts (
    ticket_id integer not null references tickets (id) on delete cascade,
    threshold varchar(10) not null check (threshold in ('at_risk', 'breached')),
    notify_at timestamptz not null,
    sent_at timestamptz,
    primary key (ticket_id, threshold)
  )`,
  `create table "ticket_report_sla_daily" ("day" varchar(10) not null, "area_id" integer not null, "project_id" integer not null, "shard" smallint not null, "resolution_met" integer default 0 not null, "resolution_breached" integer default 0 not null, "response_met" integer default 0 not null, "response_breached" integer default 0 not null, constraint "ticket_report_sla_daily_pk" primary key ("day", "area_id", "project_id", "shard"))`,
  `create table "ticket_report_sla_now" ("area_id" integer not null, "project_id" integer not null, "sla_state" varchar(10) not null, "shard" smallint not null, "n" integer not null, constraint "ticket_report_sla_now_pk" primary key ("area_id", "project_id", "sla_state", "shard"))`,
  `insert into ticket_report_sla_daily (day, area_id, project_id, shard, resolution_met, resolution_breached, response_met, response_breached)
    select d, area_id, project_id, shard, sum(rm), sum(rb), sum(fm), sum(fb) from (
      select to_char(least(coalesce(resolved_at, resolution_due_at), resolution_due_at) at time zone 'UTC', 'YYYY-MM-DD') as d,
        area_id, project_id, id % 8 as shard,
        case when resolved_at is not null and resolved_at <= resolution_due_at then 1 else 0 end as rm,
        case when resolved_at is not null and resolved_at <= resolution_due_at then 0 else 1 end as rb, 0 as fm, 0 as fb
      from tickets where resolution_due_at is not null and (resolved_at is not null or sla_state = 'breached')
      union all
      select to_char(least(first_responded_at, first_response_due_at) at time zone 'UTC', 'YYYY-MM-DD'), area_id, project_id,
        id % 8, 0, 0, case when first_responded_at <= first_response_due_at then 1 else 0 end,
        case when first_responded_at > first_response_due_at then 1 else 0 end
      from tickets where first_response_due_at is not null and first_responded_at is not null
    ) x
    group by d, area_id, project_id, shard`,
  `insert into ticket_report_sla_now (area_id, project_id, sla_state, shard, n)
    select area_id, project_id, sla_state, id % 8, count(*) from tickets
    where sla_state = 'at_risk' or (sla_state = 'breached' and resolved_at is null)
    group by area_id, project_id, sla_state, id % 8`,
  `create or replace function portal_ticket_sla_report_side(t_id int, t_area int, t_project int, t_state text,
      t_due timestamptz, t_resolved timestamptz, t_response_due timestamptz, t_responded timestamptz, sign int)
    returns void language plpgsql as $$
    declare
      k smallint := t_id % 8;
      met int;
    begin
      if t_due is not null and (t_resolved is not null or t_state = 'breached') then
        met := case when t_resolved is not null and t_resolved <= t_due then 1 else 0 end;
        insert into ticket_report_sla_daily as c (day, area_id, project_id, shard, resolution_met, resolution_breached, response_met, response_breached)
        values (to_char(least(coalesce(t_resolved, t_due), t_due) at time zone 'UTC', 'YYYY-MM-DD'), t_area, t_project, k,
          sign * met, sign * (1 - met), 0, 0)
        on conflict (day, area_id, project_id, shard) do update set resolution_met = c.resolution_met + excluded.resolution_met,
          resolution_breached = c.resolution_breached + excluded.resolution_breached;
      end if;
      if t_response_due is not null and t_responded is not null then
        met := case when t_responded <= t_response_due then 1 else 0 end;
        insert into ticket_report_sla_daily as c (day, area_id, project_id, shard, resolution_met, resolution_breached, response_met, response_breached)
        values (to_char(least(t_responded, t_response_due) at time zone 'UTC', 'YYYY-MM-DD'), t_area, t_project, k,
          0, 0, sign * met, sign * (1 - met))
        on conflict (day, area_id, project_id, shard) do update set response_met = c.response_met + excluded.response_met,
          response_breached = c.response_breached + excluded.response_breached;
      end if;
      if t_state = 'at_risk' or (t_state = 'breached' and t_resolved is null) then
        insert into ticket_report_sla_now as c (area_id, project_id, sla_state, shard, n)
        values (t_area, t_project, t_state, k, sign)
        on conflict (area_id, project_id, sla_state, shard) do update set n = c.n + excluded.n;
      end if;
    end $$`,
  `create or replace function portal_ticket_sla_report() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        perform portal_ticket_sla_report_side(old.id, old.area_id, old.project_id, old.sla_state::text, old.resolution_due_at,
          old.resolved_at, old.first_response_due_at, old.first_responded_at, -1);
      end if;
      if tg_op <> 'DELETE' then
        perform portal_ticket_sla_report_side(new.id, new.area_id, new.project_id, new.sla_state::text, new.resolution_due_at,
          new.resolved_at, new.first_response_due_at, new.first_responded_at, 1);
      end if;
      return null;
    end $$`,
  `create trigger tickets_sla_report_insert after insert on tickets
    for each row when (${counted('new')}) execute function portal_ticket_sla_report()`,
  `create trigger tickets_sla_report_update after update of ${slaColumns.join(', ')} on tickets
    for each row when (${changed}) execute function portal_ticket_sla_report()`,
  `create trigger tickets_sla_report_delete after delete on tickets
    for each row when (${counted('old')}) execute function portal_ticket_sla_report()`,
];
