import { AUDIT_COUNT_CAP, AUDIT_EVENT_LABELS, notificationEvents, type TAuditEntry } from '@portal/contract';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as auditLogScreen from '../src/db/migrations/0008-audit-log-screen.ts';
import { startOfDayIn } from '../src/modules/audit/audit.service.ts';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? sourceFiles(file) : file.endsWith('.ts') ? [file] : [];
  });

describe('audit event names', () => {
  it('every event the API writes has a Spanish name', () => {
    const written = new Set<string>();
    for (const file of sourceFiles(srcDir)) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of [
        /event: '([a-z_.]+)'/g,
        /refuse\(request, '([a-z_.]+)'/g,
        /'(password_reset\.[a-z_]+)', (?:input\.)?email\)/g,
        /\? '(ticket\.[a-z]+)' : '(ticket\.[a-z]+)'/g,
      ]) {
        for (const match of text.matchAll(pattern)) match.slice(1).forEach((event) => written.add(event!));
      }
    }
    expect(written.size).toBeGreaterThan(20);
    // `event: '…'` also names the notification events a person picks channels for (not audited).
    const notification = new Set<string>(notificationEvents);
    const unnamed = [...written].filter((event) => !(event in AUDIT_EVENT_LABELS) && !notification.has(event));
    expect(unnamed).toEqual([]);
    expect(AUDIT_EVENT_LABELS['login.success']).toBe('Inicio de sesión');
    expect(AUDIT_EVENT_LABELS['section_permission.updated']).toBe('Permiso de sección actualizado');
    expect(AUDIT_EVENT_LABELS['route.created']).toBe('Ruta creada');
  });

  it('turns a day into the instant it begins in a time zone, across clock changes', () => {
    expect(startOfDayIn('2025-03-10', 'UTC')).toBe('2025-03-10T00:00:00.000Z');
    expect(startOfDayIn('2025-03-10', 'America/Mexico_City')).toBe('2025-03-10T06:00:00.000Z');
    expect(startOfDayIn('2025-03-31', 'Europe/Madrid')).toBe('2025-03-30T22:00:00.000Z');
    expect(startOfDayIn('2025-03-30', 'Europe/Madrid')).toBe('2025-03-29T23:00:00.000Z');
    expect(startOfDayIn('2025-10-27', 'Europe/Madrid')).toBe('2025-10-26T23:00:00.000Z');
  });
});

describe.each(dialects)('audit log on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let supervisor: string;
  let agente: string;
  const list = (body: Record<string, unknown> = {}, token = admin) => t.call(token, 'POST', '/api/audit-log', body);
  const entries = async (body: Record<string, unknown>) => {
    const res = await list(body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: TAuditEntry[]; meta: Record<string, unknown> };
  };
  const insert = (
    rows: {
      event: string;
      created_at: string;
      user_id?: number | null;
      username?: string | null;
      ip?: string | null;
      detail?: string | null;
    }[],
  ) =>
    t.services.database.db
      .insertInto('audit_log')
      .values(rows.map((r) => ({ user_id: null, username: null, ip: null, detail: null, ...r })))
      .execute();
  const userId = async (username: string) =>
    (
      await t.services.database.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, supervisor, agente] = (await Promise.all(['admin', 'supervisor', 'agente'].map((u) => t.login(u)))) as [
      string,
      string,
      string,
    ];
  });
  afterAll(() => t?.close());

  it('lists the log newest first with who, the action in Spanish, the address and readable details', async () => {
    await t.call(null, 'POST', '/api/login', { username: 'nadie', password: 'Equivocada1' });
    const { data, meta } = await entries({ per_page: 50 });
    expect(meta).toMatchObject({ current_page: 1, per_page: 50, total_is_lower_bound: false });
    const times = data.map((e) => e.created_at);
    expect(times).toEqual([...times].sort().reverse());

    const failure = data.find((e) => e.event === 'login.failure')!;
    expect(failure).toMatchObject({
      action: 'Inicio de sesión fallido',
      user: null,
      // What was typed names no account (it may be a password typed in the wrong field): not kept.
      username: null,
      ip: '127.0.0.1',
    });
    expect(failure.details).toBe('Motivo: usuario inexistente');

    const adminId = await userId('admin');
    const signIn = data.find((e) => e.event === 'login.success' && e.user?.id === adminId)!;
    expect(signIn).toMatchObject({
      action: 'Inicio de sesión',
      user: { id: adminId, name: 'Ana Administradora', username: 'admin' },
      ip: '127.0.0.1',
    });
  });

  it('words the count of anonymous refusals in Spanish, on the caller’s clock, with the first request', async () => {
    for (let i = 0; i < 3; i += 1) {
      expect((await t.call(null, 'POST', '/api/check-permission', { name: 'areas' })).statusCode).toBe(401);
    }
    await t.services.audit.flushAnonymous();
    const { data } = await entries({ filters: { event: ['auth.missing_token'] }, time_zone: 'America/Mexico_City' });
    const [row] = await t.services.database.db
      .selectFrom('audit_log')
      .select('detail')
      .where('event', '=', 'auth.missing_token')
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    const { first_at: firstAt, last_at: lastAt } = JSON.parse(row!.detail!) as { first_at: string; last_at: string };
    const clock = (iso: string) =>
      new Date(iso).toLocaleTimeString('es-MX', { timeZone: 'America/Mexico_City', hourCycle: 'h23' });
    const when = firstAt === lastAt ? `a las ${clock(firstAt)}` : `entre ${clock(firstAt)} y ${clock(lastAt)}`;
    expect(data[0]!.details).toBe(`3 intentos ${when} · Primera solicitud: POST /api/check-permission`);
  });

  it('is refused to supervisor and agente (403), and without a session (401)', async () => {
    for (const token of [supervisor, agente]) {
      expect((await list({}, token)).statusCode).toBe(403);
      expect((await t.call(token, 'POST', '/api/audit-log/export', {})).statusCode).toBe(403);
      expect((await t.call(token, 'GET', '/api/audit-log/users')).statusCode).toBe(403);
    }
    expect((await list({}, null as unknown as string)).statusCode).toBe(401);
    const refusals = await entries({ filters: { event: ['permission.denied'] }, search: 'audit-log', per_page: 10 });
    expect(refusals.data.length).toBeGreaterThanOrEqual(6);
    expect(refusals.data[0]!.details).toContain('Permiso requerido: au_main (leer)');
  });

  it('filters by user, by action and by days in the caller’s time zone', async () => {
    const agenteId = await userId('agente');
    await insert([
      { event: 'logout', user_id: agenteId, created_at: '2024-02-10T05:59:59.999Z' },
      { event: 'logout', user_id: agenteId, created_at: '2024-02-10T06:00:00.000Z' },
      { event: 'token.renewed', user_id: agenteId, created_at: '2024-02-11T12:00:00.000Z' },
      { event: 'logout', user_id: agenteId, created_at: '2024-02-12T05:59:59.999Z' },
      { event: 'logout', user_id: agenteId, created_at: '2024-02-12T06:00:00.000Z' },
    ]);
    const days = { from: '2024-02-10', to: '2024-02-11' };
    const inMexico = await entries({ filters: { ...days, user_id: agenteId }, time_zone: 'America/Mexico_City' });
    expect(inMexico.data.map((e) => e.created_at)).toEqual([
      '2024-02-12T05:59:59.999Z',
      '2024-02-11T12:00:00.000Z',
      '2024-02-10T06:00:00.000Z',
    ]);
    expect(inMexico.meta.total).toBe(3);

    const inUtc = await entries({ filters: { ...days, user_id: agenteId } });
    expect(inUtc.data.map((e) => e.created_at)).toEqual([
      '2024-02-11T12:00:00.000Z',
      '2024-02-10T06:00:00.000Z',
      '2024-02-10T05:59:59.999Z',
    ]);

    const onlyLogouts = await entries({ filters: { ...days, user_id: agenteId, event: ['logout'] } });
    expect(onlyLogouts.data.every((e) => e.event === 'logout' && e.action === 'Cierre de sesión')).toBe(true);
    expect(onlyLogouts.meta.total).toBe(2);

    const both = await entries({ filters: { ...days, event: ['logout', 'token.renewed'] } });
    expect(both.meta.total).toBe(3);
    expect((await entries({ filters: { event: [] } })).meta.total).toBe(0);
  });

  it('refuses bad filters with a Spanish 422', async () => {
    for (const [body, field] of [
      [{ filters: { from: '2024-02-30' } }, 'filters.from'],
      [{ filters: { from: '10/02/2024' } }, 'filters.from'],
      [{ filters: { from: '2024-02-11', to: '2024-02-10' } }, 'filters.to'],
      [{ filters: { user_id: 'x' } }, 'filters.user_id'],
      [{ filters: { event: ['DROP TABLE'] } }, 'filters.event.0'],
      [{ time_zone: 'Marte/Olympus' }, 'time_zone'],
    ] as const) {
      const res = await list(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().message).toBe('Error de validación');
      expect(Object.keys(res.json().errors), JSON.stringify(body)).toContain(field);
    }
    expect((await list({ filters: { from: '2024-02-30' } })).json().errors['filters.from']).toEqual([
      'La fecha no existe.',
    ]);
  });

  it('searches the username, the address, the details, the user’s name and the Spanish action', async () => {
    await insert([
      { event: 'login.failure', username: 'intruso_x', ip: '203.0.113.77', created_at: '2024-03-01T10:00:00.000Z' },
      {
        event: 'password_reset.unknown_email',
        ip: '198.51.100.4',
        detail: JSON.stringify({ email: 'fantasma@ejemplo.mx' }),
        created_at: '2024-03-01T11:00:00.000Z',
      },
    ]);
    expect((await entries({ search: 'intruso' })).data.map((e) => e.username)).toEqual(['intruso_x']);
    expect((await entries({ search: '203.0.113' })).data).toHaveLength(1);
    const byDetail = await entries({ search: 'fantasma' });
    expect(byDetail.data.map((e) => e.details)).toEqual(['Correo: fantasma@ejemplo.mx']);
    expect(byDetail.data[0]!.action).toBe('Recuperación para un correo desconocido');
    const byLabel = await entries({ search: 'correo desconocido', per_page: 100 });
    expect(byLabel.data.map((e) => e.event)).toContain('password_reset.unknown_email');
    const byName = await entries({ search: 'Administradora', per_page: 100 });
    expect(byName.data.length).toBeGreaterThan(0);
    expect(byName.data.every((e) => e.user?.username === 'admin' || e.details.includes('Administradora'))).toBe(true);
    expect((await entries({ search: '100%_' })).data).toEqual([]);
  });

  it('pages with a stable order', async () => {
    const all = await entries({ per_page: 100 });
    const first = await entries({ page: 1, per_page: 5 });
    const second = await entries({ page: 2, per_page: 5 });
    expect(first.meta).toMatchObject({ current_page: 1, per_page: 5, total: all.meta.total });
    expect(first.meta.last_page).toBe(Math.ceil((all.meta.total as number) / 5));
    expect([...first.data, ...second.data].map((e) => e.id)).toEqual(all.data.slice(0, 10).map((e) => e.id));
  });

  it(`counts exactly up to ${AUDIT_COUNT_CAP}, then says the total is a lower bound`, async () => {
    const rows = Array.from({ length: AUDIT_COUNT_CAP + 5 }, (_, i) => ({
      event: 'csrf.refused',
      ip: '192.0.2.1',
      created_at: new Date(Date.UTC(2023, 0, 1) + i * 10_000).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500));
    const capped = await entries({ filters: { event: ['csrf.refused'] }, per_page: 10 });
    expect(capped.meta).toMatchObject({ total: AUDIT_COUNT_CAP, total_is_lower_bound: true, last_page: 1000 });
    expect(capped.data[0]!.created_at).toBe(rows.at(-1)!.created_at);
    const exact = await entries({ filters: { event: ['csrf.refused'], to: '2023-01-01' }, per_page: 10 });
    expect(exact.meta).toMatchObject({ total: 8640, total_is_lower_bound: false });
    expect(exact.meta.total).toBe(rows.filter((r) => r.created_at < '2023-01-02').length);
  }, 60_000);

  it('exports CSV: UTF-8 BOM, RFC 4180 quoting, CRLF, formulas neutralised, every matching row', async () => {
    await insert([
      {
        event: '@SUM(1+1)',
        ip: '-2+3',
        username: 'x',
        detail: JSON.stringify({ reason: 'dijo "hola", adiós\nfin' }),
        created_at: '2024-04-02T15:30:00.000Z',
      },
    ]);
    const res = await t.call(admin, 'POST', '/api/audit-log/export', {
      filters: { from: '2024-04-02', to: '2024-04-02' },
      time_zone: 'America/Mexico_City',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="auditoria-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const text = res.rawPayload.toString('utf8').slice(1);
    expect(text).toBe(
      'Fecha,Usuario,Acción,Dirección,Detalles,Evento,Fecha (UTC)\r\n' +
        `02/04/2024 09:30:00,Anónimo,'@SUM(1+1),'-2+3,"Usuario escrito: x · Motivo: dijo ""hola"", adiós\nfin",'@SUM(1+1),2024-04-02T15:30:00.000Z\r\n`,
    );

    const capped = await t.call(admin, 'POST', '/api/audit-log/export', { filters: { event: ['csrf.refused'] } });
    const lines = capped.rawPayload.toString('utf8').split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(AUDIT_COUNT_CAP + 5 + 1);
    expect(new Set(lines.slice(1).map((l) => l.split(',').at(-1))).size).toBe(AUDIT_COUNT_CAP + 5);

    const refused = await t.call(admin, 'POST', '/api/audit-log/export', { filters: { to: 'ayer' } });
    expect(refused.statusCode).toBe(422);
  }, 60_000);

  it('records ticket assignments and reassignments', async () => {
    const [agenteId, supervisorId] = [await userId('agente'), await userId('supervisor')];
    const ticket = (
      await t.call(supervisor, 'POST', '/api/tickets/create', ticketBody('Revisar montacargas', 'Falla en el freno'))
    ).json().data;
    expect((await t.call(supervisor, 'PATCH', `/api/tickets/${ticket.id}/assign/${agenteId}`)).statusCode).toBe(200);
    expect((await t.call(supervisor, 'PATCH', `/api/tickets/${ticket.id}/assign/${supervisorId}`)).statusCode).toBe(
      200,
    );
    const { data } = await entries({
      filters: { event: ['ticket.assigned', 'ticket.reassigned'] },
      search: String(ticket.id),
    });
    const mine = data.filter((e) => e.details.startsWith(`Ticket #${ticket.id} `));
    expect(mine.map((e) => [e.action, e.user?.username, e.details])).toEqual([
      [
        'Ticket reasignado',
        'supervisor',
        `Ticket #${ticket.id} · Asignado a: Sofía Ramírez (@supervisor) · Antes: Diego Hernández (@agente)`,
      ],
      ['Ticket asignado', 'supervisor', `Ticket #${ticket.id} · Asignado a: Diego Hernández (@agente)`],
    ]);
  });

  it('records users created, updated, deactivated and reactivated, without passwords', async () => {
    const created = await t.call(admin, 'POST', '/api/users/create', {
      name: 'Rosa',
      last_name: 'Auditada',
      username: 'rauditada',
      email: 'rauditada@portal.local',
      role_id: 3,
      password: 'SecretoRosa1',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as number;
    expect(
      (
        await t.call(admin, 'PUT', `/api/users/update/${id}`, {
          name: 'Rosa',
          last_name: 'Auditada',
          username: 'rauditada',
          email: 'rosa@portal.local',
          role_id: 2,
        })
      ).statusCode,
    ).toBe(200);
    expect((await t.call(admin, 'PATCH', `/api/users/${id}/change-status`, {})).statusCode).toBe(200);
    expect((await t.call(admin, 'PATCH', `/api/users/${id}/change-status`, {})).statusCode).toBe(200);

    const { data } = await entries({ search: 'rauditada', filters: { user_id: await userId('admin') } });
    expect(data.map((e) => e.action)).toEqual([
      'Usuario reactivado',
      'Usuario desactivado',
      'Usuario actualizado',
      'Usuario creado',
    ]);
    expect(data.every((e) => e.user?.username === 'admin' && e.ip === '127.0.0.1')).toBe(true);
    const [reactivated, deactivated, updated, create] = data.map((e) => e.details);
    expect(create).toContain(`Registro: #${id} Rosa Auditada (@rauditada)`);
    expect(create).toContain('Rol: Agente');
    expect(create).toContain('Contraseña: (definida)');
    expect(updated).toBe(
      `Registro: #${id} Rosa Auditada (@rauditada) · Cambios: Correo: rauditada@portal.local → rosa@portal.local; Rol: Agente → Supervisor`,
    );
    expect(deactivated).toContain('Cambios: Estado: Activo → Inactivo');
    expect(reactivated).toContain('Cambios: Estado: Inactivo → Activo');
    const raw = await t.services.database.db.selectFrom('audit_log').select('detail').execute();
    expect(JSON.stringify(raw)).not.toContain('SecretoRosa1');
  });

  it('records role and permission changes, and not the catalogues that grant nothing', async () => {
    const role = await t.call(admin, 'PUT', '/api/roles/update/3', { name: 'Agente de campo', is_supervisor: 0 });
    expect(role.statusCode, role.body).toBe(200);
    const { db } = t.services.database;
    const grant = await db
      .selectFrom('sections_permission as sp')
      .innerJoin('sections as s', 's.id', 'sp.section_id')
      .select(['sp.id', 'sp.r', 'sp.u', 'sp.d'])
      .where('sp.role_id', '=', 3)
      .where('s.name', '=', 'tickets_main')
      .executeTakeFirstOrThrow();
    const permission = await t.call(admin, 'PUT', `/api/sections-permission/update/${grant.id}`, {
      section_id: 1,
      role_id: 3,
      r: grant.r,
      w: 0,
      u: grant.u,
      d: 1,
    });
    expect(permission.statusCode, permission.body).toBe(200);
    const area = await t.call(admin, 'POST', '/api/areas/create', { name: 'Patio Auditado' });
    expect(area.statusCode).toBe(201);

    const today = new Date().toISOString().slice(0, 10);
    const { data } = await entries({
      filters: { event: ['role.updated', 'section_permission.updated'], from: today, to: today },
    });
    expect(data.map((e) => [e.action, e.user?.username])).toEqual([
      ['Permiso de sección actualizado', 'admin'],
      ['Rol actualizado', 'admin'],
    ]);
    expect(data[0]!.details).toBe(
      `Registro: #${grant.id} Agente de campo → tickets_main · Cambios: Crear: sí → no; Cambiar estado: no → sí`,
    );
    expect(data[1]!.details).toBe('Registro: #3 Agente de campo · Cambios: Nombre: Agente → Agente de campo');
    expect((await entries({ search: 'Patio Auditado' })).data).toEqual([]);
  });

  it('records a password change, naming whose', async () => {
    const id = await userId('rauditada');
    const res = await t.call(admin, 'POST', `/api/users/change-password/${id}`, {
      current_password: 'PortalAdmin1',
      new_password: 'NuevaRosa123',
      password_confirmation: 'NuevaRosa123',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = await entries({ filters: { event: ['password.changed'] } });
    expect(data[0]).toMatchObject({
      action: 'Contraseña cambiada',
      user: { username: 'admin' },
      details: 'Usuario afectado: Rosa Auditada (@rauditada)',
    });
  });

  it('offers every user, active or not, for the user filter', async () => {
    const res = await t.call(admin, 'GET', '/api/audit-log/users');
    expect(res.statusCode).toBe(200);
    const names = (res.json().data as { name: string }[]).map((u) => u.name);
    expect(names).toContain('Ana Administradora (@admin)');
    expect(names).toContain('Rosa Auditada (@rauditada)');
  });

  it('gives an existing database the screen through migration 0008, for Administrador only', async () => {
    const { db } = t.services.database;
    const route = await db.selectFrom('routes').select('id').where('name', '=', 'audit-log').executeTakeFirstOrThrow();
    const section = await db
      .selectFrom('sections')
      .select('id')
      .where('name', '=', 'au_main')
      .executeTakeFirstOrThrow();
    // As the database was before 0008: no route, section, grants or indexes.
    await db.deleteFrom('sections_permission').where('section_id', '=', section.id).execute();
    await db.deleteFrom('routes_permission').where('route_id', '=', route.id).execute();
    await db.deleteFrom('sections').where('id', '=', section.id).execute();
    await db.deleteFrom('routes').where('id', '=', route.id).execute();
    for (const index of ['audit_log_created_id_idx', 'audit_log_user_created_idx', 'audit_log_event_created_idx']) {
      await sql`drop index ${sql.ref(index)}`.execute(db);
    }
    t.services.permissions.invalidate();
    expect((await list()).statusCode).toBe(403);

    await auditLogScreen.up(db as never);
    t.services.permissions.invalidate();
    const grants = await db
      .selectFrom('sections_permission as sp')
      .innerJoin('sections as s', 's.id', 'sp.section_id')
      .innerJoin('routes as r', 'r.id', 's.route_id')
      .select(['sp.role_id', 'sp.r', 'r.name as route'])
      .where('s.name', '=', 'au_main')
      .execute();
    expect(grants).toEqual([{ role_id: 1, r: 1, route: 'audit-log' }]);
    const routeGrants = await db
      .selectFrom('routes_permission as rp')
      .innerJoin('routes as r', 'r.id', 'rp.route_id')
      .select('rp.role_id')
      .where('r.name', '=', 'audit-log')
      .execute();
    expect(routeGrants).toEqual([{ role_id: 1 }]);
    expect((await list()).statusCode).toBe(200);
    expect((await list({}, supervisor)).statusCode).toBe(403);
    const check = await t.call(admin, 'POST', '/api/check-permission', { route_name: 'audit-log' });
    expect(check.statusCode, check.body).toBe(200);
    expect(JSON.stringify(check.json())).toContain('au_main');
  });
});
