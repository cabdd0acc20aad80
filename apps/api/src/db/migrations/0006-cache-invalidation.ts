import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * PostgreSQL: every API process keeps sessions (user rows, revoked tokens) and
 * grants in memory. Triggers on the tables they come from announce each change
 * on the `portal_invalidate` channel; PostgreSQL delivers it, once the writing
 * transaction commits, to every process that LISTENs (notifications.bus.ts).
 * Being triggers, no write path can forget to announce. SQLite is one process:
 * its invalidations stay in-process (db/write-watch.ts).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;

  await sql`
    create or replace function portal_invalidate_user() returns trigger language plpgsql as $$
    begin
      perform pg_notify('portal_invalidate', 'user:' || coalesce(new.id, old.id));
      return null;
    end $$`.execute(db);
  await sql`
    create trigger users_invalidate after update or delete on users
    for each row execute function portal_invalidate_user()`.execute(db);

  await sql`
    create or replace function portal_invalidate_token() returns trigger language plpgsql as $$
    begin
      perform pg_notify('portal_invalidate', 'token:' || new.jti);
      return null;
    end $$`.execute(db);
  // revoked_tokens also holds used notification-stream nonces ('stream:…'): nothing caches those.
  await sql`
    create trigger revoked_tokens_invalidate after insert on revoked_tokens
    for each row when (new.jti not like 'stream:%') execute function portal_invalidate_token()`.execute(db);

  await sql`
    create or replace function portal_invalidate_statement() returns trigger language plpgsql as $$
    begin
      perform pg_notify('portal_invalidate', tg_argv[0]);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger roles_invalidate after insert or update or delete on roles
    for each statement execute function portal_invalidate_statement('roles')`.execute(db);
  for (const table of ['sections', 'routes', 'sections_permission', 'routes_permission']) {
    await sql`
      create trigger ${sql.raw(`${table}_invalidate`)} after insert or update or delete on ${sql.table(table)}
      for each statement execute function portal_invalidate_statement('grants')`.execute(db);
  }
}
