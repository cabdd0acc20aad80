import 'dotenv/config';
import { loadConfig, type Config } from './config.ts';
import { createDatabase, type Database } from './db/database.ts';
import { migrateToLatest } from './db/migrator.ts';
import { seedIfEmpty } from './db/seed.ts';

/** Configuration and a migrated, seeded database, as `npm start` and the CLI need them. */
export async function bootstrap(): Promise<{ config: Config; database: Database; seeded: boolean }> {
  const config = loadConfig();
  const database = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
  await migrateToLatest(database);
  const seeded =
    (await seedIfEmpty(database, { demo: config.seedDemo, adminPassword: config.adminPassword })) === 'seeded';
  return { config, database, seeded };
}
