import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * A new ticket's automatic assignee chosen by the statement that writes it (PostgreSQL):
 *
 * - `mail_requests`: the mail of an event whose recipient the database chose, written with the
 *   event and composed into `mail_outbox` by the outbox worker (modules/mail), which deletes the
 *   request in the same transaction;
 * - `portal_choose_assignee(group, at)`: takes the group row's lock (`FOR NO KEY UPDATE`, which
 *   still lets tickets that reference the group be written) and answers the member its mode
 *   picks, or no row (a manual or inactive group, nobody available). Available: a member who is
 *   an active user of an active role, not absent at `at`, and under the group's cap of open
 *   assigned tickets (`ticket_counts`, kind 2, not closed). Rotativa takes the next one after
 *   the last member given a ticket (`group_rotations`) in user id order; Menor carga the one
 *   with the fewest open tickets, ties broken in that same order. The function is VOLATILE
 *   PL/pgSQL, so the reads after the lock take a snapshot of their own: they see what the
 *   lock's previous holder committed.
 *
 * The functions that read the loads for a choice made in JavaScript under that lock, or checked
 * such a choice (migrations 0038, 0040 and 0044), are dropped: nothing calls them.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const isPostgres = dialect === 'postgres';
  await runStatements(db, [
    `create table mail_requests (
      id ${isPostgres ? 'serial primary key' : 'integer primary key autoincrement'},
      user_id integer not null references users (id) on delete cascade,
      ticket_id integer not null references tickets (id) on delete cascade,
      event text not null,
      message text not null,
      detail text,
      created_at ${isPostgres ? 'timestamptz' : 'text'} not null
    )`,
    ...(isPostgres ? postgres : []),
  ]);
}

const postgres = [
  `create or replace function portal_choose_assignee(the_group integer, at timestamptz)
    returns table (user_id integer, open bigint, mode text, full_name text, channel text)
    language plpgsql volatile as $$
    declare
      g record;
      last_user integer;
    begin
      select id, status_id, assignment_mode, assignment_cap into g
        from groups where id = the_group for no key update;
      if not found or g.status_id <> 1 or g.assignment_mode = 'manual' then
        return;
      end if;
      last_user := coalesce((select r.last_assigned_user_id from group_rotations r where r.group_id = the_group), 0);
      return query
        select m.user_id, l.open, g.assignment_mode::text, u.name || ' ' || u.last_name, p.channel
        from group_members m
        join users u on u.id = m.user_id
        join roles o on o.id = u.role_id
        cross join lateral (select coalesce(sum(c.n), 0)::bigint as open from ticket_counts c
          where c.kind = 2 and c.user_id = m.user_id and c.stage <> 'closed') l
        left join notification_preferences p on p.user_id = m.user_id and p.event = 'assigned'
        where m.group_id = the_group and u.status_id = 1 and o.status_id = 1
          and not (u.absent_from is not null and u.absent_from <= at
            and (u.absent_until is null or u.absent_until > at))
          and (g.assignment_cap is null or l.open < g.assignment_cap)
        order by case when g.assignment_mode = 'least_loaded' then l.open end, m.user_id <= last_user, m.user_id
        limit 1;
    end $$`,
  `drop function portal_open_assigned(integer)`,
  `drop function portal_last_assigned(integer)`,
  `drop function portal_open_assigned_each(integer[])`,
];
