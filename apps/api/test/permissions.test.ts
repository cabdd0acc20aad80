import { catalogResourceNames, permissionFlags, SECTIONS, type PermissionFlag } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../src/db/database.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { createTestApp, dialects, type TestApp } from './helper.ts';

/** A valid body for each resource's create and update, so only the permission can refuse it. */
const bodies: Record<string, Record<string, unknown>> = {
  areas: { name: 'Zona Nueva' },
  categories: { name: 'Zona Nueva' },
  projects: { name: 'Zona Nueva' },
  difficulties: { name: 'Zona Nueva' },
  groups: { name: 'Zona Nueva' },
  'priority-types': { name: 'Zona Nueva' },
  'ticket-statuses': { name: 'Zona Nueva', stage: 'open' },
  roles: { name: 'Zona Nueva' },
  routes: { name: 'zona-nueva' },
  sections: { name: 'zona_nueva', route_id: 1 },
  'routes-permission': { route_id: 1, role_id: 1 },
  'sections-permission': { section_id: 1, role_id: 1, r: 1 },
  users: {
    name: 'Zona',
    last_name: 'Nueva',
    username: 'zona_nueva',
    email: 'zona@portal.local',
    role_id: 3,
    password: 'ZonaNueva1',
  },
};

/** The request each flag guards on a resource. */
const requestFor = (resource: string, flag: PermissionFlag) =>
  ({
    r: ['POST', `/api/${resource}`, { page: 1, per_page: 5 }],
    w: ['POST', `/api/${resource}/create`, bodies[resource]],
    u: ['PUT', `/api/${resource}/update/1`, bodies[resource]],
    d: ['PATCH', `/api/${resource}/1/change-status`, { status_id: 2 }],
  })[flag] as ['POST' | 'PUT' | 'PATCH', string, Record<string, unknown>];

describe.each(dialects)('permissions on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let agente: string;
  /** Tokens of users whose role holds every flag on every section except one. */
  const lacking = {} as Record<PermissionFlag, string>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.login('admin');
    agente = await t.login('agente');
    const { db } = t.services.database;
    const hash = await hashPassword('Matrix12345');
    const now = nowIso();
    const sections = await db.selectFrom('sections').select(['id', 'route_id']).execute();
    const routes = await db.selectFrom('routes').select('id').execute();
    for (const flag of permissionFlags) {
      const role = await db
        .insertInto('roles')
        .values({ name: `Sin ${flag}`, is_supervisor: 0, status_id: 1, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const route of routes) {
        await db
          .insertInto('routes_permission')
          .values({ route_id: route.id, role_id: role.id, status_id: 1, created_at: now, updated_at: now })
          .execute();
      }
      for (const section of sections) {
        const flags = Object.fromEntries(permissionFlags.map((f) => [f, f === flag ? 0 : 1])) as Record<
          PermissionFlag,
          number
        >;
        await db
          .insertInto('sections_permission')
          .values({
            section_id: section.id,
            role_id: role.id,
            ...flags,
            status_id: 1,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
      await db
        .insertInto('users')
        .values({
          name: 'Matriz',
          last_name: flag,
          username: `sin_${flag}`,
          email: `sin_${flag}@portal.local`,
          password_hash: hash,
          role_id: role.id,
          status_id: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      lacking[flag] = await t.login(`sin_${flag}`, 'Matrix12345');
    }
  });
  afterAll(() => t?.close());

  it('check-permission returns the role flags of every section of a route, ignoring ids in the body', async () => {
    const res = await t.call(agente, 'POST', '/api/check-permission', {
      user_id: 1,
      role_id: 1,
      route_name: 'record-tickets',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: true,
      message: 'Permisos obtenidos.',
      sections: [
        { name: 'current_tickets', r: 1, w: 0, u: 0, d: 0 },
        { name: 'old_tickets', r: 1, w: 0, u: 0, d: 0 },
      ],
    });
    const areas = await t.call(agente, 'POST', '/api/check-permission', {
      user_id: 1,
      role_id: 1,
      route_name: '/areas',
    });
    expect(areas.json().sections).toEqual([{ name: 'ar_main', r: 0, w: 0, u: 0, d: 0 }]);
    const full = await t.call(admin, 'POST', '/api/check-permission', { route_name: 'routes' });
    expect(full.json().sections.map((s: { name: string }) => s.name)).toEqual([
      'rol_main',
      'ro_main',
      'rop_main',
      'se_main',
      'sepe_main',
    ]);
    expect(full.json().sections.every((s: Record<string, number>) => s.r && s.w && s.u && s.d)).toBe(true);
  });

  it('check-permission answers RouteNotFoundException for an unknown route', async () => {
    const res = await t.call(admin, 'POST', '/api/check-permission', { route_name: 'no-existe' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: false, exception: 'RouteNotFoundException' });
  });

  it("user-permissions lists the routes of the token's role, never of the body's role_id", async () => {
    const res = await t.call(agente, 'POST', '/api/user-permissions', { role_id: 1 });
    expect(res.json()).toEqual({ status: true, routes: ['tickets', 'record-tickets', 'queues', 'kanban'] });
    const adminRoutes = (await t.call(admin, 'POST', '/api/user-permissions', {})).json().routes;
    expect(adminRoutes).toEqual(expect.arrayContaining(['tickets', 'areas', 'users', 'routes', 'workload']));
  });

  it('every protected endpoint refuses a request without a token (401)', async () => {
    const protectedRoutes = t.app.routeAccess.filter((r) => r.access !== 'public');
    expect(protectedRoutes.length).toBeGreaterThan(60);
    for (const route of protectedRoutes) {
      const url = route.url.replace(/:[a-zA-Z]+/g, '1');
      const res = await t.app.inject({ method: route.method as 'GET', url, headers: { 'x-csrf-token': t.csrf } });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  describe.each(catalogResourceNames)('%s', (resource) => {
    it.each(permissionFlags)('a role lacking %s is refused (403) and nothing changes', async (flag) => {
      const [method, url, body] = requestFor(resource, flag);
      const table = resource.replace(/-/g, '_') as 'areas';
      const before = await t.services.database.db.selectFrom(table).selectAll().orderBy('id').execute();
      const res = await t.call(lacking[flag], method, url, body);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ status: false, message: 'No tienes permiso para realizar esta acción.' });
      const after = await t.services.database.db.selectFrom(table).selectAll().orderBy('id').execute();
      expect(after).toEqual(before);
      // The same user is served where the role holds the flag, so the refusal is the permission's.
      const probe = flag === 'r' ? ['GET', `/api/statuses`] : ['POST', `/api/${resource}`];
      const allowed = await t.call(lacking[flag], probe[0] as 'GET', probe[1]!, flag === 'r' ? undefined : {});
      expect(allowed.statusCode, allowed.body).toBe(200);
    });
  });

  it('role 3 is refused every catalogue write', async () => {
    for (const resource of catalogResourceNames) {
      for (const flag of ['w', 'u', 'd'] as const) {
        const [method, url, body] = requestFor(resource, flag);
        expect((await t.call(agente, method, url, body)).statusCode, `${flag} ${resource}`).toBe(403);
      }
    }
  });

  it('audits every permission refusal', async () => {
    await t.call(agente, 'POST', '/api/areas/create', { name: 'Auditada' });
    const rows = await t.services.database.db
      .selectFrom('audit_log')
      .select(['event', 'detail', 'username'])
      .where('event', '=', 'permission.denied')
      .where('username', '=', 'agente')
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.at(-1)?.detail).toContain(SECTIONS.areas);
  });

  it('a change written straight to the database is seen at once (the grants cache is invalidated)', async () => {
    const { db } = t.services.database;
    const token = await t.login('supervisor');
    const section = await db
      .selectFrom('sections')
      .select('id')
      .where('name', '=', 'gr_main')
      .executeTakeFirstOrThrow();
    expect((await t.call(token, 'POST', '/api/groups', {})).statusCode).toBe(200);
    await db
      .updateTable('sections_permission')
      .set({ r: 0 })
      .where('section_id', '=', section.id)
      .where('role_id', '=', 2)
      .execute();
    try {
      expect((await t.call(token, 'POST', '/api/groups', {})).statusCode).toBe(403);
    } finally {
      await db
        .updateTable('sections_permission')
        .set({ r: 1 })
        .where('section_id', '=', section.id)
        .where('role_id', '=', 2)
        .execute();
    }
    expect((await t.call(token, 'POST', '/api/groups', {})).statusCode).toBe(200);
  });

  it('a deactivated section permission or route permission takes the access away', async () => {
    const { db } = t.services.database;
    const token = await t.login('supervisor');
    expect((await t.call(token, 'POST', '/api/areas', {})).statusCode).toBe(200);
    const section = await db
      .selectFrom('sections')
      .select('id')
      .where('name', '=', 'ar_main')
      .executeTakeFirstOrThrow();
    const perm = await db
      .selectFrom('sections_permission')
      .select('id')
      .where('section_id', '=', section.id)
      .where('role_id', '=', 2)
      .executeTakeFirstOrThrow();
    expect(
      (await t.call(admin, 'PATCH', `/api/sections-permission/${perm.id}/change-status`, { status_id: 2 })).statusCode,
    ).toBe(200);
    expect((await t.call(token, 'POST', '/api/areas', {})).statusCode).toBe(403);
    expect(
      (await t.call(admin, 'PATCH', `/api/sections-permission/${perm.id}/change-status`, { status_id: 1 })).statusCode,
    ).toBe(200);
    const route = await db
      .selectFrom('routes_permission')
      .select('id')
      .where('route_id', '=', 4)
      .where('role_id', '=', 2)
      .executeTakeFirstOrThrow();
    expect(
      (await t.call(admin, 'PATCH', `/api/routes-permission/${route.id}/change-status`, { status_id: 2 })).statusCode,
    ).toBe(200);
    expect((await t.call(token, 'POST', '/api/areas', {})).statusCode).toBe(403);
  });
});
