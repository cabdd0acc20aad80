import { sql, type Kysely } from 'kysely';

/**
 * Runs a migration's SQL statements in order, each as written. Every migration that holds its
 * SQL as text runs it through here, so this must never change what it does.
 */
export async function runStatements(db: Kysely<unknown>, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
