import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { grantScreen, type ScreenGrant } from './grant-screen.ts';
import { runStatements } from './run-statements.ts';

const ROUTE = 'dashboard';
const SECTION = 'db_main';
/** Administrador holds every flag, Supervisor reads (as seed-data.ts grants them on a fresh database). */
const GRANTS: ScreenGrant[] = [
  { roleId: 1, flags: { r: 1, w: 1, u: 1, d: 1 } },
  { roleId: 2, flags: { r: 1, w: 0, u: 0, d: 0 } },
];

/**
 * Tablero (/dashboard, section db_main):
 * - the report's maintained figures (described in db/ticket-report-derivations.ts): `ticket_report_now`,
 *   `ticket_report_daily`, `ticket_closures` and their triggers, backfilled from the tickets
 *   (the closing instant of a ticket already closed is taken as its `updated_at`);
 * - on a database already seeded, the route, the section and the permissions of
 *   Administrador and Supervisor (a fresh database gets them from the seed).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const { counterTables, closures, derivations } = reportStatements[dialect];
  await runStatements(db, [...counterTables, ...closures, ...derivations]);
  await grantScreen(db, { route: ROUTE, section: SECTION, grants: GRANTS });
}

/**
 * The report's statements per dialect (migration 0013 runs the counter tables and the
 * derivations again): `derivations` are the trigger functions, the tickets' triggers, the
 * backfill from the tickets (closures first, the daily rows from them), then the closures'
 * triggers, so the backfill's closures are not counted twice.
 */
export const reportStatements: Record<Dialect, { counterTables: string[]; closures: string[]; derivations: string[] }> =
  {
    sqlite: {
      counterTables: [
        `create table "ticket_report_now" ("area_id" integer not null, "project_id" integer not null, "stage" varchar(10) not null, "priority_type_id" integer not null, "user_id" integer not null, "shard" smallint not null, "n" integer not null, constraint "ticket_report_now_pk" primary key ("area_id", "project_id", "stage", "priority_type_id", "user_id", "shard"))`,
        `create table "ticket_report_daily" ("day" varchar(10) not null, "area_id" integer not null, "project_id" integer not null, "shard" smallint not null, "created" integer default 0 not null, "closed" integer default 0 not null, constraint "ticket_report_daily_pk" primary key ("day", "area_id", "project_id", "shard"))`,
      ],
      closures: [
        `create table "ticket_closures" ("ticket_id" integer primary key, "closed_at" text not null, "seconds" integer not null, "area_id" integer not null, "project_id" integer not null, "user_id" integer not null)`,
        `create index "ticket_closures_closed_idx" on "ticket_closures" ("closed_at", "area_id", "project_id", "user_id", "seconds")`,
      ],
      derivations: [
        `create trigger tickets_report_insert after insert on tickets begin
        insert into ticket_report_now (area_id, project_id, stage, priority_type_id, user_id, shard, n)
          select new.area_id, new.project_id, new.stage, new.priority_type_id, coalesce(new.user_assigned_id, 0),
          new.id % 8, 1
          where new.stage <> 'closed'
          on conflict (area_id, project_id, stage, priority_type_id, user_id, shard) do update set n = n + excluded.n;
        insert into ticket_report_daily (day, area_id, project_id, shard, created, closed)
          select substr(new.created_at, 1, 10), new.area_id, new.project_id, new.id % 8,
          1, 0
          where 1 = 1
          on conflict (day, area_id, project_id, shard) do update set created = created + excluded.created;
        insert into ticket_closures (ticket_id, closed_at, seconds, area_id, project_id, user_id)
          select new.id, new.updated_at, max(0, unixepoch(new.updated_at) - unixepoch(new.created_at)),
          new.area_id, new.project_id, coalesce(new.user_assigned_id, 0) where new.stage = 'closed'
          on conflict (ticket_id) do update set closed_at = excluded.closed_at,
          seconds = excluded.seconds, area_id = excluded.area_id, project_id = excluded.project_id, user_id = excluded.user_id;
      end`,
        `create trigger tickets_report_update after update of stage, priority_type_id, area_id, project_id, user_assigned_id, created_at on tickets
          when old.stage is distinct from new.stage or old.priority_type_id is distinct from new.priority_type_id or old.area_id is distinct from new.area_id or old.project_id is distinct from new.project_id or old.user_assigned_id is distinct from new.user_assigned_id or old.created_at is distinct from new.created_at begin
        insert into ticket_report_now (area_id, project_id, stage, priority_type_id, user_id, shard, n)
          select old.area_id, old.project_id, old.stage, old.priority_type_id, coalesce(old.user_assigned_id, 0),
          old.id % 8, -1
          where old.stage <> 'closed'
          on conflict (area_id, project_id, stage, priority_type_id, user_id, shard) do update set n = n + excluded.n;
        insert into ticket_report_now (area_id, project_id, stage, priority_type_id, user_id, shard, n)
          select new.area_id, new.project_id, new.stage, new.priority_type_id, coalesce(new.user_assigned_id, 0),
          new.id % 8, 1
          where new.stage <> 'closed'
          on conflict (area_id, project_id, stage, priority_type_id, user_id, shard) do update set n = n + excluded.n;
        insert into ticket_report_daily (day, area_id, project_id, shard, created, closed)
          select substr(old.created_at, 1, 10), old.area_id, old.project_id, old.id % 8,
          -1, 0
          where 1 = 1
          on conflict (day, area_id, project_id, shard) do update set created = created + excluded.created;
        insert into ticket_report_daily (day, area_id, project_id, shard, created, closed)
          select substr(new.created_at, 1, 10), new.area_id, new.project_id, new.id % 8,
          1, 0
          where 1 = 1
          on conflict (day, area_id, project_id, shard) do update set created = created + excluded.created;
        delete from ticket_closures where ticket_id = old.id and new.stage <> 'closed';
        insert into ticket_closures (ticket_id, closed_at, seconds, area_id, project_id, user_id)
          select new.id, new.updated_at, max(0, unixepoch(new.updated_at) - unixepoch(new.created_at)),
          new.area_id, new.project_id, coalesce(new.user_assigned_id, 0) where new.stage = 'closed' and old.stage <> 'closed'
          on conflict (ticket_id) do update set closed_at = excluded.closed_at,
          seconds = excluded.seconds, area_id = excluded.area_id, project_id = excluded.project_id, user_id = excluded.user_id;
        update ticket_closures set area_id = new.area_id, project_id = new.project_id,
          user_id = coalesce(new.user_assigned_id, 0), seconds = max(0, unixepoch(closed_at) - unixepoch(new.created_at))
          where ticket_id = new.id and new.stage = 'closed' and old.stage = 'closed';
      end`,
        `create trigger tickets_report_delete after delete on tickets begin
        insert into ticket_report_now (area_id, project_id, stage, priority_type_id, user_id, shard, n)
          select old.area_id, old.project_id, old.stage, old.priority_type_id, coalesce(old.user_assigned_id, 0),
          old.id % 8, -1
          where old.stage <> 'closed'
          on conflict (area_id, project_id, stage, priority_type_id, user_id, shard) do update set n = n + excluded.n;
        insert into ticket_report_daily (day, area_id, project_id, shard, created, closed)
          select substr(old.created_at, 1, 10), old.area_id, old.project_id, old.id % 8,
          -1, 0
          where 1 = 1
          on conflict (day, area_id, project_id, shard) do update set created = created + excluded.created;
        delete from ticket_closures where ticket_id = old.id;
      end`,
        `insert into ticket_report_now (area_id, project_id, stage, priority_type_id, user_id, shard, n)
        select area_id, project_id, stage, priority_type_id, coalesce(user_assigned_id, 0), id % 8, count(*)
        from tickets where stage <> 'closed'
        group by area_id, project_id, stage, priority_type_id, coalesce(user_assigned_id, 0), id % 8`,
        `delete from ticket_closures
        where not exists (select 1 from tickets t where t.id = ticket_closures.ticket_id and t.stage = 'closed')`,
        `update ticket_closures set area_id = t.area_id, project_id = t.project_id,
          user_id = coalesce(t.user_assigned_id, 0), seconds = max(0, unixepoch(ticket_closures.closed_at) - unixepoch(t.created_at))
        from tickets t
        where t.id = ticket_closures.ticket_id and (ticket_closures.area_id <> t.area_id
          or ticket_closures.project_id <> t.project_id or ticket_closures.user_id <> coalesce(t.user_assigned_id, 0)
          or ticket_closures.seconds <> max(0, unixepoch(ticket_closures.closed_at) - unixepoch(t.created_at)))`,
        `insert into ticket_closures (ticket_id, closed_at, seconds, area_id, project_id, user_id)
        select t.id, t.updated_at, max(0, unixepoch(t.updated_at) - unixepoch(t.created_at)), t.area_id, t.project_id,
          coalesce(t.user_assigned_id, 0)
        from tickets t
        where t.stage = 'closed' and not exists (select 1 from ticket_closures c where c.ticket_id = t.id)`,
        `insert into ticket_report_daily (day, area_id, project_id, shard, created, closed)
        select d, area_id, project_id, shard, sum(created), sum(closed) from (
          select substr(created_at, 1, 10) as d, area_id, project_id, id % 8 as shard, count(*) as created, 0 as closed
          from tickets group by substr(created_at, 1, 10), area_id, project_id, id % 8
          union all
          select substr(closed_at, 1, 10) as d, area_id, project_id, ticket_id % 8 as shard, 0 as created,
            count(*) as closed
          from ticket_closures group by substr(closed_at, 1, 10), area_id, project_id, ticket_id % 8
        ) x
        group by d, area_id, project_id, shard`,
        `create trigger ticket_closures_report_insert after insert on ticket_closures begin
        insert into ticket_report_daily (day, area_id, project_id, shard, created, closed)
          select substr(new.closed_at, 1, 10), new.area_id, new.project_id, new.ticket_id % 8,
          0, 1
          where 1 = 1
          on conflict (day, area_id, project_id, shard) do update set closed = closed + excluded.closed;
      end`,
        `create trigger ticket_closures_report_update after update of closed_at, area_id, project_id on ticket_closures
          when old.closed_at is distinct from new.closed_at or old.area_id is distinct from new.area_id or old.project_id is distinct from new.project_id begin
        insert into ticket_report_daily (day, area_id, project_id, shard, created, closed)
          select substr(old.closed_at, 1, 10), old.area_id, old.project_id, old.ticket_id % 8,
          0, -1
          where 1 = 1
          on conflict (day, area_id, project_id, shard) do update set closed = closed + excluded.closed;
        insert into ticket_report_daily (day, area_id, project_id, shard, created, closed)
          select substr(new.closed_at, 1, 10), new.area_id, new.project_id, new.ticket_id % 8,
          0, 1
          where 1 = 1
          on conflict (day, area_id, project_id, shard) do update set closed = closed + excluded.closed;
      end`,
        `create trigger ticket_closures_report_delete after delete on ticket_closures begin
        insert into ticket_report_daily (day, area_id, project_id, shard, created, closed)
          select substr(old.closed_at, 1, 10), old.area_id, old.project_id, old.ticket_id % 8,
          0, -1
          where 1 = 1
          on conflict (day, area_id, project_id, shard) do update set closed = closed + excluded.closed;
      end`,
      ],
    },
    postgres: {
      counterTables: [
        `create table "ticket_report_now" ("area_id" integer not null, "project_id" integer not null, "stage" varchar(10) not null, "priority_type_id" integer not null, "user_id" integer not null, "shard" smallint not null, "n" integer not null, constraint "ticket_report_now_pk" primary key ("area_id", "project_id", "stage", "priority_type_id", "user_id", "shard"))`,
        `create table "ticket_report_daily" ("day" varchar(10) not null, "area_id" integer not null, "project_id" integer not null, "shard" smallint not null, "created" integer default 0 not null, "closed" integer default 0 not null, constraint "ticket_report_daily_pk" primary key ("day", "area_id", "project_id", "shard"))`,
      ],
      closures: [
        `create table "ticket_closures" ("ticket_id" integer primary key, "closed_at" timestamptz not null, "seconds" integer not null, "area_id" integer not null, "project_id" integer not null, "user_id" integer not null)`,
        `create index "ticket_closures_closed_idx" on "ticket_closures" ("closed_at", "area_id", "project_id", "user_id", "seconds")`,
      ],
      derivations: [
        `create or replace function portal_ticket_report() returns trigger language plpgsql as $$
        declare
          a int[] := '{}'; j int[] := '{}'; s text[] := '{}'; p int[] := '{}'; u int[] := '{}'; n int[] := '{}';
          days text[] := '{}'; da int[] := '{}'; dj int[] := '{}'; dn int[] := '{}';
          -- The shard; a row keeps its id, so old and new share it.
          k smallint := coalesce(new.id, old.id) % 8;
        begin
          if tg_op <> 'INSERT' then
            if old.stage <> 'closed' then
              a := a || old.area_id; j := j || old.project_id; s := s || old.stage::text;
              p := p || old.priority_type_id; u := u || coalesce(old.user_assigned_id, 0); n := n || -1;
            end if;
            days := days || to_char(old.created_at at time zone 'UTC', 'YYYY-MM-DD'); da := da || old.area_id; dj := dj || old.project_id; dn := dn || -1;
          end if;
          if tg_op <> 'DELETE' then
            if new.stage <> 'closed' then
              a := a || new.area_id; j := j || new.project_id; s := s || new.stage::text;
              p := p || new.priority_type_id; u := u || coalesce(new.user_assigned_id, 0); n := n || 1;
            end if;
            days := days || to_char(new.created_at at time zone 'UTC', 'YYYY-MM-DD'); da := da || new.area_id; dj := dj || new.project_id; dn := dn || 1;
          end if;

          insert into ticket_report_now as c (area_id, project_id, stage, priority_type_id, user_id, shard, n)
          select x.a, x.j, x.s, x.p, x.u, k, sum(x.n)::int
          from unnest(a, j, s, p, u, n) as x(a, j, s, p, u, n)
          group by x.a, x.j, x.s, x.p, x.u
          having sum(x.n) <> 0
          order by x.a, x.j, x.s, x.p, x.u
          on conflict (area_id, project_id, stage, priority_type_id, user_id, shard) do update set n = c.n + excluded.n;

          insert into ticket_report_daily as c (day, area_id, project_id, shard, created, closed)
          select x.day, x.a, x.j, k, sum(x.n)::int, 0
          from unnest(days, da, dj, dn) as x(day, a, j, n)
          group by x.day, x.a, x.j
          having sum(x.n) <> 0
          order by x.day, x.a, x.j
          on conflict (day, area_id, project_id, shard) do update set created = c.created + excluded.created;

          if tg_op = 'DELETE' or new.stage <> 'closed' then
            if tg_op <> 'INSERT' and old.stage = 'closed' then
              delete from ticket_closures where ticket_id = old.id;
            end if;
          elsif tg_op = 'INSERT' or old.stage <> 'closed' then
            insert into ticket_closures as c (ticket_id, closed_at, seconds, area_id, project_id, user_id)
            values (new.id, new.updated_at, greatest(0, floor(extract(epoch from new.updated_at)) - floor(extract(epoch from new.created_at)))::int,
                    new.area_id, new.project_id, coalesce(new.user_assigned_id, 0))
            on conflict (ticket_id) do update set closed_at = excluded.closed_at, seconds = excluded.seconds,
              area_id = excluded.area_id, project_id = excluded.project_id, user_id = excluded.user_id;
          else
            update ticket_closures set area_id = new.area_id, project_id = new.project_id,
                user_id = coalesce(new.user_assigned_id, 0), seconds = greatest(0, floor(extract(epoch from closed_at)) - floor(extract(epoch from new.created_at)))::int
              where ticket_id = new.id;
          end if;
          return null;
        end $$`,
        `create or replace function portal_tickets_report_rows() returns trigger language plpgsql as $$
        declare
          sign int := case when tg_op = 'INSERT' then 1 else -1 end;
        begin
          insert into ticket_report_now as c (area_id, project_id, stage, priority_type_id, user_id, shard, n)
          select area_id, project_id, stage, priority_type_id, coalesce(user_assigned_id, 0), id % 8, sign * count(*)
          from report_rows where stage <> 'closed'
          group by 1, 2, 3, 4, 5, 6
          order by 1, 2, 3, 4, 5, 6
          on conflict (area_id, project_id, stage, priority_type_id, user_id, shard) do update set n = c.n + excluded.n;

          insert into ticket_report_daily as c (day, area_id, project_id, shard, created, closed)
          select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD'), area_id, project_id, id % 8, sign * count(*), 0
          from report_rows group by 1, 2, 3, 4 order by 1, 2, 3, 4
          on conflict (day, area_id, project_id, shard) do update set created = c.created + excluded.created;

          if tg_op = 'INSERT' then
            insert into ticket_closures as c (ticket_id, closed_at, seconds, area_id, project_id, user_id)
            select id, updated_at, greatest(0, floor(extract(epoch from updated_at)) - floor(extract(epoch from created_at)))::int, area_id, project_id, coalesce(user_assigned_id, 0)
            from report_rows where stage = 'closed'
            on conflict (ticket_id) do update set closed_at = excluded.closed_at, seconds = excluded.seconds,
              area_id = excluded.area_id, project_id = excluded.project_id, user_id = excluded.user_id;
          else
            delete from ticket_closures where ticket_id in (select id from report_rows where stage = 'closed');
          end if;
          return null;
        end $$`,
        `create or replace function portal_ticket_closures_report_rows() returns trigger language plpgsql as $$
        declare
          sign int := case when tg_op = 'INSERT' then 1 else -1 end;
        begin
          insert into ticket_report_daily as c (day, area_id, project_id, shard, created, closed)
          select to_char(closed_at at time zone 'UTC', 'YYYY-MM-DD'), area_id, project_id, ticket_id % 8, 0, sign * count(*)
          from report_rows group by 1, 2, 3, 4 order by 1, 2, 3, 4
          on conflict (day, area_id, project_id, shard) do update set closed = c.closed + excluded.closed;
          return null;
        end $$`,
        `create or replace function portal_ticket_closure_report() returns trigger language plpgsql as $$
        declare
          days text[] := '{}'; da int[] := '{}'; dj int[] := '{}'; dn int[] := '{}';
          k smallint := coalesce(new.ticket_id, old.ticket_id) % 8;
        begin
          if tg_op <> 'INSERT' then
            days := days || to_char(old.closed_at at time zone 'UTC', 'YYYY-MM-DD'); da := da || old.area_id; dj := dj || old.project_id; dn := dn || -1;
          end if;
          if tg_op <> 'DELETE' then
            days := days || to_char(new.closed_at at time zone 'UTC', 'YYYY-MM-DD'); da := da || new.area_id; dj := dj || new.project_id; dn := dn || 1;
          end if;
          insert into ticket_report_daily as c (day, area_id, project_id, shard, created, closed)
          select x.day, x.a, x.j, k, 0, sum(x.n)::int
          from unnest(days, da, dj, dn) as x(day, a, j, n)
          group by x.day, x.a, x.j
          having sum(x.n) <> 0
          order by x.day, x.a, x.j
          on conflict (day, area_id, project_id, shard) do update set closed = c.closed + excluded.closed;
          return null;
        end $$`,
        `create trigger tickets_report_insert after insert on tickets
        referencing new table as report_rows
        for each statement execute function portal_tickets_report_rows()`,
        `create trigger tickets_report_delete after delete on tickets
        referencing old table as report_rows
        for each statement execute function portal_tickets_report_rows()`,
        `create trigger tickets_report_update after update of stage, priority_type_id, area_id, project_id, user_assigned_id, created_at on tickets
        for each row when (old.stage is distinct from new.stage or old.priority_type_id is distinct from new.priority_type_id or old.area_id is distinct from new.area_id or old.project_id is distinct from new.project_id or old.user_assigned_id is distinct from new.user_assigned_id or old.created_at is distinct from new.created_at) execute function portal_ticket_report()`,
        `insert into ticket_report_now (area_id, project_id, stage, priority_type_id, user_id, shard, n)
        select area_id, project_id, stage, priority_type_id, coalesce(user_assigned_id, 0), id % 8, count(*)
        from tickets where stage <> 'closed'
        group by area_id, project_id, stage, priority_type_id, coalesce(user_assigned_id, 0), id % 8`,
        `delete from ticket_closures
        where not exists (select 1 from tickets t where t.id = ticket_closures.ticket_id and t.stage = 'closed')`,
        `update ticket_closures set area_id = t.area_id, project_id = t.project_id,
          user_id = coalesce(t.user_assigned_id, 0), seconds = greatest(0, floor(extract(epoch from ticket_closures.closed_at)) - floor(extract(epoch from t.created_at)))::int
        from tickets t
        where t.id = ticket_closures.ticket_id and (ticket_closures.area_id <> t.area_id
          or ticket_closures.project_id <> t.project_id or ticket_closures.user_id <> coalesce(t.user_assigned_id, 0)
          or ticket_closures.seconds <> greatest(0, floor(extract(epoch from ticket_closures.closed_at)) - floor(extract(epoch from t.created_at)))::int)`,
        `insert into ticket_closures (ticket_id, closed_at, seconds, area_id, project_id, user_id)
        select t.id, t.updated_at, greatest(0, floor(extract(epoch from t.updated_at)) - floor(extract(epoch from t.created_at)))::int, t.area_id, t.project_id,
          coalesce(t.user_assigned_id, 0)
        from tickets t
        where t.stage = 'closed' and not exists (select 1 from ticket_closures c where c.ticket_id = t.id)`,
        `insert into ticket_report_daily (day, area_id, project_id, shard, created, closed)
        select d, area_id, project_id, shard, sum(created), sum(closed) from (
          select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as d, area_id, project_id, id % 8 as shard, count(*) as created, 0 as closed
          from tickets group by to_char(created_at at time zone 'UTC', 'YYYY-MM-DD'), area_id, project_id, id % 8
          union all
          select to_char(closed_at at time zone 'UTC', 'YYYY-MM-DD') as d, area_id, project_id, ticket_id % 8 as shard, 0 as created,
            count(*) as closed
          from ticket_closures group by to_char(closed_at at time zone 'UTC', 'YYYY-MM-DD'), area_id, project_id, ticket_id % 8
        ) x
        group by d, area_id, project_id, shard`,
        `create trigger ticket_closures_report_insert after insert on ticket_closures
        referencing new table as report_rows
        for each statement execute function portal_ticket_closures_report_rows()`,
        `create trigger ticket_closures_report_delete after delete on ticket_closures
        referencing old table as report_rows
        for each statement execute function portal_ticket_closures_report_rows()`,
        `create trigger ticket_closures_report_update after update of closed_at, area_id, project_id on ticket_closures
        for each row when (old.closed_at is distinct from new.closed_at or old.area_id is distinct from new.area_id or old.project_id is distinct from new.project_id) execute function portal_ticket_closure_report()`,
      ],
    },
  };
