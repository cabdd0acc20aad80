/**
 * The fixed cost of a request: throughput of the built server (`apps/api/dist/server.js`,
 * run `npm run build` first) on the public health check, an authenticated catalogue
 * list (Áreas, a 9-row table), an authenticated `GET` of one record and Tickets
 * Generales page 1 (the demo tickets; both lists answered from the server's memory,
 * Áreas also with `Cache-Control: no-cache`, from the database), beside a bare
 * Fastify route returning `{ ok: true }` measured in the same run, as a ratio.
 *
 *   npx tsx bench/fixed-cost.ts                       # SQLite, 5 s per endpoint
 *   npx tsx bench/fixed-cost.ts --dialect postgres --seconds 10
 *   npx tsx bench/fixed-cost.ts --cpu-prof /tmp/prof  # also writes the server's CPU profile there
 *   npx tsx bench/fixed-cost.ts --only areas          # the bare route and the endpoints whose label has 'areas'
 *   npx tsx bench/fixed-cost.ts --server /elsewhere/apps/api/dist/server.js   # another build, e.g. before a change
 *
 * Both servers run as child processes on 127.0.0.1 (fresh DATA_DIR; on PostgreSQL a
 * database created on BENCH_PG_ADMIN_URL and dropped at the end); autocannon drives
 * them with 10 connections from this process. Goals: Áreas ≥ 20 %, health ≥ 60 %.
 * Besides req/s, the server's CPU time per request is read from /proc: on a busy
 * machine req/s swings with other load, CPU per request much less; "of bare (CPU)"
 * is the share of bare Fastify's throughput the endpoint would reach on idle cores.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    dialect: { type: 'string', default: 'sqlite' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    'cpu-prof': { type: 'string' },
    only: { type: 'string' },
    server: { type: 'string' },
  },
});
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverJs = path.resolve(args.server ?? path.join(root, 'apps/api/dist/server.js'));
const pgAdminUrl =
  process.env.BENCH_PG_ADMIN_URL ?? process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const BARE_SERVER = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/', async () => ({ ok: true }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
console.log('listening');
`;

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: pgAdminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const freePort = () => 20_000 + Math.floor(Math.random() * 20_000);

async function waitFor(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

interface Target {
  label: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/** CPU time (user + system) a process has used, in ms, from /proc (Linux); null elsewhere. */
function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (100 Hz)
  } catch {
    return null;
  }
}

async function rate(target: Target, pid: number | undefined) {
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    connections,
    duration: seconds,
    headers: target.headers,
    body: target.body,
  });
  const cpuAfter = cpuMs(pid);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    // Server CPU per request: unlike req/s, hardly moved by other load on the machine.
    cpuUs: cpuBefore === null || cpuAfter === null ? NaN : ((cpuAfter - cpuBefore) * 1000) / result.requests.total,
  };
}

async function main() {
  if (!existsSync(serverJs)) throw new Error(`${serverJs} is missing: run npm run build first`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-fixed-cost-'));
  let dbName: string | undefined;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    JWT_SECRET: randomBytes(32).toString('hex'),
    WEB_DIST: path.join(dataDir, 'no-web'),
    DATABASE_URL: '',
  };
  if (args.dialect === 'postgres') {
    dbName = `portal_fixed_${process.pid}_${randomBytes(3).toString('hex')}`;
    await withAdmin((c) => c.query(`create database ${dbName}`));
    const url = new URL(pgAdminUrl);
    url.pathname = `/${dbName}`;
    env.DATABASE_URL = url.toString();
  }

  const apiPort = freePort();
  const barePort = apiPort + 1;
  const profDir = args['cpu-prof'];
  const api = spawn(process.execPath, [...(profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : []), serverJs], {
    env: { ...env, PORT: String(apiPort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const bare = spawn(process.execPath, ['--input-type=module', '-e', BARE_SERVER], {
    cwd: path.join(root, 'apps/api'),
    env: { ...env, PORT: String(barePort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${apiPort}`;
  try {
    const startMs = await waitFor(`${base}/api/healthz`, api);
    await waitFor(`http://127.0.0.1:${barePort}/`, bare);
    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'PortalAdmin1' }),
    });
    if (!login.ok) throw new Error(`login: ${login.status}`);
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const auth = { authorization: `Bearer ${token}` };

    const targets: Target[] = [
      { label: 'bare Fastify { ok: true }', url: `http://127.0.0.1:${barePort}/` },
      { label: 'GET /api/healthz', url: `${base}/api/healthz` },
      {
        label: 'POST /api/areas (list)',
        url: `${base}/api/areas`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ page: 1, per_page: 10 }),
      },
      {
        label: 'POST /api/areas (list, no-cache: from the database)',
        url: `${base}/api/areas`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', 'cache-control': 'no-cache' },
        body: JSON.stringify({ page: 1, per_page: 10 }),
      },
      { label: 'GET /api/areas/1', url: `${base}/api/areas/1`, headers: auth },
      {
        label: 'POST /api/general-tickets (page 1)',
        url: `${base}/api/general-tickets`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ page: 1, per_page: 10, search: '' }),
      },
      { label: 'GET /api/statuses', url: `${base}/api/statuses`, headers: auth },
    ];
    if (args.only) targets.splice(1, targets.length, ...targets.slice(1).filter((t) => t.label.includes(args.only!)));
    // Warm-up: JIT, statement caches, session caches.
    for (const t of targets) await autocannon({ ...t, connections, duration: 1 });

    const results: { label: string; rps: number; p99: number; errors: number; cpuUs: number }[] = [];
    for (const [i, t] of targets.entries())
      results.push({ label: t.label, ...(await rate(t, i === 0 ? bare.pid : api.pid)) });
    // The bare route again at the end, so load from other processes during the run shows.
    const bareAgain = await rate(targets[0]!, bare.pid);
    const bareRps = (results[0]!.rps + bareAgain.rps) / 2;
    const bareCpuUs = (results[0]!.cpuUs + bareAgain.cpuUs) / 2;

    console.log(
      `\n${args.dialect}, ${connections} connections, ${seconds} s each; start to /api/healthz ${startMs.toFixed(0)} ms`,
    );
    console.table(
      results.map((r) => ({
        endpoint: r.label,
        'req/s': Math.round(r.rps),
        'p99 ms': r.p99,
        'of bare': `${((100 * r.rps) / bareRps).toFixed(1)} %`,
        'server CPU µs/req': Math.round(r.cpuUs),
        'of bare (CPU)': `${((100 * bareCpuUs) / r.cpuUs).toFixed(1)} %`,
        errors: r.errors,
      })),
    );
    console.log(
      `bare Fastify: ${Math.round(results[0]!.rps)} req/s at the start, ${Math.round(bareAgain.rps)} at the end`,
    );
  } finally {
    await stop(api);
    await stop(bare);
    rmSync(dataDir, { recursive: true, force: true });
    if (dbName) await withAdmin((c) => c.query(`drop database if exists ${dbName} with (force)`));
  }
}

await main();
