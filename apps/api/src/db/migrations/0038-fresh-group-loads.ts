import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * PostgreSQL: what an automatic assignment reads of a group under its lock, as functions that
 * read the latest committed rows. A statement reads with the snapshot it started with, taken
 * before it waited for the group's lock; a VOLATILE function takes a snapshot of its own at each
 * call, after the lock. So one statement can lock the group and read every assignment committed
 * before it got the lock: each member's open assigned tickets (the counters of kind 2, all shards,
 * every stage but closed) and the member who got the group's last ticket.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await runStatements(db, [
    `create function portal_open_assigned(member integer) returns bigint language sql volatile as $$
      select coalesce(sum(n), 0) from ticket_counts where kind = 2 and user_id = member and stage <> 'closed'
    $$`,
    `create function portal_last_assigned(the_group integer) returns integer language sql volatile as $$
      select last_assigned_user_id from group_rotations where group_id = the_group
    $$`,
  ]);
}
