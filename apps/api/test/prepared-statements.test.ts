import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db/database.ts';
import { executePrepared } from '../src/db/prepared.ts';
import { createPgDatabase, dropDatabase } from './helper.ts';

describe('statements run prepared on postgres', () => {
  let database: Database;
  let dbName: string;

  beforeAll(async () => {
    const created = await createPgDatabase('portal_prepared');
    dbName = created.name;
    // One connection: every statement below meets the ones prepared before it.
    database = createDatabase({ databaseUrl: created.url, poolSize: 1 });
    await sql`create table parcels (id int primary key, label text not null)`.execute(database.db);
    await sql`insert into parcels values (1, 'uno'), (2, 'dos')`.execute(database.db);
  });
  afterAll(async () => {
    await database.destroy();
    await dropDatabase(dbName);
  });

  const byId = (id: number) =>
    database.db
      .selectFrom('parcels' as never)
      .selectAll()
      .where('id' as never, '=', id as never);
  const preparedHere = async () =>
    (await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(database.db)).rows[0]!.n;

  it('parses a statement once per connection and answers each run with its own values', async () => {
    expect(await preparedHere()).toBe(0);
    const first = await executePrepared(database.db, byId(1));
    const second = await executePrepared(database.db, byId(2));
    expect(first.rows).toEqual([{ id: 1, label: 'uno' }]);
    expect(second.rows).toEqual([{ id: 2, label: 'dos' }]);
    expect(await preparedHere()).toBe(1);
    // Inside a transaction, on the same connection, the same statement is reused.
    const inside = await database.db.transaction().execute((trx) => executePrepared(trx, byId(1)));
    expect(inside.rows).toEqual([{ id: 1, label: 'uno' }]);
    expect(await preparedHere()).toBe(1);
  });

  it('after a migration changes the columns it answers, prepares it again: at once outside a transaction', async () => {
    await executePrepared(database.db, byId(1));
    await sql`alter table parcels add column weight int`.execute(database.db);
    const alone = await executePrepared(database.db, byId(1));
    expect(alone.rows).toEqual([{ id: 1, label: 'uno', weight: null }]);
    expect(await preparedHere()).toBe(2);

    // Inside a transaction the run fails (it aborted the transaction); the next one prepares it again.
    await sql`alter table parcels drop column weight`.execute(database.db);
    await expect(database.db.transaction().execute((trx) => executePrepared(trx, byId(2)))).rejects.toMatchObject({
      code: '0A000',
    });
    const inside = await database.db.transaction().execute((trx) => executePrepared(trx, byId(2)));
    expect(inside.rows).toEqual([{ id: 2, label: 'dos' }]);
  });
});
