import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * The ticket counters (`ticket_counts`) also count by status: a list narrowed to some statuses
 * (a Kanban column, the status filter) in Tickets Generales or Mis Tickets is counted exactly
 * from them, as its stage is, instead of counting its matches up to the cap. The key gains
 * `status_id` (a status belongs to one stage, so the stage's sums are unchanged); the triggers
 * move a ticket's count when its status changes too; the counters are filled again.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await runStatements(db, dialect === 'postgres' ? postgres : sqlite);
}

/** The counters of every ticket, per counted set (`kind`: 0 all, 1 created, 2 assigned, 3 both), status and shard. */
const backfill = [
  `insert into ticket_counts (kind, user_id, stage, status_id, shard, n)
    select 0, 0, stage, status_id, id % 8, count(*) from tickets group by stage, status_id, id % 8`,
  `insert into ticket_counts (kind, user_id, stage, status_id, shard, n)
    select 1, created_by, stage, status_id, id % 8, count(*) from tickets group by created_by, stage, status_id, id % 8`,
  `insert into ticket_counts (kind, user_id, stage, status_id, shard, n)
    select 2, coalesce(user_assigned_id, 0), stage, status_id, id % 8, count(*) from tickets
    group by coalesce(user_assigned_id, 0), stage, status_id, id % 8`,
  `insert into ticket_counts (kind, user_id, stage, status_id, shard, n)
    select 3, created_by, stage, status_id, id % 8, count(*) from tickets where created_by = user_assigned_id
    group by created_by, stage, status_id, id % 8`,
];

/** SQLite: one counter change of the row `row` (`old` or `new`) by `delta`, when `when` holds. */
const sqliteCount = (row: 'old' | 'new', delta: 1 | -1, when: string) =>
  [
    ['0', '0', '1 = 1'],
    ['1', `${row}.created_by`, '1 = 1'],
    ['2', `coalesce(${row}.user_assigned_id, 0)`, '1 = 1'],
    ['3', `${row}.created_by`, `${row}.created_by = ${row}.user_assigned_id`],
  ]
    .map(
      ([kind, user, also]) => `
    insert into ticket_counts (kind, user_id, stage, status_id, shard, n)
      select ${kind}, ${user}, ${row}.stage, ${row}.status_id, ${row}.id % 8, ${delta} where (${when}) and ${also}
      on conflict (kind, user_id, stage, status_id, shard) do update set n = n + excluded.n;`,
    )
    .join('');

const sqliteMoved =
  'old.stage is not new.stage or old.status_id is not new.status_id or old.created_by is not new.created_by or old.user_assigned_id is not new.user_assigned_id';

const sqlite = [
  'drop table ticket_counts',
  `create table "ticket_counts" ("kind" smallint not null, "user_id" integer not null, "stage" varchar(10) not null, "status_id" integer not null, "shard" smallint not null, "n" integer not null, constraint "ticket_counts_pk" primary key ("kind", "user_id", "stage", "status_id", "shard"))`,
  'drop trigger tickets_derive_insert',
  'drop trigger tickets_derive_update',
  'drop trigger tickets_derive_delete',
  `create trigger tickets_derive_insert after insert on tickets begin
    insert or ignore into tickets_fts_pending (id) values (new.id);${sqliteCount('new', 1, '1 = 1')}
  end`,
  `create trigger tickets_derive_update after update of name, description, stage, status_id, priority_type_id, project_id, area_id, category_id, difficulty_id, created_by, user_assigned_id on tickets begin
    insert or ignore into tickets_fts_pending (id) values (new.id);${sqliteCount('old', -1, sqliteMoved)}${sqliteCount('new', 1, sqliteMoved)}
  end`,
  `create trigger tickets_derive_delete after delete on tickets begin
    insert or ignore into tickets_fts_pending (id) values (old.id);${sqliteCount('old', -1, '1 = 1')}
  end`,
  ...backfill,
];

const postgres = [
  'truncate ticket_counts',
  'alter table ticket_counts add column status_id integer not null',
  'alter table ticket_counts drop constraint ticket_counts_pk',
  'alter table ticket_counts add constraint ticket_counts_pk primary key (kind, user_id, stage, status_id, shard)',
  `create or replace function portal_ticket_counts() returns trigger language plpgsql as $$
    declare
      kinds smallint[] := '{}';
      users int[] := '{}';
      stages text[] := '{}';
      statuses int[] := '{}';
      shards smallint[] := '{}';
      deltas int[] := '{}';
    begin
      if tg_op <> 'INSERT' then
        kinds := kinds || array[0, 1, 2, 3]::smallint[];
        users := users || array[0, old.created_by, coalesce(old.user_assigned_id, 0), old.created_by];
        stages := stages || array[old.stage, old.stage, old.stage, old.stage]::text[];
        statuses := statuses || array_fill(old.status_id, array[4]);
        shards := shards || array_fill((old.id % 8)::smallint, array[4]);
        deltas := deltas || array[-1, -1, -1, case when old.created_by = old.user_assigned_id then -1 else 0 end];
      end if;
      if tg_op <> 'DELETE' then
        kinds := kinds || array[0, 1, 2, 3]::smallint[];
        users := users || array[0, new.created_by, coalesce(new.user_assigned_id, 0), new.created_by];
        stages := stages || array[new.stage, new.stage, new.stage, new.stage]::text[];
        statuses := statuses || array_fill(new.status_id, array[4]);
        shards := shards || array_fill((new.id % 8)::smallint, array[4]);
        deltas := deltas || array[1, 1, 1, case when new.created_by = new.user_assigned_id then 1 else 0 end];
      end if;
      -- In key order, so two transactions moving tickets between the same users cannot deadlock.
      insert into ticket_counts as c (kind, user_id, stage, status_id, shard, n)
      select x.kind, x.user_id, x.stage, x.status_id, x.shard, sum(x.delta)::int
      from unnest(kinds, users, stages, statuses, shards, deltas) as x(kind, user_id, stage, status_id, shard, delta)
      group by x.kind, x.user_id, x.stage, x.status_id, x.shard
      having sum(x.delta) <> 0
      order by x.kind, x.user_id, x.stage, x.status_id, x.shard
      on conflict (kind, user_id, stage, status_id, shard) do update set n = c.n + excluded.n;
      return null;
    end $$`,
  ...backfill,
];
