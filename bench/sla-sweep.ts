/**
 * The SLA alert sweep at scale: generates N tickets (bench/generate-tickets.ts) on a fresh demo
 * database, puts every ticket not closed under the Urgente policy with its resolution due date
 * spread one per ticket id over two weeks around now (so about as many tickets cross a threshold
 * in any 30 s as a portal of that size sees), and the states and alerts as a sweep 30 s ago left
 * them. Then times one sweep (the tickets that crossed since: states moved, alerts written and
 * delivered to their people) and one more with nothing left to do, each the median of a few
 * rounds on copies of that state, per dialect. The goal: one sweep ≤ 50 ms at 1,000,000 tickets.
 *
 *   npx tsx bench/sla-sweep.ts [--tickets 1000000] [--dialect sqlite|postgres|both] [--rounds 5]
 *
 * PostgreSQL databases are created on BENCH_PG_ADMIN_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres) and dropped after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createPgDatabase, dropDatabase } from '../apps/api/test/helper.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { createDatabase } from '../apps/api/src/db/database.ts';
import { migrateToLatest } from '../apps/api/src/db/migrator.ts';
import { seedIfEmpty } from '../apps/api/src/db/seed.ts';
import { createServices } from '../apps/api/src/services.ts';
import { generateTickets } from './generate-tickets.ts';

const { values: args } = parseArgs({
  options: {
    tickets: { type: 'string', default: '1000000' },
    dialect: { type: 'string', default: 'both' },
    rounds: { type: 'string', default: '5' },
  },
});
const count = Number(args.tickets);
const rounds = Math.max(1, Number(args.rounds));
const adminUrl =
  process.env.BENCH_PG_ADMIN_URL ?? process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const work = mkdtempSync(path.join(tmpdir(), 'portal-sla-sweep-bench-'));

/**
 * Ticket `id` is due `id % SPREAD - SPREAD / 2` minutes from now: two weeks of minutes, fewer for
 * a small run so that some ticket still crosses each threshold at the moment measured.
 */
const SPREAD = 2 * Math.min(7 * 24 * 60, Math.max(120, Math.floor(count / 4)));
/** The Urgente policy's at-risk margin, in minutes. */
const AT_RISK = 60;

/**
 * The SLA columns of the tickets not closed, as of `now`, with the states and alert levels a
 * sweep at `now - 30 s` left: a ticket due exactly now (or at risk from now) is what this
 * sweep finds.
 */
async function spreadDueDates(database: ReturnType<typeof createDatabase>, now: number): Promise<void> {
  const { db, dialect } = database;
  const policy = await db
    .selectFrom('sla_policies')
    .select('id')
    .where('name', '=', 'Urgente')
    .executeTakeFirstOrThrow();
  const minutes = `((id % ${SPREAD}) - ${SPREAD / 2})`;
  const at = (offset: string) =>
    dialect === 'postgres'
      ? `to_timestamp((${now} + (${offset}) * 60000) / 1000.0)`
      : `strftime('%Y-%m-%dT%H:%M:%fZ', (${now} + (${offset}) * 60000) / 1000.0, 'unixepoch')`;
  await sql
    .raw(
      `update tickets set sla_policy_id = ${policy.id},
         resolution_due_at = ${at(minutes)},
         sla_at_risk_at = ${at(`${minutes} - ${AT_RISK}`)},
         first_response_due_at = ${at(`${minutes} - 210`)},
         sla_state = case when ${minutes} < 0 then 'breached' when ${minutes} < ${AT_RISK} then 'at_risk' else 'ok' end,
         sla_alerted = case when ${minutes} < 0 then 2 when ${minutes} < ${AT_RISK} then 1 else 0 end
       where stage <> 'closed'`,
    )
    .execute(db);
}

async function run(dialect: 'sqlite' | 'postgres'): Promise<void> {
  let dbName: string | undefined;
  let databaseUrl: string | undefined;
  if (dialect === 'postgres') {
    ({ name: dbName, url: databaseUrl } = await createPgDatabase('portal_sla_sweep_bench', adminUrl));
  }
  const dataDir = path.join(work, dialect);
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-0123456789-0123456789-0123456789',
    LOG_LEVEL: 'silent',
    SLA_SWEEP_MS: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const database = createDatabase({ databaseUrl, sqliteFile: config.sqliteFile });
  try {
    await migrateToLatest(database);
    await seedIfEmpty(database, { demo: true, adminPassword: undefined });
    let started = performance.now();
    await generateTickets(database, count, databaseUrl ? undefined : config.sqliteFile);
    console.log(`[${dialect}] generated ${count.toLocaleString('en')} tickets in ${s(started)}`);
    if (dialect === 'postgres') await sql`analyze`.execute(database.db);

    const services = createServices(config, database);
    // As in a serving process: the bus's LISTEN connection up, so the SLA catalogue is kept in memory.
    const quiet = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => quiet };
    await services.notifications.start(quiet as never);
    const timings: { crossing: number[]; idle: number[]; moved: number; scheduled: number; delivered: number } = {
      crossing: [],
      idle: [],
      moved: 0,
      scheduled: 0,
      delivered: 0,
    };
    for (let round = 0; round < rounds; round++) {
      // Each round a fresh moment on a working Wednesday noon in Mexico City (the Urgente policy's
      // calendar is open, so alerts are delivered at once): the state as of 30 s before it, then one sweep.
      const now = Date.parse('2026-11-18T18:00:00.000Z') + round * 60_000;
      started = performance.now();
      await spreadDueDates(database, now);
      await sql`delete from sla_alerts`.execute(database.db);
      // What autovacuum does after such a rewrite on PostgreSQL: without it the sweep's partial
      // indexes still hold the rewritten rows' old entries, and each search steps over them.
      // And what the checkpointer does with the rewrite's dirty pages meanwhile: left in the buffer
      // pool, the sweep's own reads would first have to write them out to make room.
      if (dialect === 'postgres') {
        await sql`vacuum analyze tickets, sla_alerts`.execute(database.db);
        await sql`checkpoint`.execute(database.db);
      }
      if (round === 0) console.log(`[${dialect}] SLA columns spread in ${s(started)}`);
      // No sweep follows a bulk write at once: past the second after a write, caches serve again.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      services.clock.now = () => now;
      started = performance.now();
      const crossing = await services.slaAlerts.runOnce();
      timings.crossing.push(performance.now() - started);
      started = performance.now();
      await services.slaAlerts.runOnce();
      timings.idle.push(performance.now() - started);
      timings.moved = crossing.moved;
      timings.scheduled = crossing.scheduled;
      timings.delivered = crossing.delivered;
    }
    console.log(
      `[${dialect}] one sweep: ${ms(median(timings.crossing))} with ${timings.moved} states moved, ` +
        `${timings.scheduled} alerts written, ${timings.delivered} delivered; ` +
        `${ms(median(timings.idle))} with nothing to do (median of ${rounds})`,
    );
    services.mailer.close();
    await services.notifications.close();
  } finally {
    await database.destroy();
    if (dbName) await dropDatabase(dbName, adminUrl);
  }
}

const s = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

try {
  for (const dialect of args.dialect === 'both'
    ? (['sqlite', 'postgres'] as const)
    : [args.dialect as 'sqlite' | 'postgres']) {
    await run(dialect);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
