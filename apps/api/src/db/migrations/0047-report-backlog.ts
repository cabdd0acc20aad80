import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * `ticket_report_backlog`: the tickets not closed per area, project, stage, priority and shard,
 * what the dashboard's backlog adds up. `ticket_report_now` holds the same per assignee too,
 * tens of times more rows, which the backlog read whole. Triggers on `ticket_report_now`
 * carry every change of its counts over (a row's key never changes; the ticket triggers write
 * it, and the report's rebuild, which writes both), so those ticket triggers stay as they are.
 * Filled from it here.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await runStatements(db, [...(dialect === 'postgres' ? postgres : sqlite), fill]);
}

const table = `create table ticket_report_backlog (
  area_id integer not null,
  project_id integer not null,
  stage varchar(10) not null,
  priority_type_id integer not null,
  shard smallint not null,
  n integer not null,
  constraint ticket_report_backlog_pk primary key (area_id, project_id, stage, priority_type_id, shard)
)`;

const fill = `insert into ticket_report_backlog (area_id, project_id, stage, priority_type_id, shard, n)
  select area_id, project_id, stage, priority_type_id, shard, sum(n) from ticket_report_now
  group by area_id, project_id, stage, priority_type_id, shard`;

/** SQLite: one trigger per change of a count, adding its difference. */
const sqliteCarry = (event: string, row: 'new' | 'old', difference: string) => `create trigger
  ticket_report_now_backlog_${event.split(' ')[0]} after ${event} on ticket_report_now begin
    insert into ticket_report_backlog (area_id, project_id, stage, priority_type_id, shard, n)
    values (${row}.area_id, ${row}.project_id, ${row}.stage, ${row}.priority_type_id, ${row}.shard, ${difference})
    on conflict (area_id, project_id, stage, priority_type_id, shard) do update set n = n + excluded.n;
  end`;

const sqlite = [
  table,
  sqliteCarry('insert', 'new', 'new.n'),
  sqliteCarry('update of n', 'new', 'new.n - old.n'),
  sqliteCarry('delete', 'old', '-old.n'),
];

const postgres = [
  table,
  `create function portal_ticket_report_backlog() returns trigger language plpgsql as $$
    declare
      r ticket_report_now;
      difference int;
    begin
      if tg_op = 'DELETE' then
        r := old; difference := -old.n;
      elsif tg_op = 'UPDATE' then
        r := new; difference := new.n - old.n;
      else
        r := new; difference := new.n;
      end if;
      if difference <> 0 then
        insert into ticket_report_backlog as c (area_id, project_id, stage, priority_type_id, shard, n)
        values (r.area_id, r.project_id, r.stage, r.priority_type_id, r.shard, difference)
        on conflict (area_id, project_id, stage, priority_type_id, shard) do update set n = c.n + excluded.n;
      end if;
      return null;
    end $$`,
  `create trigger ticket_report_now_backlog after insert or update of n or delete on ticket_report_now
    for each row execute function portal_ticket_report_backlog()`,
];
