import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * `tickets.stage` is the stage of the ticket's status, whoever writes the row (a script, a data
 * fix in SQL, an import), not only when the application sets it: the database derives it on
 * every insert and on every update of `status_id`. Rows whose stage is wrong are corrected, and
 * the counters and the report follow (their triggers see the correction as a change of stage).
 *
 * - PostgreSQL: a BEFORE trigger sets `new.stage`. BEFORE triggers fire in name order, and
 *   `tickets_derive_stage` sorts before `tickets_search_doc`, whose attribute lexemes must hold
 *   the right stage. The counters' and the report's AFTER triggers fired on an update that named
 *   `stage`; they now also fire on one that names only `status_id`.
 * - SQLite (a BEFORE trigger cannot change the row): AFTER triggers correct `stage` only when it
 *   differs, so the application's own writes (which set it right) cost one lookup and nothing
 *   more. The correction is an update of `stage`, which the counters' and the report's triggers
 *   follow; they must see the row as written first, so they fire before these: SQLite fires the
 *   most recently created trigger first, so they are created again, from their own text, after
 *   these.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await runStatements(db, postgres);
  } else {
    const { rows: others } = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
      where type = 'trigger' and tbl_name = 'tickets' order by rowid`.execute(db);
    await runStatements(db, [...others.map((t) => `drop trigger "${t.name}"`), ...sqlite, ...others.map((t) => t.sql)]);
  }
  await runStatements(db, [
    `update tickets set stage = (select s.stage from ticket_statuses s where s.id = tickets.status_id)
    where stage <> (select s.stage from ticket_statuses s where s.id = tickets.status_id)`,
  ]);
}

const sqlite = [
  `create trigger tickets_stage_insert after insert on tickets
  when new.stage is not (select s.stage from ticket_statuses s where s.id = new.status_id) begin
    update tickets set stage = (select s.stage from ticket_statuses s where s.id = new.status_id) where id = new.id;
  end`,
  `create trigger tickets_stage_update after update of status_id on tickets
  when new.stage is not (select s.stage from ticket_statuses s where s.id = new.status_id) begin
    update tickets set stage = (select s.stage from ticket_statuses s where s.id = new.status_id) where id = new.id;
  end`,
];

const postgres = [
  `create function portal_ticket_stage() returns trigger language plpgsql as $$
  begin
    new.stage := (select s.stage from ticket_statuses s where s.id = new.status_id);
    return new;
  end $$`,
  `create trigger tickets_derive_stage before insert or update of status_id on tickets
    for each row execute function portal_ticket_stage()`,
  `drop trigger tickets_counts on tickets`,
  `create trigger tickets_counts after insert or delete or update of stage, status_id, created_by, user_assigned_id
    on tickets for each row execute function portal_ticket_counts()`,
  `drop trigger tickets_report_update on tickets`,
  `create trigger tickets_report_update after update of stage, status_id, priority_type_id, area_id, project_id, user_assigned_id, created_at on tickets
    for each row when (old.stage is distinct from new.stage or old.priority_type_id is distinct from new.priority_type_id or old.area_id is distinct from new.area_id or old.project_id is distinct from new.project_id or old.user_assigned_id is distinct from new.user_assigned_id or old.created_at is distinct from new.created_at) execute function portal_ticket_report()`,
];
