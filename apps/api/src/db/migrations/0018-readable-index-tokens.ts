import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * The text index's attribute tokens become readable words of the field they stand for
 * (`status5`, `assignee0` for none, `stageclosed`, `id1234`; on PostgreSQL the same as
 * lexemes marked `_`: `_status5`) instead of single letters (`x5`, `a0`, `sclosed`, `i1234`).
 * They follow the fields of the contract's TICKET_FIELDS, whose tokens the lists query.
 *
 * PostgreSQL: `portal_ticket_attrs` takes the columns in TICKET_FIELDS' order, the trigger
 * function calls it so, and every `search_doc` swaps its old attribute lexemes for the new
 * ones in one table rewrite (the GIN index is rebuilt with it). SQLite: the FTS5 index is
 * written again from the tickets.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`insert into tickets_fts (tickets_fts) values ('delete-all')`.execute(db);
    await sql`insert into tickets_fts (rowid, body, attrs)
      select id, name || ' ' || description,
        'id' || id || ' ' || 'priority' || priority_type_id || ' ' || 'status' || status_id || ' '
        || 'project' || project_id || ' ' || 'area' || area_id || ' ' || 'category' || category_id || ' '
        || 'difficulty' || difficulty_id || ' ' || 'creator' || created_by || ' '
        || 'assignee' || coalesce(user_assigned_id, 0) || ' ' || 'stage' || stage
      from tickets`.execute(db);
    return;
  }
  await sql`drop function if exists portal_ticket_attrs(int, int, text, int, int, int, int, int, int)`.execute(db);
  await sql`create or replace function portal_ticket_attrs(priority_type_id int, status_id int, project_id int,
      area_id int, category_id int, difficulty_id int, created_by int, user_assigned_id int, stage text)
    returns text[] language sql immutable parallel safe as $$
      select array['_priority' || priority_type_id, '_status' || status_id, '_project' || project_id,
        '_area' || area_id, '_category' || category_id, '_difficulty' || difficulty_id,
        '_creator' || created_by, '_assignee' || coalesce(user_assigned_id, 0), '_stage' || stage]
    $$`.execute(db);
  await sql`create or replace function portal_ticket_search_doc() returns trigger language plpgsql as $$
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
          new.stage));
      else
        -- Only attributes changed: swap their lexemes, the text's stay.
        new.search_doc := ts_delete(old.search_doc, portal_ticket_attrs(old.priority_type_id, old.status_id,
            old.project_id, old.area_id, old.category_id, old.difficulty_id, old.created_by, old.user_assigned_id,
            old.stage))
          || array_to_tsvector(portal_ticket_attrs(new.priority_type_id, new.status_id, new.project_id,
            new.area_id, new.category_id, new.difficulty_id, new.created_by, new.user_assigned_id, new.stage));
      end if;
      return new;
    end $$`.execute(db);
  await sql`alter table tickets alter column search_doc type tsvector using
    ts_delete(search_doc, array['_c' || created_by, '_a' || coalesce(user_assigned_id, 0), '_s' || stage,
      '_x' || status_id, '_p' || priority_type_id, '_j' || project_id, '_r' || area_id, '_k' || category_id,
      '_d' || difficulty_id])
    || array_to_tsvector(portal_ticket_attrs(priority_type_id, status_id, project_id, area_id, category_id,
      difficulty_id, created_by, user_assigned_id, stage))`.execute(db);
  // A column rewritten to its type again loses its statistics: the planner needs the lexemes' frequencies back.
  await sql`analyze tickets`.execute(db);
}
