import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as caseInsensitiveAccounts } from '../src/db/migrations/0004-case-insensitive-accounts.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { createTestApp, dialects, type TestApp } from './helper.ts';

describe.each(dialects)('hardening on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let agente: string;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, agente] = (await Promise.all(['admin', 'agente'].map((u) => t.login(u)))) as [string, string];
    for (const u of await t.services.database.db.selectFrom('users').select(['id', 'username']).execute()) {
      ids[u.username] = u.id;
    }
  });
  afterAll(() => t?.close());

  const expectValidationError = (res: { statusCode: number; body: string }) => {
    expect(res.statusCode, res.body).toBe(422);
    const body = JSON.parse(res.body);
    expect(body.status).toBe(false);
    expect(body.message).toBe('Error de validación');
    return body as { errors: Record<string, string[]> };
  };

  describe('every error reply serializes (item 1)', () => {
    it.each([
      ['no body', undefined],
      ['a null current password', { current_password: null }],
      ['a number', { current_password: 12345, new_password: 'x', password_confirmation: 'x' }],
      ['a new password over 128 characters', { current_password: 'a', new_password: 'x'.repeat(129) }],
      [
        'a control character',
        { current_password: 'a\u0000', new_password: 'Nueva2025', password_confirmation: 'Nueva2025' },
      ],
    ])('password change with %s answers a Spanish 422, not a 500', async (_label, body) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/users/change-password/${ids.agente}`,
        headers: { authorization: `Bearer ${agente}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      expect([400, 422]).toContain(res.statusCode);
      expect(res.json().status).toBe(false);
      expect(res.json().message).toMatch(/validación|JSON/);
    });

    it('keeps the form title on the password rules it checks itself', async () => {
      const res = await t.call(agente, 'POST', `/api/users/change-password/${ids.agente}`, {});
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ status: false, title: 'Por favor, completa todos los campos' });
    });

    it('documents one error schema for every error status of every operation', async () => {
      const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as {
        paths: Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>>;
        components: { responses: Record<string, { content?: unknown }> };
      };
      const shapes = new Set<string>();
      for (const operations of Object.values(doc.paths)) {
        for (const op of Object.values(operations)) {
          expect(op.responses['500']).toBeDefined();
          for (const [code, response] of Object.entries(op.responses)) {
            if (Number(code) < 400) continue;
            const name = response.$ref?.replace('#/components/responses/', '') ?? '';
            expect(doc.components.responses[name], code).toBeDefined();
            shapes.add(JSON.stringify(doc.components.responses[name]!.content));
          }
        }
      }
      expect(shapes.size).toBe(1);
    });
  });

  describe('ids within the integer range (item 2)', () => {
    it.each(['2147483648', '99999999999', '-1', '0', '1e30', 'abc'])('the path id %s gets a 422', async (id) => {
      expectValidationError(await t.call(admin, 'GET', `/api/areas/${id}`));
      expectValidationError(await t.call(admin, 'PATCH', `/api/roles/${id}/change-status`, { status_id: 2 }));
      expectValidationError(await t.call(admin, 'GET', `/api/users/laboral-information/${id}`));
    });

    it('accepts the largest id (404 when absent) and refuses one beyond it in bodies and queries', async () => {
      expect((await t.call(admin, 'GET', '/api/areas/2147483647')).statusCode).toBe(404);
      const body = expectValidationError(
        await t.call(admin, 'POST', '/api/sections/create', { name: 'seccion_x', route_id: 2147483648 }),
      );
      expect(Object.keys(body.errors)).toEqual(['route_id']);
      expectValidationError(
        await t.call(admin, 'POST', '/api/sections/create', { name: 'seccion_x', route_id: '2147483648' }),
      );
      expectValidationError(await t.call(admin, 'GET', '/api/activities?ticket_id=2147483648'));
      expectValidationError(await t.call(admin, 'GET', '/api/notifications/all-data?before_id=2147483648'));
      expectValidationError(await t.call(admin, 'POST', '/api/notifications/view', { ids: [2147483648] }));
    });
  });

  describe('control characters (item 3)', () => {
    it('are dropped from list searches, which then answer normally', async () => {
      for (const list of ['areas', 'users', 'roles', 'sections-permission']) {
        const res = await t.call(admin, 'POST', `/api/${list}`, { search: '\u0000' });
        expect(res.statusCode, `${list} ${res.body}`).toBe(200);
      }
      const search = await t.call(admin, 'POST', '/api/areas', { search: 'Alm\u0000ac\u001bén' });
      expect(search.statusCode).toBe(200);
      const ticket = await t.services.database.db.selectFrom('tickets').select('id').executeTakeFirstOrThrow();
      const activities = await t.call(admin, 'GET', `/api/activities?ticket_id=${ticket.id}&search=%00`);
      expect(activities.statusCode, activities.body).toBe(200);
      expect((await t.call(admin, 'POST', '/api/general-tickets', { search: 'a\u0000' })).statusCode).not.toBe(500);
    });

    it('are refused in every other text input with a Spanish message', async () => {
      const route = await t.call(admin, 'POST', '/api/check-permission', { route_name: 'tickets\u0000' });
      expect(expectValidationError(route).errors.route_name).toEqual(['Contiene caracteres de control no permitidos.']);
      expectValidationError(await t.call(admin, 'POST', '/api/areas/create', { name: 'Alma\u0000cén' }));
      expectValidationError(await t.call(null, 'POST', '/api/login', { username: 'admin\u0000', password: 'x' }));
      expectValidationError(
        await t.call(null, 'POST', '/api/password/reset-password', {
          email: 'agente@portal.local',
          reset_token: 'abc\u0000',
          password: 'Nueva2025',
          password_confirmation: 'Nueva2025',
        }),
      );
    });
  });

  describe('an update changes only the fields it is given (item 5)', () => {
    /** A fresh, deactivated record of each of the twelve resources, and the body of an update that renames it. */
    async function deactivated(resource: string, body: Record<string, unknown>) {
      const created = await t.call(admin, 'POST', `/api/${resource}/create`, body);
      expect(created.statusCode, created.body).toBe(201);
      const { id } = created.json().data;
      const off = await t.call(admin, 'PATCH', `/api/${resource}/${id}/change-status`, { status_id: 2 });
      expect(off.json().data.status_id).toBe(2);
      return off.json().data as Record<string, unknown> & { id: number };
    }
    const unique = () =>
      Math.random()
        .toString(36)
        .replace(/[^a-z]/g, '')
        .slice(0, 6);

    it.each(['areas', 'categories', 'projects', 'difficulties', 'groups', 'priority-types'])(
      '%s: renaming a deactivated record keeps it inactive',
      async (resource) => {
        const record = await deactivated(resource, { name: `Prueba ${unique()}` });
        const res = await t.call(admin, 'PUT', `/api/${resource}/update/${record.id}`, { name: `Otro ${unique()}` });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data.status_id).toBe(2);
      },
    );

    it('ticket statuses, roles and routes keep status, stage and supervisor flag', async () => {
      const status = await deactivated('ticket-statuses', { name: `Prueba ${unique()}`, stage: 'closed' });
      const s = await t.call(admin, 'PUT', `/api/ticket-statuses/update/${status.id}`, { name: `Otro ${unique()}` });
      expect(s.json().data).toMatchObject({ status_id: 2, stage: 'closed' });

      const role = await deactivated('roles', { name: `Prueba ${unique()}`, is_supervisor: 1 });
      const r = await t.call(admin, 'PUT', `/api/roles/update/${role.id}`, { name: 'Otro nombre' });
      expect(r.json().data).toMatchObject({ status_id: 2, is_supervisor: 1, name: 'Otro nombre' });

      const route = await deactivated('routes', { name: `ruta_${unique()}` });
      const ro = await t.call(admin, 'PUT', `/api/routes/update/${route.id}`, { name: `otra_${unique()}` });
      expect(ro.json().data.status_id).toBe(2);
    });

    it('sections and both permission tables keep status and flags', async () => {
      const route = (await t.call(admin, 'POST', '/api/routes/create', { name: `ruta_${unique()}` })).json().data;
      const section = await deactivated('sections', { name: `sec_${unique()}`, route_id: route.id });
      const se = await t.call(admin, 'PUT', `/api/sections/update/${section.id}`, {
        name: `sec_${unique()}`,
        route_id: route.id,
      });
      expect(se.json().data.status_id).toBe(2);

      const role = (await t.call(admin, 'POST', '/api/roles/create', { name: `Rol ${unique()}` })).json().data;
      const routePermission = await deactivated('routes-permission', { route_id: route.id, role_id: role.id });
      const rp = await t.call(admin, 'PUT', `/api/routes-permission/update/${routePermission.id}`, {
        route_id: route.id,
        role_id: role.id,
      });
      expect(rp.json().data.status_id).toBe(2);

      const sectionPermission = await deactivated('sections-permission', {
        section_id: section.id,
        role_id: role.id,
        r: 1,
        w: 1,
        u: 0,
        d: 1,
      });
      const sp = await t.call(admin, 'PUT', `/api/sections-permission/update/${sectionPermission.id}`, {
        role_id: role.id,
      });
      expect(sp.json().data).toMatchObject({ status_id: 2, r: 1, w: 1, u: 0, d: 1 });
      // A later update that gives a flag changes only that flag.
      const sp2 = await t.call(admin, 'PUT', `/api/sections-permission/update/${sectionPermission.id}`, {
        role_id: role.id,
        u: 1,
      });
      expect(sp2.json().data).toMatchObject({ status_id: 2, r: 1, w: 1, u: 1, d: 1 });
    });

    it('users: editing a deactivated user keeps them inactive', async () => {
      const user = await deactivated('users', {
        name: 'Prueba',
        last_name: 'Inactiva',
        username: `inactiva_${unique()}`,
        email: `inactiva.${unique()}@portal.local`,
        password: 'PortalDemo1',
        role_id: 3,
      });
      const res = await t.call(admin, 'PUT', `/api/users/update/${user.id}`, {
        name: 'Otro',
        last_name: 'Nombre',
        username: user.username,
        email: user.email,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.status_id).toBe(2);
    });

    it('still refuses an update that would duplicate a unique pair given only in part', async () => {
      const route = (await t.call(admin, 'POST', '/api/routes/create', { name: `ruta_${unique()}` })).json().data;
      const [a, b] = await Promise.all(
        [1, 2].map(
          async () => (await t.call(admin, 'POST', '/api/roles/create', { name: `Rol ${unique()}` })).json().data,
        ),
      );
      await t.call(admin, 'POST', '/api/routes-permission/create', { route_id: route.id, role_id: a.id });
      const second = (
        await t.call(admin, 'POST', '/api/routes-permission/create', { route_id: route.id, role_id: b.id })
      ).json().data;
      const res = await t.call(admin, 'PUT', `/api/routes-permission/update/${second.id}`, {
        route_id: route.id,
        role_id: a.id,
      });
      expect(expectValidationError(res).errors.role_id).toEqual(['Ya existe un registro con este valor.']);
    });
  });

  describe('e-mail and username unique without regard to case (item 6)', () => {
    it('refuses an e-mail that is a case variant of another user’s, on the profile and in /users', async () => {
      const res = await t.call(agente, 'PUT', `/api/users/update/${ids.agente}`, {
        name: 'Diego',
        last_name: 'Hernández',
        username: 'agente',
        email: 'LUCIA.MARTINEZ@PORTAL.LOCAL',
      });
      expect(expectValidationError(res).errors.email).toEqual(['Ya existe un registro con este valor.']);
      const agent = await t.services.database.db
        .selectFrom('users')
        .select('email')
        .where('id', '=', ids.agente!)
        .executeTakeFirstOrThrow();
      expect(agent.email).toBe('agente@portal.local');
    });

    it('refuses a username that differs only by case (Admin beside admin)', async () => {
      const res = await t.call(admin, 'POST', '/api/users/create', {
        name: 'Falso',
        last_name: 'Administrador',
        username: 'Admin',
        email: 'otro.admin@portal.local',
        password: 'PortalDemo1',
        role_id: 3,
      });
      expect(expectValidationError(res).errors.username).toEqual(['Ya existe un registro con este valor.']);
      const rename = await t.call(agente, 'PUT', `/api/users/update/${ids.agente}`, {
        name: 'Diego',
        last_name: 'Hernández',
        username: 'SUPERVISOR',
        email: 'agente@portal.local',
      });
      expect(expectValidationError(rename).errors.username).toBeDefined();
    });

    it('stores e-mails trimmed and lower-cased and signs in whatever the case of the username', async () => {
      const res = await t.call(admin, 'POST', '/api/users/create', {
        name: 'Nueva',
        last_name: 'Persona',
        username: 'NuevaPersona',
        email: '  Nueva.Persona@Portal.LOCAL ',
        password: 'PortalDemo1',
        role_id: 3,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({ email: 'nueva.persona@portal.local', username: 'NuevaPersona' });
      for (const typed of ['nuevapersona', 'NUEVAPERSONA', 'NuevaPersona']) {
        const login = await t.call(null, 'POST', '/api/login', { username: typed, password: 'PortalDemo1' });
        expect(login.statusCode, typed).toBe(200);
        expect(login.json().data.user.username).toBe('NuevaPersona');
      }
    });

    it('the database itself refuses case variants (lower() unique indexes)', async () => {
      const now = new Date().toISOString();
      const insert = (username: string, email: string) =>
        t.services.database.db
          .insertInto('users')
          .values({
            name: 'X',
            last_name: 'Y',
            username,
            email,
            password_hash: 'x',
            role_id: 3,
            status_id: 1,
            created_at: now,
            updated_at: now,
          })
          .execute();
      await expect(insert('ADMIN', 'nadie@portal.local')).rejects.toThrow();
      await expect(insert('nadie', 'ADMIN@portal.local')).rejects.toThrow();
    });

    it('migration 0004 reports and resolves existing clashes, then adds the indexes', async () => {
      const { db } = t.services.database;
      await sql`drop index users_username_lower_unique`.execute(db);
      await sql`drop index users_email_lower_unique`.execute(db);
      const now = new Date().toISOString();
      const hash = await hashPassword('PortalDemo1');
      const add = async (username: string, email: string) =>
        (
          await db
            .insertInto('users')
            .values({
              name: 'Duplicado',
              last_name: 'Prueba',
              username,
              email,
              password_hash: hash,
              role_id: 3,
              status_id: 1,
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const twin = await add('Agente', 'LUCIA.MARTINEZ@PORTAL.LOCAL');
      const mixed = await add('mixto', ' Mixto.Caso@Portal.Local ');

      await caseInsensitiveAccounts(db as never, dialect);

      const row = (id: number) =>
        db.selectFrom('users').select(['username', 'email']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(await row(twin)).toEqual({ username: `Agente_${twin}`, email: `lucia.martinez.dup${twin}@portal.local` });
      expect(await row(mixed)).toEqual({ username: 'mixto', email: 'mixto.caso@portal.local' });
      expect(await row(ids.agente!)).toEqual({ username: 'agente', email: 'agente@portal.local' });
      expect(await row(ids.lmartinez!)).toEqual({ username: 'lmartinez', email: 'lucia.martinez@portal.local' });
      const reports = await db
        .selectFrom('audit_log')
        .select(['user_id', 'detail'])
        .where('event', '=', 'migration.duplicate_renamed')
        .orderBy('id')
        .execute();
      expect(reports.map((r) => [r.user_id, JSON.parse(r.detail!).field, JSON.parse(r.detail!).kept_by])).toEqual([
        [twin, 'username', ids.agente],
        [twin, 'email', ids.lmartinez],
      ]);
      // The renamed account can still sign in, by its new name.
      expect(
        (await t.call(null, 'POST', '/api/login', { username: `agente_${twin}`, password: 'PortalDemo1' })).statusCode,
      ).toBe(200);
      await expect(add('MIXTO', 'otra@portal.local')).rejects.toThrow();
    });
  });
});
