import 'dotenv/config';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { ensurePrivateDir, loadConfig, type Config } from './config.ts';
import { createDatabase, type Database } from './db/database.ts';
import { migrateToLatest } from './db/migrator.ts';
import { seedIfEmpty } from './db/seed.ts';

/**
 * DATA_DIR readable by the portal's user only (0700), and the SQLite file 0600
 * before SQLite opens it: SQLite gives its -wal and -shm files the database
 * file's permissions. Files left more open by an older version are tightened.
 */
export function securePrivateFiles(config: Config): void {
  ensurePrivateDir(config.dataDir);
  if (config.databaseUrl) return;
  const file = config.sqliteFile;
  if (!existsSync(file)) writeFileSync(file, '', { mode: 0o600, flag: 'wx' });
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
}

/** Configuration and a migrated, seeded database, as `npm start` and the CLI need them. */
export async function bootstrap(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ config: Config; database: Database; seeded: boolean }> {
  const config = loadConfig(env);
  securePrivateFiles(config);
  const database = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
  await migrateToLatest(database);
  const seeded =
    (await seedIfEmpty(database, { demo: config.seedDemo, adminPassword: config.adminPassword })) === 'seeded';
  return { config, database, seeded };
}
