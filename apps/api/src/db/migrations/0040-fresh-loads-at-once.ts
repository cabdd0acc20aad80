import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * PostgreSQL: `portal_open_assigned` for several members in one call, in their order (one
 * snapshot of its own, taken when called): the open assigned tickets of each, as an automatic
 * creation checks them under its group's lock.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await runStatements(db, [
    `create function portal_open_assigned_each(members integer[]) returns bigint[] language sql volatile as $$
      select array(
        select coalesce((select sum(c.n) from ticket_counts c
            where c.kind = 2 and c.user_id = x.member and c.stage <> 'closed'), 0)::bigint
        from unnest(members) with ordinality as x(member, place)
        order by x.place)
    $$`,
  ]);
}
