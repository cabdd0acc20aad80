import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * PostgreSQL: ticket lists show the names of the catalogues a ticket refers to
 * from memory (modules/tickets/ticket-names.repository.ts). A change to one of
 * those catalogues is announced to every process on `portal_invalidate` as
 * `catalogs`, like the grants of migration 0006 (users' names already are, as
 * `user:<id>`). SQLite is one process: its invalidations stay in-process.
 */
const TABLES = ['priority_types', 'ticket_statuses', 'projects', 'areas', 'categories', 'difficulties'];

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const table of TABLES) {
    await sql`
      create trigger ${sql.raw(`${table}_invalidate`)} after insert or update or delete on ${sql.table(table)}
      for each statement execute function portal_invalidate_statement('catalogs')`.execute(db);
  }
}
