import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * Automatic assignment per group:
 *
 * - `groups.assignment_mode`: 'manual' (tickets wait in the queue), 'round_robin' (Rotativa: the
 *   next available member after `last_assigned_user_id`, in user id order) or 'least_loaded'
 *   (Menor carga: the available member with the fewest open assigned tickets, from the counters);
 * - `groups.assignment_cap`: the most open tickets a member may hold to be given another (null:
 *   no cap); a ticket no member can take waits in the queue until one frees capacity;
 * - `users.absent_from` / `absent_until`: Ausente from an instant until an optional return date;
 *   an absent member is skipped;
 * - `tickets_queue_oldest_idx`: a group's queue, oldest first, the order in which the tickets
 *   that waited are handed out when capacity frees.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  await runStatements(db, [
    `alter table groups add column assignment_mode varchar(20) not null default 'manual'`,
    `alter table groups add column assignment_cap integer`,
    `alter table groups add column last_assigned_user_id integer references users (id) on delete set null`,
    `alter table users add column absent_from ${timestamp}`,
    `alter table users add column absent_until ${timestamp}`,
    `create index tickets_queue_oldest_idx on tickets (group_id, id)
      where user_assigned_id is null and group_id is not null and stage <> 'closed'`,
  ]);
}
