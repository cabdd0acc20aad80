import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * PostgreSQL: the text index takes a written ticket's lexemes into its trees at once instead of
 * GIN's pending list (`fastupdate`, on by default). Every search scans that list whole, unsorted,
 * up to `gin_pending_list_limit` (4 MB, some 7,000 tickets written since it was last merged): at
 * a million tickets it made a search of a few thousand matches cost about a quarter more
 * (ARCHITECTURE.md, "Tickets at scale"). What is pending now is merged here. Nothing changes on
 * SQLite.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`alter index tickets_search_idx set (fastupdate = off)`.execute(db);
  await sql`select gin_clean_pending_list('tickets_search_idx'::regclass)`.execute(db);
}
