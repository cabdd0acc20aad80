/**
 * PostgreSQL: how long a bulk load's rebuild of the bitmaps takes (`rebuildTicketAttrBlocks`: the
 * attribute tokens' and the common words', block by block) on a database the bench kept, in a
 * transaction rolled back after, so the database stays as it was.
 *
 *   npm run bench -- --dialect postgres --tickets 1000000 --keep p1m --only 'Tickets Generales page 1$'
 *   npx tsx bench/rebuild-bitmaps.ts --keep p1m
 */
import { sql } from 'kysely';
import { parseArgs } from 'node:util';
import { createDatabase } from '../apps/api/src/db/database.ts';
import { rebuildTicketAttrBlocks } from '../apps/api/src/db/ticket-derivations.ts';

const { values: args } = parseArgs({ options: { keep: { type: 'string' } } });
if (!args.keep) throw new Error('usage: npx tsx bench/rebuild-bitmaps.ts --keep NAME');
const adminUrl = new URL(
  process.env.BENCH_PG_ADMIN_URL ?? process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
);
adminUrl.pathname = `/portal_bench_${args.keep}`;
const database = createDatabase({ databaseUrl: adminUrl.toString(), sqliteFile: undefined });

/** Thrown to roll the rebuild back once timed. */
class RolledBack extends Error {}

try {
  const started = performance.now();
  let tickets = 0;
  let rows = 0;
  await database.db
    .transaction()
    .execute(async (trx) => {
      await rebuildTicketAttrBlocks(trx);
      const count = async (table: string) =>
        Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(trx)).rows[0]!.n);
      [tickets, rows] = [await count('tickets'), await count('ticket_attr_blocks')];
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `rebuild of the bitmaps: ${seconds.toFixed(1)} s for ${tickets.toLocaleString('en')} tickets (${rows.toLocaleString('en')} bitmap rows)`,
  );
} finally {
  await database.destroy();
}
