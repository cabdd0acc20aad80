/**
 * The SLA alert sweep at scale: generates N tickets (bench/generate-tickets.ts) on a fresh demo
 * database, puts every ticket not closed under the Urgente policy with its resolution due date
 * one per minute over two weeks around now (so about as many tickets cross a threshold in any
 * 30 s as a portal of that size sees), and the states and alerts as a sweep 30 s ago left them.
 * Then times one sweep (the tickets that crossed since: states moved, alerts written and
 * delivered to their people) and one more with nothing left to do, each the median of a few
 * rounds, per dialect and per spread of the due dates:
 *
 * - `scattered`, the worst case: ticket `id` is due `id % SPREAD` minutes from the spread's
 *   start, so the tickets that cross together are ids SPREAD apart, each on a heap page and
 *   index leaf pages of its own;
 * - `neighbours`, what a portal sees: a ticket is due its creation plus its priority's target,
 *   so the tickets that cross together were created together: the due date grows with the id in
 *   each of four streams (priorities whose targets differ), and the tickets crossing at one
 *   moment are a few runs of neighbouring ids, sharing heap and index pages.
 *
 * Both cross the same number of tickets per minute. Each round is one minute after the one
 * before, on the state the sweep before it left, which is the state as of 30 s before it: the
 * due dates are spread once per row. On PostgreSQL each round starts after a vacuum and a
 * checkpoint (what autovacuum and the checkpointer do between sweeps; right after a checkpoint
 * each page's first write is a full-page image: the costly case), and the WAL the crossing
 * sweep made the server write is printed beside its time: how much of a round is the rows it
 * rewrites, every index entry and page image with them. Each row also gives a bare Fastify
 * route's latency, measured before its rounds, and the sweep as a multiple of it. The goal:
 * one sweep ≤ 50 ms at 1,000,000 tickets.
 *
 *   npx tsx bench/sla-sweep.ts [--tickets 1000000] [--dialect sqlite|postgres|both]
 *     [--spread scattered|neighbours|both] [--rounds 5] [--keep]
 *
 * `--keep` leaves the PostgreSQL database in place after the last spread (its URL printed),
 * to read a sweep's statements with `explain analyze` on the data as the rounds left it.
 * The machine's load average is printed with each row: the figures are only comparable at a
 * similar load. PostgreSQL databases are created on BENCH_PG_ADMIN_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres) and dropped after.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
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
    spread: { type: 'string', default: 'both' },
    rounds: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
  },
});
type Spread = 'scattered' | 'neighbours';
const spreads: Spread[] = args.spread === 'both' ? ['scattered', 'neighbours'] : [args.spread as Spread];
const count = Number(args.tickets);
const rounds = Math.max(1, Number(args.rounds));
const adminUrl =
  process.env.BENCH_PG_ADMIN_URL ?? process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const work = mkdtempSync(path.join(tmpdir(), 'portal-sla-sweep-bench-'));

/**
 * The spread's length in minutes: two weeks, fewer for a small run so that some ticket still
 * crosses each threshold at every moment measured.
 */
const SPREAD = 2 * Math.min(7 * 24 * 60, Math.max(120, Math.floor(count / 4)));
/** The Urgente policy's at-risk margin, in minutes. */
const AT_RISK = 60;
/** `neighbours`: the streams of tickets created together, and how far apart their targets lie. */
const STREAMS = 4;
const STREAM_GAP = SPREAD / 16;
/** The moment of the first round: a working Wednesday noon in Mexico City (the Urgente policy's calendar is open). */
const START = Date.parse('2026-11-18T18:00:00.000Z');

/**
 * The SLA columns of the tickets not closed, each due a whole number of minutes from START,
 * with the states and alert levels a sweep at `START - 30 s` left: a ticket due exactly at a
 * round's moment (or at risk from it) is what that round finds.
 *
 * - `scattered`: ticket `id` is due `id % SPREAD - SPREAD / 2` minutes from START;
 * - `neighbours`: the n-th ticket not closed (by id, from 0) is due `n * SPREAD / total - SPREAD / 2`
 *   minutes from START, less its stream's target difference (`n % STREAMS` gaps).
 */
async function spreadDueDates(database: ReturnType<typeof createDatabase>, spread: Spread): Promise<void> {
  const { db, dialect } = database;
  const policy = await db
    .selectFrom('sla_policies')
    .select('id')
    .where('name', '=', 'Urgente')
    .executeTakeFirstOrThrow();
  const minutes =
    spread === 'scattered'
      ? `((tickets.id % ${SPREAD}) - ${SPREAD / 2})`
      : `((r.n * ${SPREAD}) / r.total - ${SPREAD / 2} - (r.n % ${STREAMS}) * ${STREAM_GAP})`;
  const ranks =
    spread === 'scattered'
      ? `where stage <> 'closed'`
      : `from (select id, row_number() over (order by id) - 1 as n, count(*) over () as total
           from tickets where stage <> 'closed') r
         where r.id = tickets.id`;
  const at = (offset: string) =>
    dialect === 'postgres'
      ? `to_timestamp((${START} + (${offset}) * 60000) / 1000.0)`
      : `strftime('%Y-%m-%dT%H:%M:%fZ', (${START} + (${offset}) * 60000) / 1000.0, 'unixepoch')`;
  await sql
    .raw(
      `update tickets set sla_policy_id = ${policy.id},
         resolution_due_at = ${at(minutes)},
         sla_at_risk_at = ${at(`${minutes} - ${AT_RISK}`)},
         first_response_due_at = ${at(`${minutes} - 210`)},
         sla_state = case when ${minutes} < 0 then 'breached' when ${minutes} < ${AT_RISK} then 'at_risk' else 'ok' end,
         sla_alerted = case when ${minutes} < 0 then 2 when ${minutes} < ${AT_RISK} then 1 else 0 end
       ${ranks}`,
    )
    .execute(db);
  await sql`delete from sla_alerts`.execute(db);
}

/**
 * What the spread and the sweeps rewrite on PostgreSQL, vacuumed as autovacuum would: the tickets,
 * their SLA copy, the alerts, and the SLA figures, whose few hundred rows each crossing moves.
 */
const SWEPT_TABLES = 'tickets, ticket_sla_watch, sla_alerts, ticket_report_sla_now, ticket_report_sla_daily';

interface Row {
  /** The bare Fastify route's median latency one request at a time, measured before the rounds. */
  bare: number;
  first: number;
  crossing: number[];
  idle: number[];
  moved: number[];
  scheduled: number[];
  delivered: number[];
  /** PostgreSQL: the WAL the crossing sweep wrote, in bytes (the whole server's: read on a quiet one). */
  wal: number[];
  load: string;
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
    for (const spread of spreads) {
      started = performance.now();
      await spreadDueDates(database, spread);
      // What autovacuum does after such a rewrite on PostgreSQL: without it the sweep's partial
      // indexes still hold the rewritten rows' old entries, and each search steps over them; and
      // each SLA figure's row, rewritten once per ticket the spread moved, has its key's index
      // entries for every old version, which each upsert of the row walks.
      if (dialect === 'postgres') await sql`vacuum analyze ${sql.raw(SWEPT_TABLES)}`.execute(database.db);
      console.log(`[${dialect}] ${spread}: SLA columns spread in ${s(started)}`);
      const row: Row = {
        bare: await bareLatency(),
        first: 0,
        crossing: [],
        idle: [],
        moved: [],
        scheduled: [],
        delivered: [],
        wal: [],
        load: load(),
      };
      // Round 0 is a serving process's first sweep (connections opened, the server's plans and
      // trigger functions not cached yet in them): printed on its own, out of the median.
      for (let round = 0; round <= rounds; round++) {
        // Round r sweeps at START + r minutes: the previous round left the state as of 30 s before.
        const now = START + round * 60_000;
        // And what the checkpointer does with the dirty pages meanwhile: left in the buffer pool,
        // the sweep's own reads would first have to write them out to make room.
        if (dialect === 'postgres') {
          await sql`vacuum ${sql.raw(SWEPT_TABLES)}`.execute(database.db);
          await sql`checkpoint`.execute(database.db);
        }
        // No sweep follows a bulk write at once: past the second after a write, caches serve again.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        services.clock.now = () => now;
        const walFrom = dialect === 'postgres' ? await walPosition(database) : '';
        started = performance.now();
        const crossing = await services.slaAlerts.runOnce();
        if (round === 0) {
          row.first = performance.now() - started;
          continue;
        }
        row.crossing.push(performance.now() - started);
        if (dialect === 'postgres') row.wal.push(await walSince(database, walFrom));
        started = performance.now();
        await services.slaAlerts.runOnce();
        row.idle.push(performance.now() - started);
        row.moved.push(crossing.moved);
        row.scheduled.push(crossing.scheduled);
        row.delivered.push(crossing.delivered);
      }
      row.load += ` → ${load()}`;
      rows.push({ dialect, spread, row });
      console.log(line(dialect, spread, row));
    }
    services.mailer.close();
    await services.notifications.close();
  } finally {
    await database.destroy();
    if (dbName && args.keep) console.log(`[${dialect}] kept: ${databaseUrl}`);
    else if (dbName) await dropDatabase(dbName, adminUrl);
  }
}

/**
 * PostgreSQL: where the server's WAL is being written, and how many bytes it wrote since: what
 * a sweep's writes cost the server beyond its statements (each index entry, each page's first
 * write after a checkpoint logged whole).
 */
const walPosition = async (database: ReturnType<typeof createDatabase>) =>
  (await sql<{ lsn: string }>`select pg_current_wal_insert_lsn()::text as lsn`.execute(database.db)).rows[0]!.lsn;
const walSince = async (database: ReturnType<typeof createDatabase>, from: string) =>
  Number(
    (
      await sql<{ n: string }>`select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), ${from}::pg_lsn) as n`.execute(
        database.db,
      )
    ).rows[0]!.n,
  );

/**
 * The baseline: a bare Fastify route in a process of its own (bench/bare-server.mjs), its median
 * latency over 500 requests one at a time. The machine is shared: a sweep is read beside it.
 */
async function bareLatency(): Promise<number> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'bare-server.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((resolve) => child.stdout!.once('data', (d) => resolve(Number(String(d)))));
    const times: number[] = [];
    for (let i = 0; i < 550; i++) {
      const started = performance.now();
      await (await fetch(`http://127.0.0.1:${port}/`)).arrayBuffer();
      if (i >= 50) times.push(performance.now() - started);
    }
    return median(times);
  } finally {
    child.kill('SIGTERM');
  }
}

/** The rows measured, printed together at the end. */
const rows: { dialect: string; spread: Spread; row: Row }[] = [];
const load = () => loadavg()[0]!.toFixed(2);
const line = (dialect: string, spread: Spread, r: Row) =>
  `[${dialect}] ${spread.padEnd(10)} one sweep: ${ms(median(r.crossing))} with ${median(r.moved)} states moved, ` +
  `${median(r.scheduled)} alerts written, ${median(r.delivered)} delivered` +
  (r.wal.length > 0 ? `, ${(median(r.wal) / 1e6).toFixed(2)} MB of WAL` : '') +
  `; ${ms(median(r.idle))} with nothing ` +
  `to do (median of ${r.crossing.length}; the first: ${ms(r.first)}; load average ${r.load}); ` +
  `bare Fastify route ${r.bare.toFixed(2)} ms, one sweep ${Math.round(median(r.crossing) / r.bare)}× that`;

const s = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

try {
  for (const dialect of args.dialect === 'both'
    ? (['sqlite', 'postgres'] as const)
    : [args.dialect as 'sqlite' | 'postgres']) {
    await run(dialect);
  }
  console.log(`\n${count.toLocaleString('en')} tickets, rounds: ${rounds}`);
  for (const { dialect, spread, row } of rows) console.log(line(dialect, spread, row));
} finally {
  rmSync(work, { recursive: true, force: true });
}
