import 'dotenv/config';
import { backup, restore } from './backup.ts';
import { loadConfig } from './config.ts';
import { createDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrator.ts';
import { seedIfEmpty } from './db/seed.ts';
import { importTicketsFile } from './modules/ticket-import/ticket-import-file.ts';

const [command, file, ...flags] = process.argv.slice(2);
const config = loadConfig();
if (command === 'backup' || command === 'restore') {
  if (!file) {
    console.error(`usage: npm run db:${command} -- FILE${command === 'restore' ? ' [--force]' : ''}`);
    process.exit(2);
  }
  try {
    const manifest =
      command === 'backup'
        ? await backup(config, file)
        : await restore(config, file, { force: flags.includes('--force') });
    console.log(
      `${command === 'backup' ? 'Backed up' : 'Restored'} the ${manifest.dialect} database and uploads: ${file}`,
    );
    process.exit(0);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
const database = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
try {
  if (command === 'migrate') {
    const applied = await migrateToLatest(database);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  } else if (command === 'import') {
    if (!file) {
      console.error('usage: npm run tickets:import -- FILE.csv');
      process.exitCode = 2;
    } else {
      await migrateToLatest(database);
      const isImported = await importTicketsFile(database, config.databaseUrl ? undefined : config.sqliteFile, file);
      if (!isImported) process.exitCode = 1;
    }
  } else if (command === 'seed') {
    await migrateToLatest(database);
    const result = await seedIfEmpty(database, { demo: config.seedDemo, adminPassword: config.adminPassword });
    console.log(result === 'seeded' ? 'Seeded the database.' : 'Database already has users; nothing seeded.');
  } else {
    console.error('usage: cli.ts migrate|seed|import FILE.csv|backup FILE|restore FILE [--force]');
    process.exitCode = 2;
  }
} finally {
  await database.destroy();
}
