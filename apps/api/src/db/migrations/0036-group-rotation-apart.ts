import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * Rotativa's place (the member who got a group's last automatic assignment) moves out of
 * `groups` into `group_rotations`: it changes with every automatic assignment, and a write to a
 * catalogue table tells every process to forget what it keeps of the catalogues (names, SLA
 * calendars, list answers). A group without a row has given no ticket yet.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await runStatements(db, [
    `create table group_rotations (
      group_id integer primary key references groups (id) on delete cascade,
      last_assigned_user_id integer references users (id) on delete set null
    )`,
    `insert into group_rotations (group_id, last_assigned_user_id)
      select id, last_assigned_user_id from groups where last_assigned_user_id is not null`,
    `alter table groups drop column last_assigned_user_id`,
  ]);
}
