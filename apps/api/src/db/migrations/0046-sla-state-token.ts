import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * The SLA state gets its token in the text index's attributes, like every other filterable
 * value: `sla<state>` without the underscore (`slaok`, `slaatrisk`, `slabreached`, `slamet`,
 * `slanone`), since the index splits words at one. A list that asks for an SLA state with other
 * attributes is then one query of the index, and on PostgreSQL its total is counted from the
 * attribute bitmaps, instead of testing each row the other attributes match.
 *
 * PostgreSQL: `portal_ticket_attrs` takes `sla_state` last (TICKET_FIELDS' order), the trigger
 * function calls it so and also fires on the column, every `search_doc` gains its `_sla` lexeme
 * in one table rewrite (the GIN index is rebuilt with it), the attribute bitmaps gain the new
 * tokens' rows, and the statement trigger that keeps them also follows a change of the state.
 * SQLite: a change of the state queues the ticket for the index, and the index is written again.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await runStatements(db, dialect === 'postgres' ? postgres : sqlite);
}

const sqlite = [
  `create trigger tickets_sla_index after update of sla_state on tickets
    when old.sla_state is not new.sla_state begin
    insert or ignore into tickets_fts_pending (id) values (new.id);
  end`,
  `insert into tickets_fts (tickets_fts) values ('delete-all')`,
  `insert into tickets_fts (rowid, body, attrs)
    select id, name || ' ' || description,
      'id' || id || ' ' || 'priority' || priority_type_id || ' ' || 'status' || status_id || ' '
      || 'project' || project_id || ' ' || 'area' || area_id || ' ' || 'category' || category_id || ' '
      || 'difficulty' || difficulty_id || ' ' || 'creator' || created_by || ' '
      || 'assignee' || coalesce(user_assigned_id, 0) || ' ' || 'group' || coalesce(group_id, 0) || ' '
      || 'stage' || stage || ' ' || 'sla' || replace(sla_state, '_', '')
    from tickets`,
];

/** The columns of `portal_ticket_attrs`, in its arguments' order. */
const ATTRIBUTES = [
  'priority_type_id',
  'status_id',
  'project_id',
  'area_id',
  'category_id',
  'difficulty_id',
  'created_by',
  'user_assigned_id',
  'group_id',
  'stage',
  'sla_state',
];

const attrsOf = (row: string) => `portal_ticket_attrs(${ATTRIBUTES.map((c) => `${row}.${c}`).join(', ')})`;

const postgres = [
  `create function portal_ticket_attrs(priority_type_id int, status_id int, project_id int,
      area_id int, category_id int, difficulty_id int, created_by int, user_assigned_id int, group_id int, stage text,
      sla_state text)
    returns text[] language sql immutable parallel safe as $$
      select array['_priority' || priority_type_id, '_status' || status_id, '_project' || project_id,
        '_area' || area_id, '_category' || category_id, '_difficulty' || difficulty_id,
        '_creator' || created_by, '_assignee' || coalesce(user_assigned_id, 0), '_group' || coalesce(group_id, 0),
        '_stage' || stage, '_sla' || replace(sla_state, '_', '')]
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
        new.search_doc := body || array_to_tsvector(${attrsOf('new')});
      else
        -- Only attributes changed: swap their lexemes, the text's stay.
        new.search_doc := ts_delete(old.search_doc, ${attrsOf('old')})
          || array_to_tsvector(${attrsOf('new')});
      end if;
      return new;
    end $$`,
  `drop function portal_ticket_attrs(int, int, int, int, int, int, int, int, int, text)`,
  `drop trigger tickets_search_doc on tickets`,
  `create trigger tickets_search_doc before insert or update of name, description, ${ATTRIBUTES.join(', ')}
    on tickets for each row execute function portal_ticket_search_doc()`,
  // One rewrite of the table: every search_doc gains its state's lexeme.
  `alter table tickets alter column search_doc type tsvector
    using search_doc || array_to_tsvector(array['_sla' || replace(sla_state, '_', '')])`,
  // The new tokens' bitmaps (ticket id is bit (id >> 3) & 1023 of block id >> 13, shard id & 7),
  // of the tickets whose text index is written, as the statement trigger flips them.
  `insert into ticket_attr_blocks (token, block, shard, bits)
    select '_sla' || replace(sla_state, '_', ''), id >> 13, id & 7, bit_or(B'1'::bit(1024) >> ((id >> 3) & 1023))
    from tickets where search_doc is not null
    group by 1, 2, 3`,
  `create or replace function portal_ticket_attr_blocks() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform portal_ticket_attr_flip(array_agg(n.id), array_agg(u.lexeme))
          from new_rows n, unnest(n.search_doc) u where left(u.lexeme, 1) = '_';
      elsif tg_op = 'DELETE' then
        perform portal_ticket_attr_flip(array_agg(o.id), array_agg(u.lexeme))
          from old_rows o, unnest(o.search_doc) u where left(u.lexeme, 1) = '_';
      else
        -- A row whose text index was filled or emptied gains or loses every attribute lexeme.
        perform portal_ticket_attr_flip(array_agg(f.id), array_agg(f.token)) from (
          with changed as materialized (
            select n.id, o.search_doc as before, n.search_doc as after
            from old_rows o join new_rows n on n.id = o.id
            where ${ATTRIBUTES.map((c) => `o.${c} is distinct from n.${c}`).join(' or ')}
              or (o.search_doc is null) <> (n.search_doc is null))
          (select id, u.lexeme from changed, unnest(after) u where left(u.lexeme, 1) = '_'
           except select id, u.lexeme from changed, unnest(before) u where left(u.lexeme, 1) = '_')
          union all
          (select id, u.lexeme from changed, unnest(before) u where left(u.lexeme, 1) = '_'
           except select id, u.lexeme from changed, unnest(after) u where left(u.lexeme, 1) = '_')
        ) f(id, token);
      end if;
      return null;
    end $$`,
  // A column rewritten to its type again loses its statistics: the planner needs the lexemes' frequencies back.
  `analyze tickets`,
];
