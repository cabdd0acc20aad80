/**
 * A mixed workload, as a working day sends it: many signed-in people, each reading
 * their own lists, pages and searches, with writes among the reads, rather than one
 * identical request repeated. (It is what showed that keeping ticket-list answers in
 * memory did not pay: with a write in every 20 requests dropping them, and each person's
 * pages and searches their own, few requests found an answer kept.)
 *
 * Callers: every agent of the bench database (about 48: `agente`, the demo's agents and the
 * generator's `bench_agent_*`), three supervisors created here when missing, the supervisor
 * and the administrator. Each request is drawn from a seeded generator, so every run sends
 * the same sequence:
 * - agents: Mis Tickets pages (page 1 most often), searches in Mis Tickets, the history tabs,
 *   the ticket form's catalogue options and the notification poll;
 * - supervisors and the administrator: Tickets Generales pages and searches (one or two words),
 *   the history tabs, catalogue lists and the notification poll;
 * - every 20th request is a write: a ticket created by an agent, or a ticket assigned to an
 *   agent by a supervisor or the administrator (from tickets created for it before the run).
 *
 * It runs on 10 connections (autocannon), twice, each time in a server of its own after a
 * warm-up, and is read as a share of a bare Fastify route measured before and after. On
 * PostgreSQL it runs with one process and again with two (`WORKERS=2`), each beside the bare
 * route measured before and after it.
 *
 *   npm run bench -- --keep work --only mixed          # this alone, on both databases
 */
import autocannon from 'autocannon';
import { ticketTemplates } from '../apps/api/src/db/seed-tickets.ts';
import { random } from './generate-tickets.ts';
import { startServer, treeCpuMs } from './server.ts';

/** Words searched for: common, rare and absent ones, and places. */
const SEARCH_WORDS = [
  'ruta',
  'montacargas',
  'inventario',
  'refrigeracion',
  'etiquetas',
  'aduana',
  'factura',
  'anden',
  'bascula',
  'cliente',
  'pedido',
  'flota',
  'tarimas',
  'respaldo',
  'impresora',
  'proveedor',
  'monterrey',
  'guadalajara',
  'puebla',
  'toluca',
  'gps',
  'zafiro',
  'unidad 14',
  'refrigeracion monterrey',
  'ruta bajio',
  'pedido urgente',
];
const CATALOGUES = ['areas', 'categories', 'projects', 'difficulties', 'groups', 'priority-types', 'ticket-statuses'];
const OPTIONS = ['areas', 'categories', 'projects', 'difficulties', 'priority-types', 'ticket-statuses'];
const EXTRA_SUPERVISORS = 3;
/** Tickets created before each run for its assignments. */
const ASSIGNMENT_POOL = 400;
const WRITE_EVERY = 20;

interface Caller {
  id: number;
  token: string;
}
interface Callers {
  agents: Caller[];
  managers: Caller[];
}
interface MixedRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  caller: Caller;
  body?: unknown;
}

async function call(base: string, token: string | undefined, method: string, url: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as { data: unknown } };
}

async function signIn(base: string, username: string, password: string): Promise<Caller | undefined> {
  const { status, json } = await call(base, undefined, 'POST', '/api/login', { username, password });
  if (status !== 200) return undefined;
  const data = json.data as { token: string; user: { id: number } };
  return { id: data.user.id, token: data.token };
}

/** Signs every caller in, creating the extra supervisors on a database that lacks them. */
async function signInCallers(base: string): Promise<Callers> {
  const admin = (await signIn(base, 'admin', 'PortalAdmin1'))!;
  const { json } = await call(base, admin.token, 'POST', '/api/users', { page: 1, per_page: 100, search: '' });
  const users = json.data as { username: string; role: { id: number } }[];
  for (let i = 0; i < EXTRA_SUPERVISORS; i++) {
    const username = `bench_supervisor_${i}`;
    if (users.some((u) => u.username === username)) continue;
    const created = await call(base, admin.token, 'POST', '/api/users/create', {
      name: 'Supervisora',
      last_name: `Prueba${String.fromCharCode(65 + i)}`,
      username,
      email: `${username}@portal.local`,
      password: 'PortalDemo1',
      role_id: '2',
      status_id: '1',
    });
    if (created.status !== 201) throw new Error(`creating ${username}: ${created.status}`);
  }
  const agentNames = users.filter((u) => u.role.id === 3).map((u) => u.username);
  const supervisorNames = [
    'supervisor',
    ...Array.from({ length: EXTRA_SUPERVISORS }, (_, i) => `bench_supervisor_${i}`),
  ];
  // One at a time: the sign-in limit per address counts the attempts in flight.
  const signInAll = async (names: string[]) => {
    const signedIn: Caller[] = [];
    for (const username of names) {
      const caller = await signIn(base, username, 'PortalDemo1');
      if (!caller) throw new Error(`${username} could not sign in`);
      signedIn.push(caller);
    }
    return signedIn;
  };
  const callers = { agents: await signInAll(agentNames), managers: [admin, ...(await signInAll(supervisorNames))] };
  if (callers.agents.length + callers.managers.length < 40) throw new Error('fewer than 40 callers signed in');
  return callers;
}

/** New unassigned tickets, for the run's assignments. */
async function assignmentPool(base: string, admin: Caller): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < ASSIGNMENT_POOL; i++) {
    const { status, json } = await call(base, admin.token, 'POST', '/api/tickets/create', ticketBody(i));
    if (status !== 201) throw new Error(`creating the assignment pool: ${status}`);
    ids.push((json.data as { id: number }).id);
  }
  return ids;
}

const ticketBody = (n: number) => {
  const [name, description] = ticketTemplates[n % ticketTemplates.length]!;
  return {
    name,
    description,
    area_id: 1 + (n % 3),
    project_id: 1 + (n % 4),
    category_id: 1 + (n % 3),
    priority_type_id: 1 + (n % 4),
    difficulty_id: 1 + (n % 3),
    status_id: 1,
  };
};

/** The request sequence: the same for every run (seeded), whatever the server answers. */
function workload(callers: Callers, pool: number[]) {
  const next = random(20_240_611);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  /** Page 1 most often, then 2, sometimes 3 to 5. */
  const page = () => {
    const r = next();
    return r < 0.6 ? 1 : r < 0.85 ? 2 : 3 + Math.floor(next() * 3);
  };
  const list = (search = '') => ({ page: page(), per_page: 10, search });
  const poll = (caller: Caller): MixedRequest => ({
    method: 'GET',
    path: '/api/notifications/active-records',
    caller,
  });
  let sent = 0;
  let writes = 0;
  let assignments = 0;

  function write(): MixedRequest {
    writes += 1;
    if (writes % 2 === 1) {
      return { method: 'POST', path: '/api/tickets/create', caller: pick(callers.agents), body: ticketBody(writes) };
    }
    // Round r of the pool gives each ticket the agent after the one of round r - 1: never its current assignee.
    const k = assignments++;
    const ticket = pool[k % pool.length]!;
    const agent = callers.agents[(k + Math.floor(k / pool.length)) % callers.agents.length]!;
    return { method: 'PATCH', path: `/api/tickets/${ticket}/assign/${agent.id}`, caller: pick(callers.managers) };
  }

  function agentRead(caller: Caller): MixedRequest {
    const r = next();
    if (r < 0.45) return { method: 'POST', path: '/api/tickets', caller, body: list() };
    if (r < 0.6) return { method: 'POST', path: '/api/tickets', caller, body: list(pick(SEARCH_WORDS)) };
    if (r < 0.75) return { method: 'POST', path: `/api/tickets/${pick(['current', 'old'])}`, caller, body: list() };
    if (r < 0.8) return { method: 'GET', path: `/api/${pick(OPTIONS)}/active-records`, caller };
    return poll(caller);
  }

  function managerRead(caller: Caller): MixedRequest {
    const r = next();
    if (r < 0.35) return { method: 'POST', path: '/api/general-tickets', caller, body: list() };
    if (r < 0.6) return { method: 'POST', path: '/api/general-tickets', caller, body: list(pick(SEARCH_WORDS)) };
    if (r < 0.7) return { method: 'POST', path: `/api/tickets/${pick(['current', 'old'])}`, caller, body: list() };
    if (r < 0.85) return { method: 'POST', path: `/api/${pick(CATALOGUES)}`, caller, body: list() };
    return poll(caller);
  }

  return (): MixedRequest => {
    sent += 1;
    if (sent % WRITE_EVERY === 0) return write();
    return next() < 0.65 ? agentRead(pick(callers.agents)) : managerRead(pick(callers.managers));
  };
}

async function cannonMixed(base: string, csrf: string, nextRequest: () => MixedRequest, seconds: number) {
  const result = await autocannon({
    url: base,
    connections: 10,
    duration: seconds,
    requests: [
      {
        setupRequest: (request: Record<string, unknown>) => {
          const r = nextRequest();
          return {
            ...request,
            method: r.method,
            path: r.path,
            headers: {
              authorization: `Bearer ${r.caller.token}`,
              ...(r.body === undefined ? {} : { 'content-type': 'application/json' }),
              ...(r.method === 'PATCH' ? { 'x-csrf-token': csrf } : {}),
            },
            body: r.body === undefined ? undefined : JSON.stringify(r.body),
          };
        },
      },
    ],
  });
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

export type MixedRow = Record<string, string | number>;

/** Measured runs of the workload, each in a server of its own. */
const ROUNDS = 2;

/** Runs the mixed workload on a prepared database and returns its rows (req/s, % of the bare route, server CPU per request). */
export async function runMixed(options: {
  dialect: 'sqlite' | 'postgres';
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string;
  seconds: number;
  bare: () => Promise<number>;
  /** Serving processes (`WORKERS`), one measurement each; more than one on PostgreSQL only. */
  workers?: number[];
}): Promise<MixedRow[]> {
  const rows: MixedRow[] = [];
  // Signed in once: every server of the run shares the signing key, so the tokens stay valid.
  let callers: Callers | undefined;
  // The bare route before and after each measurement (the one between two serves both).
  let bareBefore = await options.bare();
  for (const workers of options.workers ?? [1]) {
    const runs: { rps: number; cpuPerRequest: number; errors: number }[] = [];
    const processes = workers === 1 ? '1 process' : `${workers} processes (WORKERS)`;
    for (let round = 0; round < ROUNDS; round++) {
      const server = await startServer({
        dataDir: options.dataDir,
        databaseUrl: options.databaseUrl,
        jwtSecret: options.jwtSecret,
        env: { WORKERS: String(workers) },
      });
      try {
        callers ??= await signInCallers(server.base);
        const pool = await assignmentPool(server.base, callers.managers[0]!);
        const { json } = await call(server.base, undefined, 'GET', '/api/csrf-token');
        const csrf = (json as unknown as { token: string }).token;
        // Warm-up (JIT, caches, pool, every process started) on a sequence of its own; the measured one starts afresh.
        await cannonMixed(server.base, csrf, workload(callers, pool.slice(0, pool.length / 4)), 3);
        const cpuBefore = treeCpuMs(server.child.pid!);
        const load = await cannonMixed(
          server.base,
          csrf,
          workload(callers, pool.slice(pool.length / 4)),
          options.seconds,
        );
        const cpuPerRequest = (treeCpuMs(server.child.pid!) - cpuBefore) / Math.max(1, load.requests);
        runs.push({ rps: load.rps, cpuPerRequest, errors: load.errors });
        console.log(
          `  mixed workload, ${processes}: ${Math.round(load.rps)} req/s, ${cpuPerRequest.toFixed(2)} ms CPU/req, ${load.errors} errors (${callers.agents.length + callers.managers.length} callers)`,
        );
      } finally {
        await server.stop();
      }
    }
    const bareAfter = await options.bare();
    const bareRps = (bareBefore + bareAfter) / 2;
    bareBefore = bareAfter;
    const mean = (of: (r: (typeof runs)[number]) => number) => runs.reduce((sum, r) => sum + of(r), 0) / runs.length;
    rows.push(
      {
        dialect: options.dialect,
        endpoint: `mixed workload, ${processes}: bare Fastify route (mean of before and after)`,
        'req/s (10 conn)': Math.round(bareRps),
        '% of bare': '100%',
      },
      {
        dialect: options.dialect,
        endpoint: `mixed workload, ${processes} (runs: ${runs.map((r) => Math.round(r.rps)).join(', ')} req/s)`,
        'req/s (10 conn)': Math.round(mean((r) => r.rps)),
        '% of bare': `${((100 * mean((r) => r.rps)) / bareRps).toFixed(1)}%`,
        'server CPU ms/req': mean((r) => r.cpuPerRequest).toFixed(2),
        errors: mean((r) => r.errors),
      },
    );
  }
  return rows;
}
