import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.ts';

/** A table's triggers, by name. */
export interface TableTriggers {
  table: string;
  names: readonly string[];
}

/**
 * Runs `fn` with the given triggers off (a bulk load, a rebuild), then puts them back as they
 * were. PostgreSQL disables them. SQLite cannot disable a trigger: it drops them and creates
 * them again from the text SQLite itself kept of them (`sqlite_master`), so no copy of a
 * trigger exists outside the migration that created it; they are created again in the order
 * they had (SQLite fires the most recently created first). Triggers already off (or absent) are
 * left so: calls nest.
 */
export async function withTriggersOff<T>(
  db: Kysely<T>,
  dialect: Dialect,
  triggers: readonly TableTriggers[],
  fn: () => Promise<void>,
): Promise<void> {
  if (dialect === 'postgres') {
    const off: { table: string; name: string }[] = [];
    for (const { table, names } of triggers) {
      const { rows } = await sql<{ name: string }>`select t.tgname as name from pg_trigger t
        where t.tgrelid = ${table}::regclass and t.tgname = any(${names as string[]}) and t.tgenabled <> 'D'`.execute(
        db,
      );
      for (const { name } of rows) {
        await sql`alter table ${sql.table(table)} disable trigger ${sql.id(name)}`.execute(db);
        off.push({ table, name });
      }
    }
    try {
      await fn();
    } finally {
      for (const { table, name } of off) {
        await sql`alter table ${sql.table(table)} enable trigger ${sql.id(name)}`.execute(db);
      }
    }
    return;
  }
  const names = triggers.flatMap((t) => t.names);
  const { rows: saved } = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
    where type = 'trigger' and name in (${sql.join(names)}) order by rowid`.execute(db);
  for (const { name } of saved) await sql`drop trigger ${sql.id(name)}`.execute(db);
  try {
    await fn();
  } finally {
    for (const trigger of saved) await sql.raw(trigger.sql).execute(db);
  }
}
