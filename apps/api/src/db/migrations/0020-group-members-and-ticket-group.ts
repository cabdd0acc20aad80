import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * Groups become teams:
 *
 * - `group_members`: a group's members (users), each `member` or `lead`; a user may belong to
 *   several groups. Removing a group or a user removes their memberships.
 * - `tickets.group_id` (nullable): the group a ticket belongs to, a filterable, sortable and
 *   exported field of the contract's TICKET_FIELDS with its text-index token `group<id>`
 *   (`group0` for none). `group_sort` (the group, 0 for none) is what a list sorted by group
 *   orders by, with its `(group_sort, id)` index: a nullable column would sort its nulls
 *   differently per dialect and break the export's keyset.
 * - The text index gains the token: on PostgreSQL `portal_ticket_attrs` takes `group_id` (in
 *   TICKET_FIELDS' order), the trigger also fires on it, and every `search_doc` gains
 *   `_group0` in the same table rewrite that adds the columns; on SQLite a change of
 *   `group_id` queues the ticket for the index, and the index is written again.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await runStatements(db, dialect === 'postgres' ? postgres : sqlite);
}

const sqlite = [
  `create table group_members (
    group_id integer not null references groups (id) on delete cascade,
    user_id integer not null references users (id) on delete cascade,
    role varchar(10) not null default 'member' check (role in ('member', 'lead')),
    created_at text not null,
    primary key (group_id, user_id)
  )`,
  `create index group_members_user_idx on group_members (user_id, group_id)`,
  `alter table tickets add column group_id integer references groups (id)`,
  `alter table tickets add column group_sort integer generated always as (coalesce(group_id, 0)) virtual`,
  `create index tickets_group_sort_idx on tickets (group_sort, id)`,
  `create trigger tickets_group_index after update of group_id on tickets begin
    insert or ignore into tickets_fts_pending (id) values (new.id);
  end`,
  `insert into tickets_fts (tickets_fts) values ('delete-all')`,
  `insert into tickets_fts (rowid, body, attrs)
    select id, name || ' ' || description,
      'id' || id || ' ' || 'priority' || priority_type_id || ' ' || 'status' || status_id || ' '
      || 'project' || project_id || ' ' || 'area' || area_id || ' ' || 'category' || category_id || ' '
      || 'difficulty' || difficulty_id || ' ' || 'creator' || created_by || ' '
      || 'assignee' || coalesce(user_assigned_id, 0) || ' ' || 'group' || coalesce(group_id, 0) || ' '
      || 'stage' || stage
    from tickets`,
];

const postgres = [
  `create table group_members (
    group_id integer not null references groups (id) on delete cascade,
    user_id integer not null references users (id) on delete cascade,
    role varchar(10) not null default 'member' check (role in ('member', 'lead')),
    created_at timestamptz not null,
    primary key (group_id, user_id)
  )`,
  `create index group_members_user_idx on group_members (user_id, group_id)`,
  `create or replace function portal_ticket_attrs(priority_type_id int, status_id int, project_id int,
      area_id int, category_id int, difficulty_id int, created_by int, user_assigned_id int, group_id int, stage text)
    returns text[] language sql immutable parallel safe as $$
      select array['_priority' || priority_type_id, '_status' || status_id, '_project' || project_id,
        '_area' || area_id, '_category' || category_id, '_difficulty' || difficulty_id,
        '_creator' || created_by, '_assignee' || coalesce(user_assigned_id, 0), '_group' || coalesce(group_id, 0),
        '_stage' || stage]
    $$`,
  // One rewrite of the table: the new columns and every search_doc's `_group0` (no ticket has a group yet).
  `alter table tickets
    add column group_id integer references groups (id),
    add column group_sort integer generated always as (coalesce(group_id, 0)) stored,
    alter column search_doc type tsvector using search_doc || array_to_tsvector(array['_group0'])`,
  `create index tickets_group_sort_idx on tickets (group_sort, id)`,
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
        new.search_doc := body || array_to_tsvector(portal_ticket_attrs(new.priority_type_id, new.status_id,
          new.project_id, new.area_id, new.category_id, new.difficulty_id, new.created_by, new.user_assigned_id,
          new.group_id, new.stage));
      else
        -- Only attributes changed: swap their lexemes, the text's stay.
        new.search_doc := ts_delete(old.search_doc, portal_ticket_attrs(old.priority_type_id, old.status_id,
            old.project_id, old.area_id, old.category_id, old.difficulty_id, old.created_by, old.user_assigned_id,
            old.group_id, old.stage))
          || array_to_tsvector(portal_ticket_attrs(new.priority_type_id, new.status_id, new.project_id,
            new.area_id, new.category_id, new.difficulty_id, new.created_by, new.user_assigned_id, new.group_id,
            new.stage));
      end if;
      return new;
    end $$`,
  `drop function portal_ticket_attrs(int, int, int, int, int, int, int, int, text)`,
  `drop trigger tickets_search_doc on tickets`,
  `create trigger tickets_search_doc before insert or update of name, description, stage, status_id,
    priority_type_id, project_id, area_id, category_id, difficulty_id, created_by, user_assigned_id, group_id
    on tickets for each row execute function portal_ticket_search_doc()`,
  // A column rewritten to its type again loses its statistics: the planner needs the lexemes' frequencies back.
  `analyze tickets`,
];
