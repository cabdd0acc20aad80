import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * PostgreSQL: three derivations of a ticket update run once per statement, over the rows it
 * changed (its transition tables, captured already for the attribute blocks' trigger), instead
 * of once per row:
 *
 * - `ticket_sla_watch`'s copy (migration 0041): one update, joined by id;
 * - the SLA figures (migration 0032): each counter row's change summed over the statement and
 *   written once, in key order (so two statements take their rows' locks in the same order);
 * - the attribute blocks (migration 0027) unfold the text index of only the rows whose
 *   attributes (the columns of `portal_ticket_attrs`) changed. Before, every updated row's
 *   index was unfolded twice, old and new, even when none had.
 *
 * Why: the alert sweep moves tens of tickets in one statement, changing only their SLA state
 * and alert level. Each move ran two trigger functions of its own, each counter row was written
 * once per ticket that moved it, and every moved ticket's text index was read whole. In exchange
 * an update that changes no SLA column runs the two SLA functions too (a row's trigger could be
 * skipped by its condition), each finding no row to follow.
 *
 * SQLite runs its triggers in process, row by row, where a call costs next to nothing: unchanged.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await runStatements(db, postgres);
}

/**
 * The copied columns of `ticket_sla_watch`, and the ticket columns a change of which it follows
 * (the due-date sorts follow their dates).
 */
const WATCHED = [
  'sla_state',
  'sla_alerted',
  'sla_at_risk_at',
  'resolution_due_at',
  'resolved_at',
  'sla_paused_at',
  'resolution_due_sort',
  'first_response_due_sort',
];
const WATCHED_SOURCES = [...new Set(WATCHED.map((c) => c.replace(/_sort$/, '_at')))];

/** The ticket columns the SLA figures read. */
const FIGURED = [
  'sla_state',
  'resolved_at',
  'resolution_due_at',
  'first_responded_at',
  'first_response_due_at',
  'area_id',
  'project_id',
];

/** The columns of `portal_ticket_attrs`: the attribute lexemes of the text index. */
const ATTRIBUTES = [
  'priority_type_id',
  'status_id',
  'project_id',
  'area_id',
  'category_id',
  'difficulty_id',
  'created_by',
  'user_assigned_id',
  'group_id',
  'stage',
];

const anyChanged = (columns: string[]) => columns.map((c) => `o.${c} is distinct from n.${c}`).join(' or ');

/**
 * Both sides of each changed row as the SLA figures count them: the old one with sign -1, the
 * new one with +1.
 */
const SIDES = `sides (id, area_id, project_id, state, due, resolved, response_due, responded, sign) as (
    select s.* from old_rows o join new_rows n on n.id = o.id
    cross join lateral (values
      (o.id, o.area_id, o.project_id, o.sla_state::text, o.resolution_due_at, o.resolved_at,
        o.first_response_due_at, o.first_responded_at, -1),
      (n.id, n.area_id, n.project_id, n.sla_state::text, n.resolution_due_at, n.resolved_at,
        n.first_response_due_at, n.first_responded_at, 1)) s
    where ${anyChanged(FIGURED)})`;

/** Replaces the row trigger `name` on ticket updates by one per statement, running `fn` over its rows. */
const byStatement = (name: string, fn: string) => [
  `drop trigger ${name} on tickets`,
  `create trigger ${name} after update on tickets
    referencing old table as old_rows new table as new_rows
    for each statement execute function ${fn}()`,
];

const day = (t: string) => `to_char(${t} at time zone 'UTC', 'YYYY-MM-DD')`;

const postgres = [
  `create function portal_ticket_sla_watch_rows() returns trigger language plpgsql as $$
    begin
      update ticket_sla_watch w set ${WATCHED.map((c) => `${c} = n.${c}`).join(', ')}
      from old_rows o join new_rows n on n.id = o.id
      where w.ticket_id = n.id and (${anyChanged(WATCHED_SOURCES)});
      return null;
    end $$`,
  ...byStatement('tickets_sla_watch_update', 'portal_ticket_sla_watch_rows'),

  // Resolutions (met on the day resolved, breached on the day due) and first responses (on the
  // earlier of the response and its due date), the same rules as portal_ticket_sla_report_side.
  `create function portal_ticket_sla_report_rows() returns trigger language plpgsql as $$
    begin
      with ${SIDES}
      insert into ticket_report_sla_daily as c (day, area_id, project_id, shard, resolution_met, resolution_breached,
        response_met, response_breached)
      select d, area_id, project_id, shard, sum(rm), sum(rb), sum(fm), sum(fb) from (
        select ${day('least(coalesce(resolved, due), due)')} as d, area_id, project_id, id % 8 as shard,
          sign * (case when resolved is not null and resolved <= due then 1 else 0 end) as rm,
          sign * (case when resolved is not null and resolved <= due then 0 else 1 end) as rb, 0 as fm, 0 as fb
        from sides where due is not null and (resolved is not null or state = 'breached')
        union all
        select ${day('least(responded, response_due)')}, area_id, project_id, id % 8, 0, 0,
          sign * (case when responded <= response_due then 1 else 0 end),
          sign * (case when responded <= response_due then 0 else 1 end)
        from sides where response_due is not null and responded is not null
      ) x
      group by d, area_id, project_id, shard
      having sum(rm) <> 0 or sum(rb) <> 0 or sum(fm) <> 0 or sum(fb) <> 0
      order by d, area_id, project_id, shard
      on conflict (day, area_id, project_id, shard) do update set
        resolution_met = c.resolution_met + excluded.resolution_met,
        resolution_breached = c.resolution_breached + excluded.resolution_breached,
        response_met = c.response_met + excluded.response_met,
        response_breached = c.response_breached + excluded.response_breached;

      with ${SIDES}
      insert into ticket_report_sla_now as c (area_id, project_id, sla_state, shard, n)
      select area_id, project_id, state, id % 8, sum(sign) from sides
      where state = 'at_risk' or (state = 'breached' and resolved is null)
      group by area_id, project_id, state, id % 8
      having sum(sign) <> 0
      order by area_id, project_id, state, id % 8
      on conflict (area_id, project_id, sla_state, shard) do update set n = c.n + excluded.n;
      return null;
    end $$`,
  ...byStatement('tickets_sla_report_update', 'portal_ticket_sla_report_rows'),

  `create or replace function portal_ticket_attr_blocks() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform portal_ticket_attr_flip(array_agg(n.id), array_agg(u.lexeme))
          from new_rows n, unnest(n.search_doc) u where left(u.lexeme, 1) = '_';
      elsif tg_op = 'DELETE' then
        perform portal_ticket_attr_flip(array_agg(o.id), array_agg(u.lexeme))
          from old_rows o, unnest(o.search_doc) u where left(u.lexeme, 1) = '_';
      else
        -- A row whose text index was filled or emptied gains or loses every attribute lexeme.
        perform portal_ticket_attr_flip(array_agg(f.id), array_agg(f.token)) from (
          with changed as materialized (
            select n.id, o.search_doc as before, n.search_doc as after
            from old_rows o join new_rows n on n.id = o.id
            where ${anyChanged(ATTRIBUTES)} or (o.search_doc is null) <> (n.search_doc is null))
          (select id, u.lexeme from changed, unnest(after) u where left(u.lexeme, 1) = '_'
           except select id, u.lexeme from changed, unnest(before) u where left(u.lexeme, 1) = '_')
          union all
          (select id, u.lexeme from changed, unnest(before) u where left(u.lexeme, 1) = '_'
           except select id, u.lexeme from changed, unnest(after) u where left(u.lexeme, 1) = '_')
        ) f(id, token);
      end if;
      return null;
    end $$`,
];
