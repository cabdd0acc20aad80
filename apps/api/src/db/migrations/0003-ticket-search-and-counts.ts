import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * What keeps the ticket lists fast at a million tickets (ARCHITECTURE.md, "Tickets at scale"):
 * - `tickets.stage`, the stage of the ticket's status, kept on the row so the
 *   history lists seek an index instead of joining the statuses;
 * - a full-text index of name and description (SQLite FTS5, PostgreSQL tsvector + GIN);
 * - `ticket_counts`, per-stage counters maintained by triggers in the writing transaction;
 * - the list indexes; the trigram indexes the full-text index replaces are dropped.
 * Existing tickets are backfilled. The triggers and functions are those db/ticket-derivations.ts
 * describes, as this migration created them.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await runStatements(db, dialect === 'postgres' ? postgres : sqlite);
}

/** The counters of every existing ticket, per counted set (`ticket_counts.kind`) and shard. */
const countsBackfill = [
  `insert into ticket_counts (kind, user_id, stage, shard, n)
    select 0, x.user_id, x.stage, x.shard, count(*)
    from (select 0 as user_id, stage, id % 8 as shard from tickets where 1 = 1) x
    group by x.user_id, x.stage, x.shard`,
  `insert into ticket_counts (kind, user_id, stage, shard, n)
    select 1, x.user_id, x.stage, x.shard, count(*)
    from (select created_by as user_id, stage, id % 8 as shard from tickets where 1 = 1) x
    group by x.user_id, x.stage, x.shard`,
  `insert into ticket_counts (kind, user_id, stage, shard, n)
    select 2, x.user_id, x.stage, x.shard, count(*)
    from (select coalesce(user_assigned_id, 0) as user_id, stage, id % 8 as shard from tickets where 1 = 1) x
    group by x.user_id, x.stage, x.shard`,
  `insert into ticket_counts (kind, user_id, stage, shard, n)
    select 3, x.user_id, x.stage, x.shard, count(*)
    from (select created_by as user_id, stage, id % 8 as shard from tickets where created_by = user_assigned_id) x
    group by x.user_id, x.stage, x.shard`,
];

/** SQLite: the column, counters and indexes; the FTS5 index, its word list and its queue; the triggers; the backfill. */
const sqlite = [
  `alter table "tickets" add column "stage" varchar(10) default 'open' not null`,
  `update tickets set stage = (select s.stage from ticket_statuses s where s.id = tickets.status_id)`,
  `create table "ticket_counts" ("kind" smallint not null, "user_id" integer not null, "stage" varchar(10) not null, "shard" smallint not null, "n" integer not null, constraint "ticket_counts_pk" primary key ("kind", "user_id", "stage", "shard"))`,
  `drop index "tickets_assigned_status_idx"`,
  `create index "tickets_stage_idx" on "tickets" ("stage", "id")`,
  `create index tickets_current_idx on tickets (id) where stage <> 'closed'`,
  `create virtual table if not exists tickets_fts using fts5(
    body, attrs, content = '', contentless_delete = 1, detail = column,
    tokenize = 'unicode61 remove_diacritics 2')`,
  `create table if not exists ticket_words (word text primary key) without rowid`,
  `create table if not exists tickets_fts_pending (id integer primary key)`,
  `create trigger ticket_statuses_stage after update of stage on ticket_statuses for each row
      when (old.stage is distinct from new.stage) begin update tickets set stage = new.stage where status_id = new.id; end`,
  `create trigger tickets_derive_insert after insert on tickets begin
    insert or ignore into tickets_fts_pending (id) values (new.id);
    insert into ticket_counts (kind, user_id, stage, shard, n)
      select 0, 0, new.stage, new.id % 8, 1 where (1 = 1) and 1 = 1
      on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;
    insert into ticket_counts (kind, user_id, stage, shard, n)
      select 1, new.created_by, new.stage, new.id % 8, 1 where (1 = 1) and 1 = 1
      on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;
    insert into ticket_counts (kind, user_id, stage, shard, n)
      select 2, coalesce(new.user_assigned_id, 0), new.stage, new.id % 8, 1 where (1 = 1) and 1 = 1
      on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;
    insert into ticket_counts (kind, user_id, stage, shard, n)
      select 3, new.created_by, new.stage, new.id % 8, 1 where (1 = 1) and new.created_by = new.user_assigned_id
      on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;
  end`,
  `create trigger tickets_derive_update after update of name, description, stage, status_id, priority_type_id, project_id, area_id, category_id, difficulty_id, created_by, user_assigned_id on tickets begin
    insert or ignore into tickets_fts_pending (id) values (new.id);
    insert into ticket_counts (kind, user_id, stage, shard, n)
      select 0, 0, old.stage, old.id % 8, -1 where (old.stage is not new.stage or old.created_by is not new.created_by or old.user_assigned_id is not new.user_assigned_id) and 1 = 1
      on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;
    insert into ticket_counts (kind, user_id, stage, shard, n)
      select 1, old.created_by, old.stage, old.id % 8, -1 where (old.stage is not new.stage or old.created_by is not new.created_by or old.user_assigned_id is not new.user_assigned_id) and 1 = 1
      on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;
    insert into ticket_counts (kind, user_id, stage, shard, n)
      select 2, coalesce(old.user_assigned_id, 0), old.stage, old.id % 8, -1 where (old.stage is not new.stage or old.created_by is not new.created_by or old.user_assigned_id is not new.user_assigned_id) and 1 = 1
      on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;
    insert into ticket_counts (kind, user_id, stage, shard, n)
      select 3, old.created_by, old.stage, old.id % 8, -1 where (old.stage is not new.stage or old.created_by is not new.created_by or old.user_assigned_id is not new.user_assigned_id) and old.created_by = old.user_assigned_id
      on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;
    insert into ticket_counts (kind, user_id, stage, shard, n)
      select 0, 0, new.stage, new.id % 8, 1 where (old.stage is not new.stage or old.created_by is not new.created_by or old.user_assigned_id is not new.user_assigned_id) and 1 = 1
      on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;
    insert into ticket_counts (kind, user_id, stage, shard, n)
      select 1, new.created_by, new.stage, new.id % 8, 1 where (old.stage is not new.stage or old.created_by is not new.created_by or old.user_assigned_id is not new.user_assigned_id) and 1 = 1
      on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;
    insert into ticket_counts (kind, user_id, stage, shard, n)
      select 2, coalesce(new.user_assigned_id, 0), new.stage, new.id % 8, 1 where (old.stage is not new.stage or old.created_by is not new.created_by or old.user_assigned_id is not new.user_assigned_id) and 1 = 1
      on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;
    insert into ticket_counts (kind, user_id, stage, shard, n)
      select 3, new.created_by, new.stage, new.id % 8, 1 where (old.stage is not new.stage or old.created_by is not new.created_by or old.user_assigned_id is not new.user_assigned_id) and new.created_by = new.user_assigned_id
      on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;
  end`,
  `create trigger tickets_derive_delete after delete on tickets begin
    insert or ignore into tickets_fts_pending (id) values (old.id);
    insert into ticket_counts (kind, user_id, stage, shard, n)
      select 0, 0, old.stage, old.id % 8, -1 where (1 = 1) and 1 = 1
      on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;
    insert into ticket_counts (kind, user_id, stage, shard, n)
      select 1, old.created_by, old.stage, old.id % 8, -1 where (1 = 1) and 1 = 1
      on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;
    insert into ticket_counts (kind, user_id, stage, shard, n)
      select 2, coalesce(old.user_assigned_id, 0), old.stage, old.id % 8, -1 where (1 = 1) and 1 = 1
      on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;
    insert into ticket_counts (kind, user_id, stage, shard, n)
      select 3, old.created_by, old.stage, old.id % 8, -1 where (1 = 1) and old.created_by = old.user_assigned_id
      on conflict (kind, user_id, stage, shard) do update set n = n + excluded.n;
  end`,
  `insert into tickets_fts (rowid, body, attrs) select id, name || ' ' || description, 'i' || tickets.id || ' ' || 'c' || tickets.created_by || ' ' || 'a' || coalesce(tickets.user_assigned_id, 0) || ' ' || 's' || tickets.stage || ' ' || 'x' || tickets.status_id || ' ' || 'p' || tickets.priority_type_id || ' ' || 'j' || tickets.project_id || ' ' || 'r' || tickets.area_id || ' ' || 'k' || tickets.category_id || ' ' || 'd' || tickets.difficulty_id from tickets`,
  `insert or ignore into ticket_words (word)
    select w.value from tickets t, json_each(portal_words(t.name || ' ' || t.description)) w`,
  ...countsBackfill,
];

/**
 * PostgreSQL: the text search functions, the trigger functions and their triggers, as they are
 * created again by migration 0012.
 */
export const postgresDerivations = [
  `create extension if not exists unaccent`,
  `create table if not exists ticket_words (word text collate "C" primary key)`,
  `create or replace function portal_search_text(t text) returns text language sql immutable parallel safe as $$
      select regexp_replace(lower(public.unaccent('public.unaccent', t)), '[^[:alnum:]]+', ' ', 'g')
    $$`,
  `create or replace function portal_ticket_attrs(created_by int, user_assigned_id int, stage text, status_id int, priority_type_id int, project_id int, area_id int, category_id int, difficulty_id int) returns text[] language sql immutable parallel safe as $$
      select array['_c' || created_by, '_a' || coalesce(user_assigned_id, 0), '_s' || stage, '_x' || status_id, '_p' || priority_type_id, '_j' || project_id, '_r' || area_id, '_k' || category_id, '_d' || difficulty_id]
    $$`,
  `create or replace function portal_ticket_search_doc() returns trigger language plpgsql as $$
    declare
      body tsvector;
    begin
      if tg_op = 'INSERT' or old.search_doc is null
         or new.name is distinct from old.name or new.description is distinct from old.description then
        body := to_tsvector('simple', portal_search_text(new.name || ' ' || new.description));
        -- Nearly every word is known: look first, so the insert (and its conflict check) is for new ones only.
        insert into ticket_words (word) select w from unnest(tsvector_to_array(body)) w
          where not exists (select 1 from ticket_words x where x.word = w) on conflict do nothing;
        new.search_doc := body || array_to_tsvector(portal_ticket_attrs(new.created_by, new.user_assigned_id, new.stage, new.status_id, new.priority_type_id, new.project_id, new.area_id, new.category_id, new.difficulty_id));
      else
        -- Only attributes changed: swap their lexemes, the text's stay.
        new.search_doc := ts_delete(old.search_doc, portal_ticket_attrs(old.created_by, old.user_assigned_id, old.stage, old.status_id, old.priority_type_id, old.project_id, old.area_id, old.category_id, old.difficulty_id))
          || array_to_tsvector(portal_ticket_attrs(new.created_by, new.user_assigned_id, new.stage, new.status_id, new.priority_type_id, new.project_id, new.area_id, new.category_id, new.difficulty_id));
      end if;
      return new;
    end $$`,
  `create or replace function portal_status_stage() returns trigger language plpgsql as $$
    begin
      update tickets set stage = new.stage where status_id = new.id;
      return null;
    end $$`,
  `create or replace function portal_ticket_counts() returns trigger language plpgsql as $$
    declare
      kinds smallint[] := '{}';
      users int[] := '{}';
      stages text[] := '{}';
      shards smallint[] := '{}';
      deltas int[] := '{}';
    begin
      if tg_op <> 'INSERT' then
        kinds := kinds || array[0, 1, 2, 3]::smallint[];
        users := users || array[0, old.created_by, coalesce(old.user_assigned_id, 0), old.created_by];
        stages := stages || array[old.stage, old.stage, old.stage, old.stage]::text[];
        shards := shards || array_fill((old.id % 8)::smallint, array[4]);
        deltas := deltas || array[-1, -1, -1, case when old.created_by = old.user_assigned_id then -1 else 0 end];
      end if;
      if tg_op <> 'DELETE' then
        kinds := kinds || array[0, 1, 2, 3]::smallint[];
        users := users || array[0, new.created_by, coalesce(new.user_assigned_id, 0), new.created_by];
        stages := stages || array[new.stage, new.stage, new.stage, new.stage]::text[];
        shards := shards || array_fill((new.id % 8)::smallint, array[4]);
        deltas := deltas || array[1, 1, 1, case when new.created_by = new.user_assigned_id then 1 else 0 end];
      end if;
      -- In key order, so two transactions moving tickets between the same users cannot deadlock.
      insert into ticket_counts as c (kind, user_id, stage, shard, n)
      select x.kind, x.user_id, x.stage, x.shard, sum(x.delta)::int
      from unnest(kinds, users, stages, shards, deltas) as x(kind, user_id, stage, shard, delta)
      group by x.kind, x.user_id, x.stage, x.shard
      having sum(x.delta) <> 0
      order by x.kind, x.user_id, x.stage, x.shard
      on conflict (kind, user_id, stage, shard) do update set n = c.n + excluded.n;
      return null;
    end $$`,
  `create trigger tickets_search_doc before insert or update of name, description, stage, status_id, priority_type_id, project_id, area_id, category_id, difficulty_id, created_by, user_assigned_id
    on tickets for each row execute function portal_ticket_search_doc()`,
  `create trigger tickets_counts after insert or delete or update of stage, created_by, user_assigned_id
    on tickets for each row execute function portal_ticket_counts()`,
  `create trigger ticket_statuses_stage after update of stage on ticket_statuses for each row
    when (old.stage is distinct from new.stage) execute function portal_status_stage()`,
];

/** PostgreSQL: the column, counters, `search_doc` and indexes, then the derivations, the backfill and the text index. */
const postgres = [
  `alter table "tickets" add column "stage" varchar(10) default 'open' not null`,
  `update tickets set stage = (select s.stage from ticket_statuses s where s.id = tickets.status_id)`,
  `create table "ticket_counts" ("kind" smallint not null, "user_id" integer not null, "stage" varchar(10) not null, "shard" smallint not null, "n" integer not null, constraint "ticket_counts_pk" primary key ("kind", "user_id", "stage", "shard"))`,
  `drop index if exists tickets_name_trgm_idx`,
  `drop index if exists tickets_description_trgm_idx`,
  `alter table tickets add column search_doc tsvector`,
  `drop index "tickets_assigned_status_idx"`,
  `create index "tickets_stage_idx" on "tickets" ("stage", "id")`,
  `create index tickets_current_idx on tickets (id) where stage <> 'closed'`,
  ...postgresDerivations,
  `update tickets set search_doc = to_tsvector('simple', portal_search_text(name || ' ' || description)) || array_to_tsvector(portal_ticket_attrs(tickets.created_by, tickets.user_assigned_id, tickets.stage, tickets.status_id, tickets.priority_type_id, tickets.project_id, tickets.area_id, tickets.category_id, tickets.difficulty_id))`,
  `insert into ticket_words (word)
    select distinct w from tickets, unnest(tsvector_to_array(search_doc)) w where left(w, 1) <> '_'
    on conflict do nothing`,
  ...countsBackfill,
  `create index tickets_search_idx on tickets using gin (search_doc)`,
];
