/**
 * Response time of Mis Tickets (`POST /api/tickets` with a search) on the demo
 * data and after generating 100,000 tickets, on SQLite and PostgreSQL.
 *
 *   npm run bench                                   # both dialects, 100,000 tickets
 *   npm run bench -- --dialect sqlite --tickets 20000 --requests 300
 *
 * Each dialect gets a fresh database (a temporary SQLite file; a PostgreSQL
 * database created on BENCH_PG_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres,
 * and dropped at the end). The portal listens on 127.0.0.1 only. Latency is
 * measured one request at a time (what a person waits for), then autocannon
 * measures throughput with 10 concurrent connections.
 */
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sql } from 'kysely';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { createDatabase, type Database } from '../apps/api/src/db/database.ts';
import { migrateToLatest } from '../apps/api/src/db/migrator.ts';
import { seedIfEmpty } from '../apps/api/src/db/seed.ts';
import { generateTickets } from './generate-tickets.ts';

const { values: args } = parseArgs({
  options: {
    dialect: { type: 'string', default: 'both' },
    tickets: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '400' },
    seconds: { type: 'string', default: '5' },
  },
});
const dialects = args.dialect === 'both' ? (['sqlite', 'postgres'] as const) : [args.dialect as 'sqlite' | 'postgres'];
const ticketCount = Number(args.tickets);
const requestCount = Number(args.requests);
const cannonSeconds = Number(args.seconds);
const pgAdminUrl =
  process.env.BENCH_PG_ADMIN_URL ?? process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Words that occur in ticket names or descriptions, from common to rare. */
const searchTerms = ['andén', 'montacargas', 'ruta', 'cliente', 'refrigeración', 'folio 12', 'guías', 'báscula'];

interface Stats {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
}

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    mean: samples.reduce((a, b) => a + b, 0) / samples.length,
  };
}

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: pgAdminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function login(base: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`login ${username}: ${res.status}`);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

/** Sequential requests, so each sample is the time one person waits. */
async function measure(base: string, token: string, url: string, withSearch: boolean) {
  const totals: number[] = [];
  const samples: number[] = [];
  const send = async (i: number) => {
    const body = JSON.stringify({
      page: 1,
      per_page: 10,
      search: withSearch ? searchTerms[i % searchTerms.length] : '',
    });
    const started = performance.now();
    const res = await fetch(`${base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    });
    const json = (await res.json()) as { meta?: { total: number } };
    const elapsed = performance.now() - started;
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
    return { elapsed, total: json.meta?.total ?? 0 };
  };
  for (let i = 0; i < 40; i++) await send(i); // warm-up: JIT, statement caches, connection pool
  for (let i = 0; i < requestCount; i++) {
    const { elapsed, total } = await send(i);
    samples.push(elapsed);
    totals.push(total);
  }
  return { ...stats(samples), matches: Math.round(totals.reduce((a, b) => a + b, 0) / totals.length) };
}

async function cannon(base: string, token: string) {
  const result = await autocannon({
    url: `${base}/api/tickets`,
    method: 'POST',
    connections: 10,
    duration: cannonSeconds,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ page: 1, per_page: 10, search: 'ruta' }),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function analyze(database: Database) {
  // What PostgreSQL's autovacuum does after a bulk load (statistics, visibility map).
  // SQLite runs as it would after a restart: no ANALYZE statistics.
  if (database.dialect === 'postgres') await sql`vacuum analyze`.execute(database.db);
}

async function ticketsOf(database: Database, username: string) {
  const user = await database.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  const row = await database.db
    .selectFrom('tickets')
    .select((eb) => eb.fn.countAll().as('n'))
    .where((eb) => eb.or([eb('created_by', '=', user.id), eb('user_assigned_id', '=', user.id)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

type Row = Record<string, string | number>;

async function runDialect(dialect: 'sqlite' | 'postgres'): Promise<Row[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
  let dbName: string | undefined;
  let databaseUrl: string | undefined;
  if (dialect === 'postgres') {
    dbName = `portal_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
    await withAdmin((c) => c.query(`create database ${dbName}`));
    const url = new URL(pgAdminUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const database = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
  const rows: Row[] = [];
  try {
    await migrateToLatest(database);
    await seedIfEmpty(database, { demo: true, adminPassword: undefined });
    const { app } = await buildApp({ config, database, logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const agente = await login(base, 'agente', 'PortalDemo1');
      const admin = await login(base, 'admin', 'PortalAdmin1');

      const record = async (size: string, label: string, token: string, url: string, search: boolean, who: string) => {
        const m = await measure(base, token, url, search);
        rows.push({
          dialect,
          tickets: size,
          list: label,
          user: `${who} (${await ticketsOf(database, who)} own)`,
          p50: fmt(m.p50),
          p95: fmt(m.p95),
          p99: fmt(m.p99),
          'avg matches': m.matches,
        });
        console.log(`  ${dialect} ${size} ${label} ${who}: p50 ${fmt(m.p50)} p95 ${fmt(m.p95)} p99 ${fmt(m.p99)}`);
      };

      const demoSize = String(
        await database.db
          .selectFrom('tickets')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => r.n),
      );
      console.log(`\n${dialect}: demo data (${demoSize} tickets)`);
      await record(demoSize, 'Mis Tickets + search', agente, '/api/tickets', true, 'agente');
      await record(demoSize, 'Mis Tickets', agente, '/api/tickets', false, 'agente');

      console.log(`${dialect}: generating ${ticketCount.toLocaleString('en')} tickets…`);
      const started = performance.now();
      await generateTickets(database, ticketCount);
      await analyze(database);
      console.log(`${dialect}: generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      const size = String(ticketCount + Number(demoSize));

      await record(size, 'Mis Tickets + search', agente, '/api/tickets', true, 'agente');
      await record(size, 'Mis Tickets', agente, '/api/tickets', false, 'agente');
      await record(size, 'Mis Tickets + search', admin, '/api/tickets', true, 'admin');
      await record(size, 'Tickets Generales + search', admin, '/api/general-tickets', true, 'admin');
      await record(size, 'Tickets Generales', admin, '/api/general-tickets', false, 'admin');

      const c = await cannon(base, agente);
      console.log(
        `  ${dialect} ${size} autocannon 10 connections ${cannonSeconds}s, Mis Tickets + search: ${c.rps.toFixed(0)} req/s, p50 ${c.p50} ms, p99 ${c.p99} ms, errors ${c.errors}`,
      );
    } finally {
      await app.close();
    }
  } finally {
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
    if (dbName) await withAdmin((c) => c.query(`drop database if exists ${dbName} with (force)`));
  }
  return rows;
}

const all: Row[] = [];
for (const dialect of dialects) all.push(...(await runDialect(dialect)));
console.log('\nSequential latency, per_page 10, measured at the client over loopback:');
console.table(all);
const resultsDir = path.resolve(import.meta.dirname, 'results');
mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, `tickets-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  JSON.stringify({ tickets: ticketCount, requests: requestCount, loadavg: loadavg(), rows: all }, null, 2),
);
console.log(
  `Results written to ${path.relative(process.cwd(), file)} (load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')})`,
);
