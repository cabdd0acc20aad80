import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * PostgreSQL: every API process keeps the catalogue lists' answers in memory
 * (modules/catalogs/catalog.service.ts). Migrations 0006 and 0011 already
 * announce writes to roles, grants, users (updates and deletes) and the
 * catalogues tickets name; what a list also shows and nothing announced yet is
 * announced here: groups, as `catalogs`, and new users, as `users`. SQLite is
 * one process: its invalidations stay in-process (db/write-watch.ts).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`
    create trigger groups_invalidate after insert or update or delete on groups
    for each statement execute function portal_invalidate_statement('catalogs')`.execute(db);
  await sql`
    create trigger users_insert_invalidate after insert on users
    for each statement execute function portal_invalidate_statement('users')`.execute(db);
}
