import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, isoOfTimestamp, type Database } from './database.ts';

describe('SQLite queries and the event loop', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.destroy();
  });

  // A query that holds the (synchronous) SQLite connection for several ms.
  const slowQuery = (db: Database['db']) =>
    sql<{ n: number }>`with recursive c(x) as (select 1 union all select x + 1 from c where x < 200000)
      select count(*) as n from c`.execute(db);

  it('gives other work a turn between slow queries that arrive together', async () => {
    database = createDatabase({ sqliteFile: ':memory:' });
    const { db } = database;
    await slowQuery(db); // warm-up (prepare)

    const order: string[] = [];
    const marker = new Promise<void>((resolve) =>
      setImmediate(() => {
        order.push('other work');
        resolve();
      }),
    );
    const queries = Array.from({ length: 5 }, (_, i) =>
      slowQuery(db).then((r) => {
        expect(Number(r.rows[0]!.n)).toBe(200000);
        order.push(`query ${i}`);
      }),
    );
    await Promise.all([marker, ...queries]);

    // Without turns all five would finish before the event loop ran anything else.
    expect(order.indexOf('other work')).toBeLessThanOrEqual(2);
    expect(order.filter((o) => o.startsWith('query'))).toHaveLength(5);
  });

  it('keeps a transaction on its connection without interleaving other queries', async () => {
    database = createDatabase({ sqliteFile: ':memory:' });
    const { db } = database;
    await sql`create table t (n integer)`.execute(db);
    const transaction = db.transaction().execute(async (trx) => {
      await sql`insert into t (n) values (1)`.execute(trx);
      await slowQuery(trx);
      await sql`insert into t (n) values (2)`.execute(trx);
    });
    const outside = slowQuery(db).then(() => sql<{ n: number }>`select count(*) as n from t`.execute(db));
    await transaction;
    expect(Number((await outside).rows[0]!.n)).toBe(2);
  });
});

describe('PostgreSQL connections', () => {
  it('plan without JIT compilation or parallel workers, on every connection of the pool', async () => {
    const database = createDatabase({
      databaseUrl: process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      poolSize: 3,
    });
    try {
      const settings = await Promise.all(
        Array.from({ length: 3 }, () =>
          database.db.connection().execute(async (c) => {
            const jit = await sql<{ jit: string }>`show jit`.execute(c);
            const workers = await sql<{
              max_parallel_workers_per_gather: string;
            }>`show max_parallel_workers_per_gather`.execute(c);
            return [jit.rows[0]!.jit, workers.rows[0]!.max_parallel_workers_per_gather];
          }),
        ),
      );
      expect(settings).toEqual([
        ['off', '0'],
        ['off', '0'],
        ['off', '0'],
      ]);
    } finally {
      await database.destroy();
    }
  });
});

describe('timestamps read from PostgreSQL', () => {
  it('are the ISO text Date writes, whatever the fraction', () => {
    for (const text of [
      '2026-12-06 02:58:11+00',
      '2026-12-06 02:58:11.1+00',
      '2026-12-06 02:58:11.12+00',
      '2026-12-06 02:58:11.123+00',
      '2026-12-06 02:58:11.123999+00',
      '1999-01-31 23:59:59.000001+00',
      '2026-12-06 03:58:11.5+01',
      '2026-12-05 21:28:11.25-05:30',
    ]) {
      expect(isoOfTimestamp(text), text).toBe(new Date(text).toISOString());
    }
  });

  it('read the same instant in a UTC session and in another time zone', async () => {
    const database = createDatabase({
      databaseUrl: process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      poolSize: 1,
    });
    try {
      const instant = '2026-03-07T08:09:10.123Z';
      const read = (zone: string) =>
        database.db.connection().execute(async (c) => {
          await sql`select set_config('TimeZone', ${zone}, false)`.execute(c);
          const { rows } = await sql<{ at: string }>`select ${instant}::timestamptz as at`.execute(c);
          return rows[0]!.at;
        });
      expect(await read('UTC')).toBe(instant);
      expect(await read('America/Mexico_City')).toBe(instant);
    } finally {
      await database.destroy();
    }
  });
});
