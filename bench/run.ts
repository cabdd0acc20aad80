/**
 * The portal at scale: generates tickets (default 1,000,000, about 50 users) on
 * SQLite and on PostgreSQL, starts the built server on that database and measures
 * every list, search, the workload, a catalogue, the notifications, ticket
 * creation and the health check: latency one request at a time (what a person
 * waits for) and throughput with 10 connections, beside a bare Fastify route
 * measured in the same run (the machine is shared: read the ratios); and how soon
 * an assignment reaches the assignee's live stream while tickets are being created.
 *
 *   npm run bench                                          # both dialects, 1,000,000 tickets
 *   npm run bench -- --dialect sqlite --tickets 100000 --requests 100 --seconds 3
 *   npm run bench -- --keep work --only 'search|filter'          # reuse a kept database, some endpoints
 *
 * Each dialect gets a fresh database (a temporary SQLite file; a PostgreSQL
 * database created on BENCH_PG_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres,
 * and dropped at the end). With `--keep NAME` the databases live in
 * $TMPDIR/portal-bench-NAME and `portal_bench_NAME`, are generated only when missing
 * (migrations still run) and are kept: for measuring a change again and again.
 * `--only REGEX` measures only the endpoints whose label matches. Everything
 * listens on 127.0.0.1 only.
 *
 * The server keeps catalogue list answers in memory until a write changes them
 * (lib/answer-cache.ts); ticket lists always read the database. One at a time, every
 * request says `Cache-Control: no-cache`, so the latencies are the database's: what a
 * person waits for after any change. With 10 connections the same request repeats and
 * a catalogue list is answered from memory, as one re-read between writes is; the lists
 * marked `fresh` are measured that way too ("database path"), and so is the search load
 * beside the health check.
 *
 * The Kanban board (`Kanban …`): the whole board (every column's first page and count), a
 * column's next page by its keyset cursor, and a drop (a status change, one at a time). A group's
 * queue (`Colas …`, every generated ticket is in one of 20 groups). Creations plain, assigned
 * automatically, and naming shipments (what extracting references adds); plain and automatic
 * creations alternated one at a time (`automatic assignment, interleaved`: what it adds). Then the
 * re-extraction of every ticket's references after a pattern change, with creations meanwhile.
 *
 * Then a mixed workload (bench/mixed.ts: about 50 signed-in callers, their lists, pages and
 * searches, catalogues, notification polls and 1 write in 20), on PostgreSQL with one process and
 * with two (`WORKERS=2`); `--only mixed` runs just that.
 *
 * At the end of the first dialect, Lighthouse (bench/lighthouse.ts) measures
 * /login and /tickets on that server, mobile and desktop presets, median of
 * three runs; `--only lighthouse` runs just that, any other `--only` skips it.
 */
import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase } from '../apps/api/src/db/database.ts';
import { migrateToLatest } from '../apps/api/src/db/migrator.ts';
import { seedIfEmpty } from '../apps/api/src/db/seed.ts';
import { parseMetrics } from '../apps/api/test/metrics-text.ts';
import { openStream } from '../apps/api/test/notifications-stream-client.ts';
import { generateTickets } from './generate-tickets.ts';
import { printLighthouse, runLighthouse, type LighthouseRow } from './lighthouse.ts';
import { runMixed } from './mixed.ts';
import { cpuMs, startServer } from './server.ts';

const { values: args } = parseArgs({
  options: {
    dialect: { type: 'string', default: 'both' },
    tickets: { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '5' },
    keep: { type: 'string' },
    only: { type: 'string' },
  },
});
const dialects = args.dialect === 'both' ? (['sqlite', 'postgres'] as const) : [args.dialect as 'sqlite' | 'postgres'];
const ticketCount = Number(args.tickets);
const requestCount = Number(args.requests);
const cannonSeconds = Number(args.seconds);
const pgAdminUrl =
  process.env.BENCH_PG_ADMIN_URL ?? process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const root = path.resolve(import.meta.dirname, '..');
const only = args.only ? new RegExp(args.only, 'i') : undefined;
const keep = args.keep && /^[a-z0-9_]+$/.test(args.keep) ? args.keep : undefined;
if (args.keep && !keep) throw new Error('--keep takes a name of lowercase letters, digits and _');
const withLighthouse = !only || only.test('lighthouse');
let lighthouseRows: LighthouseRow[] | undefined;

const newTicket = {
  name: 'Falla en montacargas del anden 3',
  description: 'El montacargas no levanta tarimas de mas de 500 kg',
  area_id: 1,
  project_id: 1,
  category_id: 1,
  priority_type_id: 1,
  difficulty_id: 1,
  status_id: 1,
};

/**
 * Bodies naming shipments, `per` requests each: EMB-3… and above, which no generated ticket names
 * (they stop at EMB-199999), different in every run (a kept database).
 */
const runStamp = Date.now() % 100_000;
function shipments(body: (shipment: string) => Record<string, unknown>, per = 1) {
  let sent = 0;
  return () => body(`EMB-${300_000 + ((runStamp * 7 + Math.floor(sent++ / per)) % 700_000)}`);
}

interface Endpoint {
  label: string;
  user: 'admin' | 'agente';
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  url: string;
  body?: Record<string, unknown>;
  /** Its tickets go to the group `autoAssignGroup` sets up (Menor carga, five members). */
  autoAssignGroup?: boolean;
  /** Also measured under load with `Cache-Control: no-cache` (the database path of a kept answer). */
  fresh?: boolean;
  /** The body of each next request, when each must differ (instead of `body`). */
  nextBody?: () => Record<string, unknown>;
}

/** The header that asks for an answer from the database, not from the server's memory. */
const NO_CACHE = { 'cache-control': 'no-cache' };

const list = (page: number, search = '', per_page = 10) => ({ page, per_page, search });
const endpoints: Endpoint[] = [
  {
    label: 'Tickets Generales page 1',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: list(1),
  },
  {
    label: 'Tickets Generales page 2,000',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: list(2000),
  },
  { label: 'Mis Tickets (agente)', user: 'agente', method: 'POST', url: '/api/tickets', body: list(1) },
  { label: 'Historial: Tickets Actuales', user: 'admin', method: 'POST', url: '/api/tickets/current', body: list(1) },
  { label: 'Historial: Tickets Antiguos', user: 'admin', method: 'POST', url: '/api/tickets/old', body: list(1) },
  {
    label: 'search, common word (ruta)',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: list(1, 'ruta'),
  },
  // Five generated tickets name each shipment (generate-tickets.ts); Embarque is the first reference type seeded.
  {
    label: 'search by reference (EMB-000042)',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: list(1, 'EMB-000042'),
  },
  { label: 'reference page (Embarque EMB-000042)', user: 'admin', method: 'GET', url: '/api/references/1/EMB-000042' },
  { label: 'search, rare (54321)', user: 'admin', method: 'POST', url: '/api/general-tickets', body: list(1, '54321') },
  {
    label: 'search, no match (zafiro)',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: list(1, 'zafiro'),
  },
  {
    label: 'search, two words (refrigeracion monterrey)',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: list(1, 'refrigeracion monterrey'),
  },
  {
    // `14` starts thousands of words (folios, shipment numbers): too many to list, read as a prefix.
    label: 'search, word and broad prefix (unidad 14)',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: list(1, 'unidad 14'),
  },
  {
    // What a search box sends as a folio's first digit is typed: a prefix of a third of the words.
    label: 'search, as typed (1)',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: list(1, '1'),
  },
  {
    label: 'search in Mis Tickets, as typed (agente, 1)',
    user: 'agente',
    method: 'POST',
    url: '/api/tickets',
    body: list(1, '1'),
  },
  {
    label: 'search in Mis Tickets (agente, ruta)',
    user: 'agente',
    method: 'POST',
    url: '/api/tickets',
    body: list(1, 'ruta'),
  },
  {
    label: 'workload (count-per-user)',
    user: 'admin',
    method: 'POST',
    url: '/api/tickets/count-per-user',
    body: list(1, '', 50),
  },
  { label: 'dashboard summary (last 12 weeks)', user: 'admin', method: 'GET', url: '/api/reports/summary' },
  {
    label: 'filter Urgente + Flota Refrigerada + sin asignar, by last update',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: {
      ...list(1),
      filters: { priority_type_id: [4], project_id: [4], user_assigned_id: [null] },
      sort: { by: 'updated', dir: 'desc' },
    },
  },
  {
    label: 'filter Urgente + Flota Refrigerada + sin asignar, newest first',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: { ...list(1), filters: { priority_type_id: [4], project_id: [4], user_assigned_id: [null] } },
  },
  {
    label: 'sort by name',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: { ...list(1), sort: { by: 'name', dir: 'asc' } },
  },
  {
    label: 'filter area + status, by priority',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: { ...list(1), filters: { area_id: [2], status_id: [5] }, sort: { by: 'priority', dir: 'desc' } },
  },
  {
    label: 'filter creator, by name',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: { ...list(1), filters: { created_by: [10] }, sort: { by: 'name', dir: 'asc' } },
  },
  {
    label: 'SLA por vencer o vencidos, by resolution due (soonest first)',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: {
      ...list(1),
      filters: { sla_state: ['at_risk', 'breached'] },
      sort: { by: 'resolution_due_at', dir: 'asc' },
    },
  },
  {
    label: 'SLA por vencer o vencidos, by resolution due (latest first)',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: {
      ...list(1),
      filters: { sla_state: ['at_risk', 'breached'] },
      sort: { by: 'resolution_due_at', dir: 'desc' },
    },
  },
  {
    label: 'SLA por vencer o vencidos, page 50, by resolution due',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: {
      ...list(50),
      filters: { sla_state: ['at_risk', 'breached'] },
      sort: { by: 'resolution_due_at', dir: 'asc' },
    },
  },
  {
    label: 'SLA vencidos de Urgente, by first response due',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: {
      ...list(1),
      filters: { sla_state: ['breached'], priority_type_id: [4] },
      sort: { by: 'first_response_due_at', dir: 'asc' },
    },
  },
  // The at-risk are few (those due within the hour) among many of the priority.
  {
    label: 'SLA por vencer de Urgente, newest first',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: { ...list(1), filters: { sla_state: ['at_risk'], priority_type_id: [4] } },
  },
  {
    label: 'search ruta + Urgente',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: { ...list(1, 'ruta'), filters: { priority_type_id: [4] } },
  },
  {
    label: 'Mis Tickets, stage closed (agente)',
    user: 'agente',
    method: 'POST',
    url: '/api/tickets',
    body: { ...list(1), filters: { stage: ['closed'] } },
  },
  {
    label: 'filter status (En espera)',
    user: 'admin',
    method: 'POST',
    url: '/api/general-tickets',
    body: { ...list(1), filters: { status_id: [3] } },
  },
  {
    label: 'Mis Tickets, filter status (agente, En espera)',
    user: 'agente',
    method: 'POST',
    url: '/api/tickets',
    body: { ...list(1), filters: { status_id: [3] } },
  },
  // Kanban: every column's first 30 cards and bounded count in one answer.
  { label: 'Kanban whole board', user: 'admin', method: 'POST', url: '/api/tickets/board', body: {} },
  {
    label: 'Kanban whole board, filter Urgente',
    user: 'admin',
    method: 'POST',
    url: '/api/tickets/board',
    body: { filters: { priority_type_id: [4] } },
  },
  {
    label: 'Kanban whole board, Mis tickets (agente)',
    user: 'agente',
    method: 'POST',
    url: '/api/tickets/board',
    body: {},
  },
  // A group's queue (Colas): one of 20 groups, its unassigned open tickets, most urgent first.
  { label: 'Colas: a group queue, page 1', user: 'admin', method: 'POST', url: '/api/queues/1', body: list(1, '', 20) },
  {
    label: 'Colas: a group queue, page 10',
    user: 'admin',
    method: 'POST',
    url: '/api/queues/1',
    body: { page: 10, per_page: 20 },
  },
  { label: 'Áreas list', user: 'admin', method: 'POST', url: '/api/areas', body: list(1), fresh: true },
  {
    label: 'GET /notifications/active-records',
    user: 'agente',
    method: 'GET',
    url: '/api/notifications/active-records',
  },
  { label: '/api/healthz', user: 'admin', method: 'GET', url: '/api/healthz' },
  {
    label: 'ticket creation',
    user: 'admin',
    method: 'POST',
    url: '/api/tickets/create',
    body: newTicket,
  },
  {
    // The same creation into a group assigning by Menor carga: compare its ratio to bare with the line above.
    label: 'ticket creation with automatic assignment (Menor carga)',
    user: 'admin',
    method: 'POST',
    url: '/api/tickets/create',
    body: newTicket,
    autoAssignGroup: true,
  },
  {
    // The same creation naming a shipment no other ticket names: what extracting references costs.
    label: 'ticket creation naming a new shipment',
    user: 'admin',
    method: 'POST',
    url: '/api/tickets/create',
    nextBody: shipments((n) => ({ ...newTicket, description: `${newTicket.description} embarque ${n}` })),
  },
  {
    // Five tickets per shipment, as the generated ones: the fifth finds four open, linked and suggested.
    label: 'ticket creation naming a shipment, five tickets each',
    user: 'admin',
    method: 'POST',
    url: '/api/tickets/create',
    nextBody: shipments((n) => ({ ...newTicket, description: `${newTicket.description} embarque ${n}` }), 5),
  },
];

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const ms = (n: number) => n.toFixed(2);

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: pgAdminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024);
};

/** The CSRF token each server gives (`/api/csrf-token`): PUT, PATCH and DELETE send it. */
const csrfTokens = new Map<string, string>();

async function send(base: string, token: string | undefined, e: Pick<Endpoint, 'method' | 'url' | 'body'>) {
  if (!['GET', 'POST'].includes(e.method) && !csrfTokens.has(base)) {
    const { token: csrf } = JSON.parse(await send(base, undefined, { method: 'GET', url: '/api/csrf-token' })) as {
      token: string;
    };
    csrfTokens.set(base, csrf);
  }
  const csrf = csrfTokens.get(base);
  const res = await fetch(`${base}${e.url}`, {
    method: e.method,
    headers: {
      ...(csrf && !['GET', 'POST'].includes(e.method) ? { 'x-csrf-token': csrf } : {}),
      ...(e.body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...NO_CACHE,
    },
    body: e.body ? JSON.stringify(e.body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${e.method} ${e.url}: ${res.status} ${text.slice(0, 300)}`);
  return text;
}

type Request = Pick<Endpoint, 'method' | 'url' | 'body'>;

/**
 * Sequential requests from the database (`no-cache`): each sample is the time one person waits.
 * A function gives the i-th request (writes that must differ from one another).
 */
async function sequential(
  base: string,
  token: string | undefined,
  e: (Request & Pick<Endpoint, 'nextBody'>) | ((i: number) => Request),
) {
  const request = typeof e === 'function' ? e : () => (e.nextBody ? { ...e, body: e.nextBody() } : e);
  for (let i = 0; i < 20; i++) await send(base, token, request(i)); // warm-up: JIT, caches, pool
  const samples: number[] = [];
  for (let i = 0; i < requestCount; i++) {
    const started = performance.now();
    await send(base, token, request(20 + i));
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), p99: percentile(samples, 0.99) };
}

async function cannon(
  base: string,
  token: string | undefined,
  e: Pick<Endpoint, 'method' | 'url' | 'body' | 'nextBody'>,
  seconds = cannonSeconds,
  { fresh = false } = {},
) {
  const { nextBody } = e;
  const result = await autocannon({
    ...(nextBody && {
      requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(nextBody()) }) }],
    }),
    url: `${base}${e.url}`,
    method: e.method,
    connections: 10,
    duration: seconds,
    headers: {
      ...(e.body || nextBody ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(fresh ? NO_CACHE : {}),
    },
    body: e.body ? JSON.stringify(e.body) : undefined,
  });
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

/** Rows per second of the streamed CSV export of every Urgente ticket, read as it arrives. */
async function exportRate(base: string, token: string) {
  const started = performance.now();
  const res = await fetch(`${base}/api/tickets/export`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ list: 'general', search: '', filters: { priority_type_id: [4] } }),
  });
  if (!res.ok || !res.body) throw new Error(`export: ${res.status}`);
  let lines = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const byte of value) if (byte === 10) lines += 1;
  }
  const rows = lines - 1;
  return { rows, rowsPerSecond: rows / ((performance.now() - started) / 1000) };
}

/** `/api/healthz` one at a time while another process searches on 10 connections. */
async function healthUnderSearchLoad(base: string, token: string) {
  const search = endpoints.find((e) => e.label.startsWith('search, common'))!;
  const load = spawn(
    process.execPath,
    [
      path.join(root, 'node_modules/autocannon/autocannon.js'),
      '-c',
      '10',
      '-d',
      String(cannonSeconds + 1),
      '-m',
      'POST',
      '-H',
      'content-type=application/json',
      '-H',
      `authorization=Bearer ${token}`,
      '-H',
      'cache-control=no-cache',
      '-b',
      JSON.stringify(search.body),
      `${base}${search.url}`,
    ],
    { stdio: ['ignore', 'ignore', 'ignore'] },
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  const samples: number[] = [];
  const until = Date.now() + cannonSeconds * 1000;
  while (Date.now() < until) {
    const started = performance.now();
    await send(base, undefined, { method: 'GET', url: '/api/healthz' });
    samples.push(performance.now() - started);
  }
  await new Promise((resolve) => load.once('exit', resolve));
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), samples: samples.length };
}

/** How many assignments the live-list figure measures. */
const LIVE_CHANGES = 50;

/**
 * Live lists under write load: while another process creates tickets on 10 connections,
 * the admin assigns LIVE_CHANGES tickets one by one to the agente, whose live stream
 * (GET /api/notifications/stream) must carry each ticket-changed event. Each sample runs
 * from the assignment's answer to the event's arrival (0 when the event came first).
 */
async function liveChangeUnderCreationLoad(base: string, admin: string, agente: string) {
  const creation = endpoints.find((e) => e.label === 'ticket creation')!;
  const ids: number[] = [];
  for (let i = 0; i < LIVE_CHANGES; i++) {
    ids.push((JSON.parse(await send(base, admin, creation)) as { data: { id: number } }).data.id);
  }
  const { user } = (
    JSON.parse(
      await send(base, undefined, {
        method: 'POST',
        url: '/api/login',
        body: { username: 'agente', password: 'PortalDemo1' },
      }),
    ) as { data: { user: { id: number } } }
  ).data;
  const ticket = (
    JSON.parse(await send(base, agente, { method: 'POST', url: '/api/notifications/stream-ticket' })) as {
      data: { ticket: string };
    }
  ).data.ticket;
  const { token: csrf } = JSON.parse(await send(base, undefined, { method: 'GET', url: '/api/csrf-token' })) as {
    token: string;
  };
  const stream = await openStream(base, { ticket });
  await stream.waitFor((e) => e.event === 'ready', 10_000);
  const load = spawn(
    process.execPath,
    [
      path.join(root, 'node_modules/autocannon/autocannon.js'),
      ...['-c', '10', '-d', '600', '-m', 'POST', '-H', 'content-type=application/json'],
      ...['-H', `authorization=Bearer ${admin}`, '-b', JSON.stringify(creation.body), `${base}${creation.url}`],
    ],
    { stdio: ['ignore', 'ignore', 'ignore'] },
  );
  const samples: number[] = [];
  try {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const id of ids) {
      const res = await fetch(`${base}/api/tickets/${id}/assign/${user.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${admin}`, 'x-csrf-token': csrf },
      });
      const text = await res.text();
      const answered = performance.now();
      if (!res.ok) throw new Error(`assign ${id}: ${res.status} ${text.slice(0, 300)}`);
      const event = await stream.waitFor((e) => e.event === 'ticket' && (e.data as { id: number }).id === id, 30_000);
      samples.push(Math.max(0, event.at - answered));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    load.kill('SIGTERM');
    await stream.close();
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) };
}

/**
 * A group assigning by Menor carga with five members (users 2 to 6), made through the API (or found,
 * on a kept database): the group of the automatic-assignment creation.
 */
async function autoAssignGroup(base: string, admin: string): Promise<number> {
  const name = 'Banco de pruebas Menor carga';
  const found = JSON.parse(
    await send(base, admin, { method: 'POST', url: '/api/groups', body: { page: 1, per_page: 10, search: name } }),
  ) as { data: { id: number; name: string }[] };
  let id = found.data.find((g) => g.name === name)?.id;
  if (id === undefined) {
    const created = JSON.parse(
      await send(base, admin, {
        method: 'POST',
        url: '/api/groups/create',
        body: { name, assignment_mode: 'least_loaded' },
      }),
    ) as { data: { id: number } };
    id = created.data.id;
  }
  for (let userId = 2; userId <= 6; userId++) {
    await send(base, admin, { method: 'POST', url: `/api/groups/${id}/members`, body: { user_id: userId } });
  }
  return id;
}

/** The server's metrics, as `name{labels}` → value. */
async function scrapeMetrics(base: string, token: string): Promise<Map<string, number>> {
  const res = await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET /api/metrics: ${res.status}`);
  return parseMetrics(await res.text());
}

/**
 * The re-extraction writes' holds, from the server's histogram: how many, how many over 50 ms,
 * the bucket bounds holding the median and the 95th percentile, and the longest.
 */
function stepHolds(samples: Map<string, number>) {
  const name = 'portal_reference_reextraction_step_seconds';
  const buckets = [...samples]
    .filter(([key]) => key.startsWith(`${name}_bucket{le="`) && !key.includes('+Inf'))
    .map(([key, n]) => ({ le: Number(key.slice(`${name}_bucket{le="`.length, -2)), n }))
    .sort((a, b) => a.le - b.le);
  const count = samples.get(`${name}_count`) ?? 0;
  const bound = (q: number) => buckets.find((b) => b.n >= q * count)?.le ?? Infinity;
  return {
    count,
    over50ms: count - (buckets.find((b) => b.le === 0.05)?.n ?? 0),
    p50Bound: bound(0.5),
    p95Bound: bound(0.95),
    maxSeconds: samples.get('portal_reference_reextraction_step_max_seconds') ?? 0,
  };
}

/**
 * Embarque's pattern changed, then, until the background re-extraction of every ticket ends,
 * tickets created one at a time: how long it takes, how long a creation took meanwhile (what a
 * person waits, with everything else the machine does) and how long each write of the
 * re-extraction held the database (the server's metrics: what a ticket write may have waited
 * for it). `patterns` are run in turn, each after the previous run ended: the kept database
 * ends with Embarque's pattern as it began, spelled either way, so a later run finds every
 * generated shipment.
 */
async function reextractionUnderWrites(base: string, admin: string, metricsToken: string, patterns: string[]) {
  const type = JSON.parse(await send(base, admin, { method: 'GET', url: '/api/reference-types/1' })) as {
    data: { name: string; pattern: string; example: string };
  };
  const started = performance.now();
  const samples: number[] = [];
  for (const pattern of patterns) {
    await send(base, admin, {
      method: 'PUT',
      url: '/api/reference-types/update/1',
      body: { name: type.data.name, pattern, example: type.data.example },
    });
    for (let i = 0; ; i++) {
      const created = performance.now();
      await send(base, admin, { method: 'POST', url: '/api/tickets/create', body: newTicket });
      samples.push(performance.now() - created);
      if (i % 20 === 0) {
        const now = JSON.parse(await send(base, admin, { method: 'GET', url: '/api/reference-types/1' })) as {
          data: { reextract_total: number | null };
        };
        if (now.data.reextract_total === null) break;
      }
    }
  }
  const seconds = (performance.now() - started) / 1000;
  samples.sort((a, b) => a - b);
  const steps = stepHolds(await scrapeMetrics(base, metricsToken));
  return { seconds, p50: percentile(samples, 0.5), max: samples.at(-1)!, steps };
}

/** Embarque's two spellings of one pattern: a change between them changes no ticket's references. */
const EMBARQUE_SPELLINGS = ['EMB-\\d{6}', 'EMB-[0-9]{6}'];

/**
 * The re-extraction rows: a change that leaves every ticket's references as they were (the
 * other spelling), and one that changes half of them there and back (a pattern only for the
 * shipments starting with 0: the generated EMB-000000 to EMB-199999 lose half, then regain
 * them), so every step writes.
 */
const REEXTRACTIONS = [
  {
    label: 'references re-extraction of every ticket (Embarque’s pattern respelled: no reference changes)',
    change: 'respelled',
  },
  { label: 'references re-extraction changing half the tickets’ references, there and back', change: 'half' },
] as const;

async function login(base: string, username: string, password: string): Promise<string> {
  const text = await send(base, undefined, { method: 'POST', url: '/api/login', body: { username, password } });
  return (JSON.parse(text) as { data: { token: string } }).data.token;
}

type Row = Record<string, string | number>;

async function prepare(dialect: 'sqlite' | 'postgres', dataDir: string, databaseUrl: string | undefined) {
  const sqliteFile = path.join(dataDir, 'portal.sqlite');
  const database = createDatabase({ databaseUrl, sqliteFile });
  try {
    await migrateToLatest(database);
    if (keep) {
      const { count } = await database.db
        .selectFrom('tickets')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      if (Number(count) >= ticketCount) return 0; // kept from an earlier run
    }
    await seedIfEmpty(database, { demo: true, adminPassword: undefined });
    const started = performance.now();
    await generateTickets(database, ticketCount, sqliteFile);
    const seconds = (performance.now() - started) / 1000;
    // What autovacuum does after a bulk load on PostgreSQL (statistics, visibility map).
    if (dialect === 'postgres') await sql`vacuum analyze`.execute(database.db);
    return seconds;
  } finally {
    await database.destroy();
  }
}

async function runDialect(dialect: 'sqlite' | 'postgres', bareRps: Map<string, number>): Promise<Row[]> {
  const dataDir = keep
    ? path.join(tmpdir(), `portal-bench-${keep}`)
    : mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
  mkdirSync(dataDir, { recursive: true });
  let dbName: string | undefined;
  let databaseUrl: string | undefined;
  if (dialect === 'postgres') {
    dbName = keep ? `portal_bench_${keep}` : `portal_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
    const exists = await withAdmin(
      async (c) => (await c.query('select 1 from pg_database where datname = $1', [dbName])).rowCount,
    );
    if (!exists) await withAdmin((c) => c.query(`create database ${dbName}`));
    const url = new URL(pgAdminUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  const rows: Row[] = [];
  let server: ChildProcess | undefined;
  try {
    console.log(`\n${dialect}: generating ${ticketCount.toLocaleString('en')} tickets…`);
    const generated = await prepare(dialect, dataDir, databaseUrl);
    console.log(`${dialect}: generated in ${generated.toFixed(1)} s`);

    const jwtSecret = randomBytes(32).toString('hex');
    // The web app only for Lighthouse (first dialect): otherwise the API alone, as always.
    const started = await startServer({
      dataDir,
      databaseUrl,
      jwtSecret,
      withWeb: withLighthouse && dialect === dialects[0],
    });
    server = started.child;
    const { base, startMs } = started;
    console.log(`${dialect}: start to /api/healthz ${startMs.toFixed(0)} ms`);
    rows.push({ dialect, endpoint: 'start to /api/healthz', 'p50 ms': '', 'p95 ms': ms(startMs), 'p99 ms': '' });

    const tokens = {
      admin: await login(base, 'admin', 'PortalAdmin1'),
      agente: await login(base, 'agente', 'PortalDemo1'),
    };
    for (const listed of endpoints) {
      if (only && !only.test(listed.label)) continue;
      const e = listed.autoAssignGroup
        ? { ...listed, body: { ...listed.body, group_id: await autoAssignGroup(base, tokens.admin) } }
        : listed;
      const token = e.url === '/api/healthz' ? undefined : tokens[e.user];
      // The sequential run warms the load up (JIT, caches, pool).
      const seq = await sequential(base, token, e);
      const cpuBefore = cpuMs(server.pid!);
      const load = await cannon(base, token, e);
      const cpuPerRequest = (cpuMs(server.pid!) - cpuBefore) / Math.max(1, load.requests);
      const row: Row = {
        dialect,
        endpoint: e.label,
        'p50 ms': ms(seq.p50),
        'p95 ms': ms(seq.p95),
        'p99 ms': ms(seq.p99),
        'req/s (10 conn)': Math.round(load.rps),
        '% of bare': `${((100 * load.rps) / bareRps.get(dialect)!).toFixed(1)}%`,
        'server CPU ms/req': cpuPerRequest.toFixed(2),
        errors: load.errors,
      };
      rows.push(row);
      console.log(`  ${JSON.stringify(row)}`);
      if (e.fresh) {
        const cpuBeforeFresh = cpuMs(server.pid!);
        const fresh = await cannon(base, token, e, cannonSeconds, { fresh: true });
        const freshRow: Row = {
          dialect,
          endpoint: `${e.label}, database path (no-cache)`,
          'req/s (10 conn)': Math.round(fresh.rps),
          '% of bare': `${((100 * fresh.rps) / bareRps.get(dialect)!).toFixed(1)}%`,
          'server CPU ms/req': ((cpuMs(server.pid!) - cpuBeforeFresh) / Math.max(1, fresh.requests)).toFixed(2),
          errors: fresh.errors,
        };
        rows.push(freshRow);
        console.log(`  ${JSON.stringify(freshRow)}`);
      }
    }
    if (!only || only.test('automatic assignment, interleaved')) {
      // A plain creation and one into the Menor carga group, alternated one at a time, so the
      // machine's noise falls on both alike: the median of the pairs' differences is what the
      // automatic assignment adds to a creation.
      const group = await autoAssignGroup(base, tokens.admin);
      const plain: Request = { method: 'POST', url: '/api/tickets/create', body: newTicket };
      const assigned: Request = { ...plain, body: { ...newTicket, group_id: group } };
      const added: number[] = [];
      for (let i = 0; i < 20 + requestCount; i++) {
        const started = performance.now();
        await send(base, tokens.admin, plain);
        const between = performance.now();
        await send(base, tokens.admin, assigned);
        if (i >= 20) added.push(performance.now() - between - (between - started)); // after 20 to warm up
      }
      added.sort((a, b) => a - b);
      const row: Row = {
        dialect,
        endpoint: 'automatic assignment, interleaved with plain creations: time it adds (pair differences)',
        'p50 ms': ms(percentile(added, 0.5)),
        'p95 ms': ms(percentile(added, 0.95)),
        'p99 ms': ms(percentile(added, 0.99)),
      };
      rows.push(row);
      console.log(`  ${JSON.stringify(row)}`);
    }
    if (!only || only.test('Kanban next page')) {
      // A column's next page by keyset: the cursor the whole board gave its fullest column.
      const board = JSON.parse(
        await send(base, tokens.admin, { method: 'POST', url: '/api/tickets/board', body: {} }),
      ) as {
        data: {
          columns: {
            status: { id: number; name: string };
            count: number;
            cards: { id: number }[];
            next_cursor: string | null;
          }[];
        };
      };
      const column = [...board.data.columns].sort((a, b) => b.count - a.count)[0];
      if (column?.next_cursor) {
        const seq = await sequential(base, tokens.admin, {
          method: 'POST',
          url: '/api/tickets/board/column',
          body: { status_id: column.status.id, cursor: column.next_cursor },
        });
        const row: Row = {
          dialect,
          endpoint: `Kanban next page (${column.status.name})`,
          'p50 ms': ms(seq.p50),
          'p95 ms': ms(seq.p95),
          'p99 ms': ms(seq.p99),
        };
        rows.push(row);
        console.log(`  ${JSON.stringify(row)}`);
      }
      // A drop: the open column's first cards moved to the fullest column and back, one at a time.
      const open = board.data.columns.find((c) => c.status.id !== column?.status.id && c.count > 0);
      if (column && open) {
        const ids = open.cards.map((c) => c.id);
        const seq = await sequential(base, tokens.admin, (i) => ({
          method: 'PATCH',
          url: `/api/tickets/${ids[Math.floor(i / 2) % ids.length]}/status`,
          body: { status_id: i % 2 === 0 ? column.status.id : open.status.id },
        }));
        const row: Row = {
          dialect,
          endpoint: `Kanban drop (status change ${open.status.name} ⇄ ${column.status.name})`,
          'p50 ms': ms(seq.p50),
          'p95 ms': ms(seq.p95),
          'p99 ms': ms(seq.p99),
        };
        rows.push(row);
        console.log(`  ${JSON.stringify(row)}`);
      }
    }
    if (!only || only.test('CSV export')) {
      const exported = await exportRate(base, tokens.admin);
      rows.push({
        dialect,
        endpoint: `CSV export, Urgente (${exported.rows.toLocaleString('en')} rows)`,
        'p50 ms': '',
        'p95 ms': `${Math.round(exported.rowsPerSecond).toLocaleString('en')} rows/s`,
        'p99 ms': '',
      });
      console.log(`  export ${exported.rows} rows at ${Math.round(exported.rowsPerSecond)} rows/s`);
    }
    if (!only || only.test('healthz while searching')) {
      const health = await healthUnderSearchLoad(base, tokens.admin);
      rows.push({
        dialect,
        endpoint: '/api/healthz while searching on 10 connections',
        'p50 ms': ms(health.p50),
        'p95 ms': '',
        'p99 ms': ms(health.p99),
      });
      console.log(`  health under search load p99 ${ms(health.p99)} ms (${health.samples} samples)`);
    }
    if (!only || only.test('live list: assignment to stream event under creation load')) {
      const live = await liveChangeUnderCreationLoad(base, tokens.admin, tokens.agente);
      rows.push({
        dialect,
        endpoint: `live list: assignment answer to the assignee's stream event, while creating on 10 connections (${LIVE_CHANGES} changes)`,
        'p50 ms': ms(live.p50),
        'p95 ms': '',
        'p99 ms': ms(live.p99),
      });
      console.log(`  live list event p50 ${ms(live.p50)} ms, p99 ${ms(live.p99)} ms`);
    }
    if (withLighthouse && dialect === dialects[0]) {
      console.log(`${dialect}: Lighthouse, /login and /tickets, mobile and desktop, three runs each…`);
      lighthouseRows = await runLighthouse(base);
    }
    const rss = rssMb(server.pid!);
    rows.push({
      dialect,
      endpoint: 'server RSS after the benchmark',
      'p50 ms': '',
      'p95 ms': `${rss} MB`,
      'p99 ms': '',
    });
    console.log(`  RSS ${rss} MB`);
    await started.stop(); // what follows starts servers of its own, one at a time
    server = undefined;
    for (const { label, change } of REEXTRACTIONS) {
      if (only && !only.test(label)) continue;
      // A server of its own, with metrics on: its re-extraction reports how long each write held the database.
      const metricsToken = randomBytes(16).toString('hex');
      const own = await startServer({ dataDir, databaseUrl, jwtSecret, env: { METRICS_TOKEN: metricsToken } });
      server = own.child;
      const current = (
        JSON.parse(await send(own.base, tokens.admin, { method: 'GET', url: '/api/reference-types/1' })) as {
          data: { pattern: string };
        }
      ).data.pattern;
      const patterns =
        change === 'respelled' ? EMBARQUE_SPELLINGS.filter((p) => p !== current).slice(0, 1) : ['EMB-0\\d{5}', current];
      const reextraction = await reextractionUnderWrites(own.base, tokens.admin, metricsToken, patterns);
      await own.stop();
      server = undefined;
      const { steps } = reextraction;
      const created: Row = {
        dialect,
        endpoint: `${label}, ticket creation meanwhile`,
        'p50 ms': ms(reextraction.p50),
        'p95 ms': `${reextraction.seconds.toFixed(1)} s in all`,
        'p99 ms': ms(reextraction.max),
      };
      const held: Row = {
        dialect,
        endpoint: `${label}: each write's hold of the database (server side, ${steps.count} writes, ${steps.over50ms} over 50 ms)`,
        'p50 ms': `≤ ${ms(steps.p50Bound * 1000)}`,
        'p95 ms': `≤ ${ms(steps.p95Bound * 1000)}`,
        'p99 ms': ms(steps.maxSeconds * 1000),
      };
      rows.push(created, held);
      console.log(`  ${JSON.stringify(created)} (the slowest creation in the p99 column)`);
      console.log(`  ${JSON.stringify(held)} (the longest write in the p99 column; p50 and p95 as histogram bounds)`);
    }
    if (databaseUrl && (!only || REEXTRACTIONS.some(({ label }) => only.test(label)))) {
      // What autovacuum does after the re-extractions rewrote half the references twice, before
      // the mixed workload reads on: a PostgreSQL run with autovacuum off would keep every dead row.
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query('vacuum analyze').finally(() => client.end());
    }
    if (!only || only.test('mixed workload')) {
      console.log(`${dialect}: mixed workload…`);
      rows.push(
        ...(await runMixed({
          dialect,
          dataDir,
          databaseUrl,
          jwtSecret,
          seconds: 2 * cannonSeconds,
          bare: async () => (await bare()).rps,
          // Several processes serve one PostgreSQL database; SQLite is served by one.
          workers: dialect === 'postgres' ? [1, 2] : [1],
        })),
      );
    }
    if (generated > 0)
      rows.push({
        dialect,
        endpoint: `generate ${ticketCount.toLocaleString('en')} tickets`,
        'p50 ms': '',
        'p95 ms': `${generated.toFixed(1)} s`,
        'p99 ms': '',
      });
  } finally {
    server?.kill('SIGTERM');
    if (server && server.exitCode === null) await new Promise((resolve) => server!.once('exit', resolve));
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
    if (dbName && !keep) await withAdmin((c) => c.query(`drop database if exists ${dbName} with (force)`));
  }
  return rows;
}

/** The bare Fastify baseline, measured right before each dialect's figures. */
async function bare(): Promise<{ rps: number; p95: number }> {
  const child = spawn(process.execPath, [path.join(root, 'bench/bare-server.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((resolve) => child.stdout!.once('data', (d) => resolve(Number(String(d)))));
    const base = `http://127.0.0.1:${port}`;
    const seq = await sequential(base, undefined, { method: 'GET', url: '/' });
    const load = await cannon(base, undefined, { method: 'GET', url: '/' });
    return { rps: load.rps, p95: seq.p95 };
  } finally {
    child.kill('SIGTERM');
  }
}

console.log('Building the server bundle…');
const build = spawnSync('npm', ['run', 'build', '--workspace', 'apps/api'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
if (withLighthouse) {
  // Lighthouse needs the web app: built when its sources changed since its last build.
  const web = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-stale'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (web.status !== 0) process.exit(web.status ?? 1);
}

const all: Row[] = [];
const bareRps = new Map<string, number>();
for (const dialect of dialects) {
  const baseline = await bare();
  bareRps.set(dialect, baseline.rps);
  all.push({
    dialect,
    endpoint: 'bare Fastify route (baseline)',
    'p50 ms': '',
    'p95 ms': ms(baseline.p95),
    'p99 ms': '',
    'req/s (10 conn)': Math.round(baseline.rps),
    '% of bare': '100%',
  });
  all.push(...(await runDialect(dialect, bareRps)));
}
console.log('\nLatency one request at a time (per_page 10 unless noted), throughput with 10 connections:');
console.table(all);
if (lighthouseRows) printLighthouse(lighthouseRows);
const resultsDir = path.join(root, 'bench/results');
mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, `scale-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  JSON.stringify(
    { tickets: ticketCount, requests: requestCount, loadavg: loadavg(), rows: all, lighthouse: lighthouseRows },
    null,
    2,
  ),
);
console.log(
  `Results written to ${path.relative(process.cwd(), file)} (load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')})`,
);
