import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Database, Dialect } from './database.ts';
import * as initial from './migrations/0001-initial.ts';
import * as ticketListIndexes from './migrations/0002-ticket-list-indexes.ts';
import * as notificationActor from './migrations/0009-notification-actor.ts';

type DialectMigration = { up: (db: Parameters<Migration['up']>[0], dialect: Dialect) => Promise<void> };

/** Ordered by name; add new files here. Migrations are imported, not read from disk, so the bundle carries them. */
const migrations: Record<string, DialectMigration> = {
  '0001-initial': initial,
  '0002-ticket-list-indexes': ticketListIndexes,
  '0009-notification-actor': notificationActor,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(migrations).map(([name, m]) => [name, { up: (db) => m.up(db, this.dialect) }]),
    );
  }
}

export async function migrateToLatest(database: Database): Promise<string[]> {
  const migrator = new Migrator({ db: database.db, provider: new StaticProvider(database.dialect) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
