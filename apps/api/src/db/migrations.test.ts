import type { Kysely } from 'kysely';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDatabase, type Dialect } from './database.ts';
import { createPgDatabase, dropDatabase } from '../../test/helper.ts';
import { postgresSchema, sqliteSchema } from '../../test/schema-dump.ts';
import { migrateToLatest } from './migrator.ts';

/**
 * Every migration, run on an empty database, must give the schema recorded in
 * `schema-snapshot.<dialect>.txt`: a migration is history, so editing one that has run
 * (or code it imports) fails here. After adding a migration, write the new snapshot with
 * `UPDATE_SCHEMA_SNAPSHOT=1 npx vitest run apps/api/src/db/migrations.test.ts` and review its diff.
 */

async function migratedSchema(dialect: Dialect): Promise<string> {
  if (dialect === 'sqlite') {
    const database = createDatabase({ sqliteFile: ':memory:' });
    try {
      await migrateToLatest(database);
      return await sqliteSchema(database.db as unknown as Kysely<unknown>);
    } finally {
      await database.destroy();
    }
  }
  const { name, url } = await createPgDatabase('portal_schema');
  try {
    const database = createDatabase({ databaseUrl: url, poolSize: 1 });
    try {
      await migrateToLatest(database);
      return await postgresSchema(database.db as unknown as Kysely<unknown>);
    } finally {
      await database.destroy();
    }
  } finally {
    await dropDatabase(name);
  }
}

describe.each(['sqlite', 'postgres'] as const)('migrations on an empty %s database', (dialect) => {
  it('give the schema of the committed snapshot', async () => {
    const file = new URL(`./schema-snapshot.${dialect}.txt`, import.meta.url);
    const schema = await migratedSchema(dialect);
    if (process.env.UPDATE_SCHEMA_SNAPSHOT === '1') writeFileSync(file, schema);
    expect(schema).toBe(readFileSync(file, 'utf8'));
  });
});
