import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * PostgreSQL: the functions that ticket writes and automatic assignments call on every statement
 * are written in PL/pgSQL, same bodies. A LANGUAGE sql function that is not inlined plans its
 * body again at every call; PL/pgSQL keeps the plan for the session. They stay VOLATILE, so
 * each query in them still takes a snapshot of its own when it runs (the group loads read after
 * the group's lock).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await runStatements(db, [
    `create or replace function portal_ticket_attr_flip(ids integer[], tokens text[]) returns void language plpgsql as $$
      begin
        insert into ticket_attr_blocks as b (token, block, shard, bits)
        select f.token, f.id >> 13, f.id & 7, bit_or(B'1'::bit(1024) >> ((f.id >> 3) & 1023))
        from unnest(ids, tokens) f(id, token)
        group by 1, 2, 3 order by 1, 2, 3
        on conflict (token, block, shard) do update set bits = b.bits # excluded.bits;
      end $$`,
    `create or replace function portal_open_assigned(member integer) returns bigint language plpgsql volatile as $$
      begin
        return (select coalesce(sum(n), 0) from ticket_counts where kind = 2 and user_id = member and stage <> 'closed');
      end $$`,
    `create or replace function portal_last_assigned(the_group integer) returns integer language plpgsql volatile as $$
      begin
        return (select last_assigned_user_id from group_rotations where group_id = the_group);
      end $$`,
    `create or replace function portal_open_assigned_each(members integer[]) returns bigint[] language plpgsql volatile as $$
      begin
        return array(
          select coalesce((select sum(c.n) from ticket_counts c
              where c.kind = 2 and c.user_id = x.member and c.stage <> 'closed'), 0)::bigint
          from unnest(members) with ordinality as x(member, place)
          order by x.place);
      end $$`,
  ]);
}
