import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';

const simpleCatalogs = [
  ['areas', { name: 'Patio de Maniobras' }, { name: 'Patio de Maniobras Sur' }],
  ['categories', { name: 'Auditoría' }, { name: 'Auditoría Interna' }],
  ['projects', { name: 'Ruta Pacífico' }, { name: 'Ruta Pacífico Norte' }],
  ['difficulties', { name: 'Extrema' }, { name: 'Extrema Total' }],
  ['groups', { name: 'Mesa de Control' }, { name: 'Mesa de Control Nocturna' }],
  ['priority-types', { name: 'Inmediata' }, { name: 'Inmediata Crítica' }],
  ['ticket-statuses', { name: 'En revisión', stage: 'started' }, { name: 'En revisión final', stage: 'closed' }],
  ['roles', { name: 'Auditor', is_supervisor: 0 }, { name: 'Auditor Senior', is_supervisor: '1' }],
  ['routes', { name: 'reportes-mensuales' }, { name: 'reportes_mensuales' }],
] as const;

describe.each(dialects)('catalogue API on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  describe.each(simpleCatalogs)('%s', (resource, createBody, updateBody) => {
    let id: number;

    it('creates a record and answers 201 with status, message and the record', async () => {
      const res = await t.call(admin, 'POST', `/api/${resource}/create`, createBody);
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({ status: true, message: 'Registro creado exitosamente.' });
      expect(body.data).toMatchObject({ name: createBody.name, status_id: 1, status: { id: 1, name: 'Activo' } });
      id = body.data.id;
    });

    it('lists with page, per_page and search', async () => {
      const res = await t.call(admin, 'POST', `/api/${resource}`, {
        page: 1,
        per_page: 5,
        search: createBody.name.slice(0, 6).toLowerCase(),
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['current_page', 'data', 'last_page', 'per_page', 'total']);
      expect(body.current_page).toBe(1);
      expect(body.data.map((r: { id: number }) => r.id)).toContain(id);
      expect(
        body.data.every((r: { name: string }) =>
          r.name.toLowerCase().includes(createBody.name.slice(0, 6).toLowerCase()),
        ),
      ).toBe(true);
    });

    it('refuses a duplicate name with a 422 on the field', async () => {
      const res = await t.call(admin, 'POST', `/api/${resource}/create`, createBody);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        status: false,
        message: 'Error de validación',
        errors: { name: ['Ya existe un registro con este valor.'] },
      });
    });

    it('updates the record', async () => {
      const res = await t.call(admin, 'PUT', `/api/${resource}/update/${id}`, updateBody);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        status: true,
        message: 'Registro actualizado exitosamente.',
        data: { id, name: updateBody.name },
      });
      const shown = await t.call(admin, 'GET', `/api/${resource}/${id}`);
      expect(shown.json().data.name).toBe(updateBody.name);
    });

    it('deactivates and restores through change-status, and options follow', async () => {
      const off = await t.call(admin, 'PATCH', `/api/${resource}/${id}/change-status`, { status_id: 2 });
      expect(off.statusCode).toBe(200);
      expect(off.json().data).toMatchObject({ status_id: 2, status: { id: 2, name: 'Inactivo' } });
      const options = await t.call(admin, 'GET', `/api/${resource}/active-records`);
      expect(options.statusCode).toBe(200);
      expect(options.json().data.map((o: { id: number }) => o.id)).not.toContain(id);
      const on = await t.call(admin, 'PATCH', `/api/${resource}/${id}/change-status`);
      expect(on.json().data.status_id).toBe(1);
      const again = await t.call(admin, 'GET', `/api/${resource}/active-records`);
      expect(again.json().data).toContainEqual({ id, name: updateBody.name });
    });

    it('answers 404 for unknown ids', async () => {
      expect((await t.call(admin, 'PUT', `/api/${resource}/update/999999`, updateBody)).statusCode).toBe(404);
      expect((await t.call(admin, 'PATCH', `/api/${resource}/999999/change-status`)).statusCode).toBe(404);
      expect((await t.call(admin, 'GET', `/api/${resource}/999999`)).statusCode).toBe(404);
    });
  });

  it('paginates in the database with last_page and total', async () => {
    const res = await t.call(admin, 'POST', '/api/areas', { page: 2, per_page: 4, search: '' });
    const body = res.json();
    expect(body.total).toBeGreaterThanOrEqual(9);
    expect(body.last_page).toBe(Math.ceil(body.total / 4));
    expect(body.data).toHaveLength(4);
    const beyond = await t.call(admin, 'POST', '/api/areas', { page: 999, per_page: 4 });
    expect(beyond.json()).toMatchObject({ data: [], current_page: 999, total: body.total });
    // The total counts every match, not just the page's rows; no match at all is 0.
    const searched = await t.call(admin, 'POST', '/api/areas', { page: 1, per_page: 1, search: 'a' });
    expect(searched.json().data).toHaveLength(1);
    expect(searched.json().total).toBeGreaterThan(1);
    const none = await t.call(admin, 'POST', '/api/areas', { page: 1, per_page: 4, search: 'zzzzzz' });
    expect(none.json()).toMatchObject({ data: [], total: 0, last_page: 1 });
  });

  it('serves the statuses', async () => {
    const res = await t.call(admin, 'GET', '/api/statuses');
    expect(res.json()).toEqual({
      status: true,
      data: [
        { id: 1, name: 'Activo' },
        { id: 2, name: 'Inactivo' },
      ],
    });
  });

  it('manages sections with their route and refuses an unknown route id', async () => {
    const created = await t.call(admin, 'POST', '/api/sections/create', { name: 'rep_main', route_id: '1' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ name: 'rep_main', route_id: 1, route: { id: 1, name: 'tickets' } });
    const bad = await t.call(admin, 'POST', '/api/sections/create', { name: 'otra_main', route_id: 424242 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.route_id).toEqual(['El valor seleccionado no existe o está inactivo.']);
  });

  it('manages route and section permissions, flags accepting 1, "1" and booleans, section fixed on update', async () => {
    const role = (await t.call(admin, 'POST', '/api/roles/create', { name: 'Consulta' })).json().data;
    const rp = await t.call(admin, 'POST', '/api/routes-permission/create', { route_id: 4, role_id: role.id });
    expect(rp.statusCode, rp.body).toBe(201);
    expect(rp.json().data).toMatchObject({ route: { id: 4, name: 'areas' }, role: { id: role.id, name: 'Consulta' } });
    const dup = await t.call(admin, 'POST', '/api/routes-permission/create', { route_id: 4, role_id: role.id });
    expect(dup.statusCode).toBe(422);

    const areasSection = (
      await t.services.database.db
        .selectFrom('sections')
        .select('id')
        .where('name', '=', 'ar_main')
        .executeTakeFirstOrThrow()
    ).id;
    const sp = await t.call(admin, 'POST', '/api/sections-permission/create', {
      section_id: areasSection,
      role_id: role.id,
      r: 1,
      w: '1',
      u: false,
      d: '0',
    });
    expect(sp.statusCode, sp.body).toBe(201);
    expect(sp.json().data).toMatchObject({ section: { name: 'ar_main' }, r: 1, w: 1, u: 0, d: 0 });
    const upd = await t.call(admin, 'PUT', `/api/sections-permission/update/${sp.json().data.id}`, {
      section_id: 1,
      role_id: role.id,
      r: 1,
      w: 0,
      u: 1,
      d: 1,
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().data).toMatchObject({ section_id: areasSection, r: 1, w: 0, u: 1, d: 1 });

    const check = await t.call(admin, 'GET', '/api/routes-permission/999999');
    expect(check.statusCode).toBe(404);
  });

  describe('users', () => {
    const newUser = {
      name: 'Valeria',
      last_name: 'Gómez',
      second_last_name: 'Ruiz',
      username: 'vgomez',
      email: 'valeria.gomez@portal.local',
      password: 'Camion2024!',
      role_id: '3',
      area_id: '1',
      status_id: '1',
    };
    let id: number;

    it('creates a user who can then sign in, and never returns a password', async () => {
      const res = await t.call(admin, 'POST', '/api/users/create', newUser);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.body).not.toMatch(/password|Camion2024|argon2/);
      expect(res.json().data).toMatchObject({
        username: 'vgomez',
        role_id: 3,
        role: { id: 3, name: 'Agente' },
        area: { id: 1, name: 'Almacén' },
        status: { id: 1, name: 'Activo' },
      });
      id = res.json().data.id;
      expect(await t.login('vgomez', 'Camion2024!')).toBeTruthy();
    });

    it('lists users with role names and searches by name, username or e-mail', async () => {
      const res = await t.call(admin, 'POST', '/api/users', { page: 1, per_page: 7, search: 'VALERIA.GOMEZ' });
      expect(res.json().data).toHaveLength(1);
      expect(res.body).not.toMatch(/password/);
      expect(res.json().data[0].role.name).toBe('Agente');
    });

    it('refuses duplicate usernames and e-mails with 422, never 500', async () => {
      const res = await t.call(admin, 'POST', '/api/users/create', {
        ...newUser,
        username: 'admin',
        email: 'admin@portal.local',
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toMatchObject({
        username: ['Ya existe un registro con este valor.'],
        email: ['Ya existe un registro con este valor.'],
      });
    });

    it('updates without touching the password', async () => {
      const { password: _password, ...withoutPassword } = newUser;
      const res = await t.call(admin, 'PUT', `/api/users/update/${id}`, {
        ...withoutPassword,
        name: 'Valeria Isabel',
        password: 'Otra1234567',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.name).toBe('Valeria Isabel');
      expect(await t.login('vgomez', 'Camion2024!')).toBeTruthy();
    });

    it('requires a password of at least 8 characters on create', async () => {
      const res = await t.call(admin, 'POST', '/api/users/create', {
        ...newUser,
        username: 'corto',
        email: 'corto@portal.local',
        password: 'abc',
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.password).toEqual(['La contraseña debe tener al menos 8 caracteres.']);
    });

    it('lets a user read their own record but not another one without the users section', async () => {
      const agente = await t.login('agente');
      const me = (await t.call(agente, 'POST', '/api/user-permissions', {})).statusCode;
      expect(me).toBe(200);
      const own = await t.services.database.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'agente')
        .executeTakeFirstOrThrow();
      const mine = await t.call(agente, 'GET', `/api/users/${own.id}`);
      expect(mine.statusCode).toBe(200);
      expect(mine.json().data.username).toBe('agente');
      expect((await t.call(agente, 'GET', '/api/users/1')).statusCode).toBe(403);
    });
  });
});
