import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * SQLite: the text index keeps every word's first one, two and three characters as terms of
 * their own (FTS5 prefix indexes). A searched word that starts more indexed words than a
 * search lists (a digit typed, `14` of thousands of folios) is read as a prefix, and FTS5 read
 * a prefix by merging the postings of every word it starts before the first match: in
 * proportion to the table. A prefix of up to three characters now has postings of its own,
 * read like a word's, as far as the page needs.
 *
 * The index is created again and filled from the tickets (the tickets still queued for it stay
 * queued: its writer puts them in as it puts any queued ticket).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  await runStatements(db, [
    'drop table tickets_fts',
    `create virtual table tickets_fts using fts5(
      body, attrs, content = '', contentless_delete = 1, detail = column,
      tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3')`,
    `insert into tickets_fts (rowid, body, attrs)
      select id, name || ' ' || description,
        'id' || id || ' ' || 'priority' || priority_type_id || ' ' || 'status' || status_id || ' '
        || 'project' || project_id || ' ' || 'area' || area_id || ' ' || 'category' || category_id || ' '
        || 'difficulty' || difficulty_id || ' ' || 'creator' || created_by || ' '
        || 'assignee' || coalesce(user_assigned_id, 0) || ' ' || 'group' || coalesce(group_id, 0) || ' '
        || 'stage' || stage || ' ' || 'sla' || replace(sla_state, '_', '')
      from tickets where id not in (select id from tickets_fts_pending)`,
  ]);
}
