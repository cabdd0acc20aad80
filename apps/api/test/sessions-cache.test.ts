import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDatabase } from '../src/db/database.ts';
import { createSiblingApp, createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';
import { listen, openStream, streamTicket } from './notifications-stream-client.ts';

/** How long another process may take to hear of a change (a NOTIFY after commit): at most this. */
const ACROSS_PROCESSES_MS = 1_000;

async function sectionPermissionId(t: TestApp, section: string, roleId: number) {
  const row = await t.services.database.db
    .selectFrom('sections_permission as sp')
    .innerJoin('sections as s', 's.id', 'sp.section_id')
    .select('sp.id')
    .where('s.name', '=', section)
    .where('sp.role_id', '=', roleId)
    .executeTakeFirstOrThrow();
  return row.id;
}

const newTicket = (name: string) => ticketBody(name, 'Creado para comprobar las listas en memoria');

async function userId(t: TestApp, username: string) {
  const row = await t.services.database.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** On PostgreSQL nothing is kept for a moment after a write of this process (notifications.bus.ts). */
const untilCaching = (t: TestApp) =>
  expect.poll(() => t.services.bus.canCache(), { timeout: 5_000, interval: 20 }).toBe(true);

/** The SQL statements run while `action` runs. */
async function queriesDuring(t: TestApp, action: () => Promise<void>): Promise<string[]> {
  const queries: string[] = [];
  const executor = t.services.database.db.getExecutor() as unknown as {
    executeQuery: (...args: unknown[]) => Promise<unknown>;
  };
  const original = executor.executeQuery.bind(executor);
  executor.executeQuery = (...args: unknown[]) => {
    queries.push((args[0] as { sql: string }).sql);
    return original(...args);
  };
  try {
    await action();
  } finally {
    executor.executeQuery = original;
  }
  return queries;
}

describe.each(dialects)('sessions and grants held in memory on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.login('admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers repeated requests from memory: no session or grants query per request', async () => {
    const token = await t.login('supervisor');
    // Settled: the start's background work (the seeded references' extraction) has written, and
    // the moment after a write of this process, when nothing is served from memory, is over.
    await t.services.referenceReextraction.idle();
    await vi.waitFor(() => expect(t.services.bus.canCache()).toBe(true), { timeout: 5_000 });
    expect((await t.call(token, 'POST', '/api/areas', {})).statusCode).toBe(200);
    const queries: string[] = [];
    const { db } = t.services.database;
    const executor = db.getExecutor() as unknown as { executeQuery: (...args: unknown[]) => Promise<unknown> };
    const original = executor.executeQuery.bind(executor);
    executor.executeQuery = (...args: unknown[]) => {
      queries.push((args[0] as { sql: string }).sql);
      return original(...args);
    };
    try {
      expect((await t.call(token, 'GET', '/api/statuses')).statusCode).toBe(200);
      expect((await t.call(token, 'GET', '/api/areas/1')).statusCode).toBe(200);
    } finally {
      executor.executeQuery = original;
    }
    expect(queries.some((q) => q.includes('"areas"'))).toBe(true);
    expect(queries.filter((q) => /revoked_tokens|"users"|sections_permission/.test(q))).toEqual([]);
  });

  it('answers a catalogue list from memory until a write changes what it shows (its table or one it names)', async () => {
    const token = await t.login('supervisor');
    const names = async (resource: string, search: string) =>
      (
        (await t.call(admin, 'POST', `/api/${resource}`, { search, per_page: 100 })).json() as {
          data: { name: string }[];
        }
      ).data.map((r) => r.name);
    await untilCaching(t);
    const before = (await t.call(token, 'POST', '/api/areas', {})).body;
    const queries = await queriesDuring(t, async () => {
      expect((await t.call(token, 'POST', '/api/areas', {})).body).toBe(before);
    });
    expect(queries).toEqual([]);

    // Its own table.
    expect((await t.call(admin, 'POST', '/api/areas/create', { name: 'Área en memoria' })).statusCode).toBe(201);
    expect(await names('areas', 'en memoria')).toEqual(['Área en memoria']);
    expect((await t.call(token, 'POST', '/api/areas', {})).body).not.toBe(before);

    // A table the list names: each section shows its route's name.
    const section = async () =>
      (
        (await t.call(admin, 'POST', '/api/sections', { per_page: 100 })).json() as {
          data: { name: string; route: { id: number; name: string } }[];
        }
      ).data[0]!;
    const { name: sectionName, route } = await section();
    expect((await t.call(admin, 'PUT', `/api/routes/update/${route.id}`, { name: 'Ruta renombrada' })).statusCode).toBe(
      200,
    );
    try {
      expect(await section()).toMatchObject({ name: sectionName, route: { id: route.id, name: 'Ruta renombrada' } });
    } finally {
      await t.call(admin, 'PUT', `/api/routes/update/${route.id}`, { name: route.name });
    }
    expect((await section()).route.name).toBe(route.name);

    // Groups, which no ticket names, too.
    expect(await names('groups', 'Grupo en memoria')).toEqual([]);
    expect((await t.call(admin, 'POST', '/api/groups/create', { name: 'Grupo en memoria' })).statusCode).toBe(201);
    expect(await names('groups', 'Grupo en memoria')).toEqual(['Grupo en memoria']);
  });

  it('reads ticket lists from the database on every request: a write made outside this process shows at once', async () => {
    const list = (token: string, url: string) =>
      t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload: {} });
    const firstIds = async (token: string, url: string) =>
      ((await list(token, url)).json() as { data: { id: number; name: string }[] }).data;
    const agente = await t.login('agente');
    await untilCaching(t);
    const before = (await list(admin, '/api/general-tickets')).body;
    expect(
      (await queriesDuring(t, async () => expect((await list(admin, '/api/general-tickets')).body).toBe(before)))
        .length,
    ).toBeGreaterThan(0);

    const created = await t.call(admin, 'POST', '/api/tickets/create', newTicket('Ticket recién escrito'));
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { data: { id: number } }).data.id;
    expect((await firstIds(admin, '/api/general-tickets'))[0]?.id).toBe(id);

    // Each person's own lists: assigning the ticket puts it in the assignee's Mis Tickets.
    expect((await firstIds(agente, '/api/tickets')).map((r) => r.id)).not.toContain(id);
    const assigned = await t.call(admin, 'PATCH', `/api/tickets/${id}/assign/${await userId(t, 'agente')}`, {});
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect((await firstIds(agente, '/api/tickets'))[0]?.id).toBe(id);

    // A write through a connection of its own (a script, psql) announces nothing to this process.
    const outside = createDatabase({ databaseUrl: t.config.databaseUrl, sqliteFile: t.config.sqliteFile });
    try {
      await outside.db.updateTable('tickets').set({ name: 'Renombrado por fuera' }).where('id', '=', id).execute();
    } finally {
      await outside.destroy();
    }
    expect((await firstIds(admin, '/api/general-tickets'))[0]?.name).toBe('Renombrado por fuera');
  });

  it('refuses at once a token after logout, a deactivated user, a password change and a lost permission', async () => {
    const token = await t.login('supervisor');
    expect((await t.call(token, 'POST', '/api/areas', {})).statusCode).toBe(200);

    // A lost permission.
    const perm = await sectionPermissionId(t, 'ar_main', 2);
    expect(
      (await t.call(admin, 'PATCH', `/api/sections-permission/${perm}/change-status`, { status_id: 2 })).statusCode,
    ).toBe(200);
    expect((await t.call(token, 'POST', '/api/areas', {})).statusCode).toBe(403);
    await t.call(admin, 'PATCH', `/api/sections-permission/${perm}/change-status`, { status_id: 1 });
    expect((await t.call(token, 'POST', '/api/areas', {})).statusCode).toBe(200);

    // Logout.
    const other = await t.login('supervisor');
    expect((await t.call(other, 'GET', '/api/statuses')).statusCode).toBe(200);
    expect((await t.call(other, 'POST', '/api/logout')).statusCode).toBe(200);
    expect((await t.call(other, 'GET', '/api/statuses')).statusCode).toBe(401);
    expect((await t.call(token, 'GET', '/api/statuses')).statusCode).toBe(200);

    // A password change ends the other sessions.
    const mflores = await t.login('mflores');
    const mfloresOther = await t.login('mflores');
    expect((await t.call(mfloresOther, 'GET', '/api/statuses')).statusCode).toBe(200);
    const changed = await t.call(mflores, 'POST', `/api/users/change-password/${await userId(t, 'mflores')}`, {
      current_password: 'PortalDemo1',
      new_password: 'OtraClave2025',
      password_confirmation: 'OtraClave2025',
    });
    expect(changed.statusCode).toBe(200);
    expect((await t.call(mfloresOther, 'GET', '/api/statuses')).statusCode).toBe(401);

    // Deactivation.
    const jcastillo = await t.login('jcastillo');
    expect((await t.call(jcastillo, 'GET', '/api/statuses')).statusCode).toBe(200);
    const id = await userId(t, 'jcastillo');
    expect((await t.call(admin, 'PATCH', `/api/users/${id}/change-status`, { status_id: 2 })).statusCode).toBe(200);
    expect((await t.call(jcastillo, 'GET', '/api/statuses')).statusCode).toBe(401);
    await t.call(admin, 'PATCH', `/api/users/${id}/change-status`, { status_id: 1 });
  });

  it('ends a live stream at once when its token is revoked, without waiting for the heartbeat', async () => {
    const baseUrl = await listen(t);
    const token = await t.login('agente');
    const stream = await openStream(baseUrl, { ticket: await streamTicket(t, token) });
    await stream.waitFor((e) => e.event === 'ready');
    const loggedOutAt = performance.now();
    expect((await t.call(token, 'POST', '/api/logout')).statusCode).toBe(200);
    const end = await stream.waitFor((e) => e.event === 'end');
    expect(end.data).toEqual({ reason: 'session' });
    expect(end.at - loggedOutAt).toBeLessThan(ACROSS_PROCESSES_MS);
    await stream.ended;
  });

  it('ends a live stream at once when its user is deactivated', async () => {
    const baseUrl = await listen(t);
    const token = await t.login('lmartinez');
    const stream = await openStream(baseUrl, { ticket: await streamTicket(t, token) });
    await stream.waitFor((e) => e.event === 'ready');
    const id = await userId(t, 'lmartinez');
    expect((await t.call(admin, 'PATCH', `/api/users/${id}/change-status`, { status_id: 2 })).statusCode).toBe(200);
    const end = await stream.waitFor((e) => e.event === 'end');
    expect(end.data).toEqual({ reason: 'session' });
    await t.call(admin, 'PATCH', `/api/users/${id}/change-status`, { status_id: 1 });
  });
});

/** Two API processes on one PostgreSQL database: what one changes, the other refuses at once (LISTEN/NOTIFY). */
describe('sessions and grants across two processes on one PostgreSQL database', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: string;
  /** A's LISTEN connection (B's is not open yet when it is read). */
  let aListenPid: number;
  beforeAll(async () => {
    a = await createTestApp('postgres');
    const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity
      where application_name = 'portal-notifications' and datname = current_database()`.execute(a.services.database.db);
    expect(rows).toHaveLength(1);
    aListenPid = rows[0]!.pid;
    b = await createSiblingApp(a);
    admin = await a.login('admin');
    // B listens before the test starts (onReady connects the LISTEN connection).
    for (let i = 0; i < 200 && !b.services.bus.canCache(); i += 1) await new Promise((r) => setTimeout(r, 10));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const refusedOnB = (token: string, url: string, method: 'GET' | 'POST', status: number) =>
    expect
      .poll(async () => (await b.call(token, method, url, method === 'POST' ? {} : undefined)).statusCode, {
        timeout: ACROSS_PROCESSES_MS,
        interval: 5,
      })
      .toBe(status);

  it('a token revoked on A is refused by B', async () => {
    const token = await a.login('supervisor');
    expect((await b.call(token, 'GET', '/api/statuses')).statusCode).toBe(200);
    expect((await b.call(token, 'GET', '/api/statuses')).statusCode).toBe(200);
    expect(b.services.bus.canCache()).toBe(true); // B answers from memory: only the NOTIFY can tell it
    expect((await a.call(token, 'POST', '/api/logout')).statusCode).toBe(200);
    await refusedOnB(token, '/api/statuses', 'GET', 401);
  });

  it('a permission taken away on A is refused by B', async () => {
    const token = await a.login('supervisor');
    expect((await b.call(token, 'POST', '/api/areas', {})).statusCode).toBe(200);
    const perm = await sectionPermissionId(a, 'ar_main', 2);
    expect(
      (await a.call(admin, 'PATCH', `/api/sections-permission/${perm}/change-status`, { status_id: 2 })).statusCode,
    ).toBe(200);
    try {
      await refusedOnB(token, '/api/areas', 'POST', 403);
    } finally {
      await a.call(admin, 'PATCH', `/api/sections-permission/${perm}/change-status`, { status_id: 1 });
    }
    await expect.poll(async () => (await b.call(token, 'POST', '/api/areas', {})).statusCode).toBe(200);
  });

  it('a user deactivated on A is refused by B, and a role deactivated on A too', async () => {
    const token = await a.login('agente');
    expect((await b.call(token, 'GET', '/api/statuses')).statusCode).toBe(200);
    const id = await userId(a, 'agente');
    expect((await a.call(admin, 'PATCH', `/api/users/${id}/change-status`, { status_id: 2 })).statusCode).toBe(200);
    await refusedOnB(token, '/api/statuses', 'GET', 401);
    await a.call(admin, 'PATCH', `/api/users/${id}/change-status`, { status_id: 1 });

    const supervisor = await a.login('supervisor');
    expect((await b.call(supervisor, 'GET', '/api/statuses')).statusCode).toBe(200);
    expect((await a.call(admin, 'PATCH', '/api/roles/2/change-status', { status_id: 2 })).statusCode).toBe(200);
    try {
      await refusedOnB(supervisor, '/api/statuses', 'GET', 401);
    } finally {
      await a.call(admin, 'PATCH', '/api/roles/2/change-status', { status_id: 1 });
    }
  });

  it("B's catalogue lists show at once what A wrote: a group, a new user, a renamed area", async () => {
    const listedOnB = (resource: string, search: string) =>
      expect.poll(
        async () =>
          (
            (await b.call(admin, 'POST', `/api/${resource}`, { search })).json() as { data: { name: string }[] }
          ).data.map((r) => r.name),
        { timeout: ACROSS_PROCESSES_MS, interval: 5 },
      );
    expect((await b.call(admin, 'POST', '/api/groups', { search: 'Grupo de A' })).json().data).toEqual([]);
    expect((await a.call(admin, 'POST', '/api/groups/create', { name: 'Grupo de A' })).statusCode).toBe(201);
    await listedOnB('groups', 'Grupo de A').toEqual(['Grupo de A']);

    expect((await b.call(admin, 'POST', '/api/users', { search: 'Usuaria de A' })).json().data).toEqual([]);
    const created = await a.call(admin, 'POST', '/api/users/create', {
      name: 'Usuaria de A',
      last_name: 'Gómez',
      username: 'usuariaa',
      email: 'usuaria.a@portal.local',
      password: 'Camion2024!',
      role_id: '3',
      status_id: '1',
    });
    expect(created.statusCode, created.body).toBe(201);
    await listedOnB('users', 'Usuaria de A').toEqual(['Usuaria de A']);

    expect((await b.call(admin, 'POST', '/api/areas', { search: 'Área de A' })).json().data).toEqual([]);
    expect((await a.call(admin, 'PUT', '/api/areas/update/1', { name: 'Área de A' })).statusCode).toBe(200);
    try {
      await listedOnB('areas', 'Área de A').toEqual(['Área de A']);
    } finally {
      await a.call(admin, 'PUT', '/api/areas/update/1', { name: 'Almacén' });
    }
  });

  it("B's ticket lists show a ticket created on A once A's write committed, even while A's LISTEN connection is down", async () => {
    const firstOnB = async () =>
      ((await b.call(admin, 'POST', '/api/general-tickets', {})).json() as { data: { id: number }[] }).data[0]?.id;
    const create = async (name: string) => {
      const created = await a.call(admin, 'POST', '/api/tickets/create', newTicket(name));
      expect(created.statusCode, created.body).toBe(201);
      return (created.json() as { data: { id: number } }).data.id;
    };
    await firstOnB();
    const id = await create('Ticket escrito en A');
    expect(await firstOnB()).toBe(id);

    // A cannot announce its change to anyone: B still lists it, as it reads its lists from the database.
    await sql`select pg_terminate_backend(${aListenPid})`.execute(a.services.database.db);
    await expect.poll(() => a.services.bus.canCache(), { interval: 5 }).toBe(false);
    expect(b.services.bus.canCache()).toBe(true);
    await firstOnB();
    const unannounced = await create('Ticket escrito en A sin su LISTEN');
    expect(await firstOnB()).toBe(unannounced);
    await expect.poll(() => a.services.bus.canCache(), { timeout: 5_000 }).toBe(true);
  });

  it("ends B's live streams of a token revoked on A at once", async () => {
    const baseB = await listen(b);
    const token = await a.login('mflores');
    const stream = await openStream(baseB, { ticket: await streamTicket(b, token) });
    await stream.waitFor((e) => e.event === 'ready');
    const loggedOutAt = performance.now();
    expect((await a.call(token, 'POST', '/api/logout')).statusCode).toBe(200);
    const end = await stream.waitFor((e) => e.event === 'end');
    expect(end.data).toEqual({ reason: 'session' });
    expect(end.at - loggedOutAt).toBeLessThan(ACROSS_PROCESSES_MS);
    await stream.ended;
  });

  it('reads the database while its LISTEN connection is down, and forgets everything once it is back', async () => {
    const token = await a.login('supervisor');
    expect((await b.call(token, 'GET', '/api/statuses')).statusCode).toBe(200);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'portal-notifications' and datname = current_database()`.execute(a.services.database.db);
    await expect.poll(() => b.services.bus.canCache(), { interval: 5 }).toBe(false);
    // Revoked while B cannot hear of it: B reads the database instead of its memory.
    expect((await a.call(token, 'POST', '/api/logout')).statusCode).toBe(200);
    expect((await b.call(token, 'GET', '/api/statuses')).statusCode).toBe(401);
    await expect.poll(() => b.services.bus.canCache(), { timeout: 5_000 }).toBe(true);
    expect((await b.call(token, 'GET', '/api/statuses')).statusCode).toBe(401);
  });
});
