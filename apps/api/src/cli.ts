import 'dotenv/config';
import { loadConfig } from './config.ts';
import { createDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrator.ts';
import { seedIfEmpty } from './db/seed.ts';

const command = process.argv[2];
const config = loadConfig();
const database = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
try {
  if (command === 'migrate') {
    const applied = await migrateToLatest(database);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  } else if (command === 'seed') {
    await migrateToLatest(database);
    const result = await seedIfEmpty(database, { demo: config.seedDemo, adminPassword: config.adminPassword });
    console.log(result === 'seeded' ? 'Seeded the database.' : 'Database already has users; nothing seeded.');
  } else {
    console.error('usage: cli.ts migrate|seed');
    process.exitCode = 2;
  }
} finally {
  await database.destroy();
}
