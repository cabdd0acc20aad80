import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * The index of a status's recently changed tickets (a Kanban column of a closed status reads
 * the tickets changed in its last days through `(status_id, updated_at)`) also holds the
 * columns such a column is most often narrowed by: the creator and the assignee ('Mis
 * tickets', and every board of a user who sees only their own) and the priority. Its count
 * and its page then read the index alone, where they read each ticket's row of the window
 * to test those columns (one row lookup per ticket changed in the window, whatever few
 * match). PostgreSQL holds them as included columns, SQLite as the key's last columns.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await runStatements(db, [
    'drop index tickets_status_updated_idx',
    dialect === 'postgres'
      ? 'create index tickets_status_updated_idx on tickets (status_id, updated_at, id) include (created_by, user_assigned_id, priority_type_id)'
      : 'create index tickets_status_updated_idx on tickets (status_id, updated_at, id, created_by, user_assigned_id, priority_type_id)',
  ]);
}
