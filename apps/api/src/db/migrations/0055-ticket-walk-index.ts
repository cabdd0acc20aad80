import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * PostgreSQL: an index of the ticket ids that also holds the columns a list counted from the
 * counters is narrowed by (status, stage, creator, assignee). Such a list sorted by id walks
 * the newest tickets and keeps those of its status or its user: through this index the walk
 * reads a few index pages instead of the heap page of every ticket it passes over (a ticket's
 * row, with its text and search document, fills a good part of a page). SQLite reads its lists
 * another way (its text index and the sort columns' indexes) and gets nothing.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await runStatements(db, [
    'create index tickets_walk_idx on tickets (id) include (status_id, stage, created_by, user_assigned_id)',
  ]);
}
