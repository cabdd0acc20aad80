import { TICKET_COUNT_CAP } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTicketDerivationsSuspended } from '../src/db/ticket-derivations.ts';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

const SUPERVISOR_ROLE = 2;
const AGENTE_ROLE = 3;

/** Saved views: CRUD, sharing with roles and each refusal, the lists' contract, the deactivated-value note. */
describe.each(dialects)('saved views on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let supervisor: string;
  let agente: string;
  let lucia: string;

  const create = (token: string, body: Record<string, unknown>) => t.call(token, 'POST', '/api/views/create', body);
  const views = async (token: string) => {
    const res = await t.call(token, 'GET', '/api/views');
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      data: { id: number; name: string; count: { total: number; is_lower_bound: boolean } }[];
      can_share: boolean;
      roles: { id: number; name: string }[];
    };
  };
  const viewCount = async () =>
    Number(
      (
        await t.services.database.db
          .selectFrom('saved_views')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const listTotal = async (token: string, path: string, body: Record<string, unknown>) => {
    const res = await t.call(token, 'POST', path, { page: 1, per_page: 5, ...body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().meta.total as number;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, supervisor, agente, lucia] = await Promise.all([
      t.login('admin'),
      t.login('supervisor'),
      t.login('agente'),
      t.login('lmartinez'),
    ]);
    for (const [token, name, priority] of [
      [agente, 'Montacargas sin batería', 4],
      [agente, 'Etiqueta ilegible', 1],
      [supervisor, 'Rampa dañada', 4],
      [lucia, 'Camión detenido', 4],
    ] as const) {
      const res = await t.call(token, 'POST', '/api/tickets/create', {
        ...ticketBody(name, 'Revisión en andén'),
        priority_type_id: priority,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(() => t?.close());

  it('saves a personal view of a list, lists it with the count its list gives, opens, renames, updates and deletes it', async () => {
    const query = { search: '', per_page: 20, filters: { priority_type_id: [4] }, sort: { by: 'name', dir: 'asc' } };
    const res = await create(agente, { name: 'Mis urgentes', list: 'mine', query });
    expect(res.statusCode, res.body).toBe(201);
    const view = res.json().data;
    expect(view).toMatchObject({ name: 'Mis urgentes', list: 'mine', role_ids: [], is_owner: true, notice: null });
    expect(view.query).toEqual(query);

    const expected = await listTotal(agente, '/api/tickets', { filters: query.filters });
    const mine = await views(agente);
    expect(mine.can_share).toBe(false);
    expect(mine.roles).toEqual([]);
    expect(mine.data.find((v) => v.id === view.id)?.count).toEqual({ total: expected, is_lower_bound: false });

    const opened = await t.call(agente, 'GET', `/api/views/${view.id}`);
    expect(opened.statusCode).toBe(200);
    expect(opened.json().data.query).toEqual(query);

    const renamed = await t.call(agente, 'PUT', `/api/views/update/${view.id}`, { name: 'Urgentes del día' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toMatchObject({ name: 'Urgentes del día', query });

    const newQuery = { search: 'montacargas', per_page: 10, filters: {}, sort: { by: 'id', dir: 'desc' } };
    const updated = await t.call(agente, 'PUT', `/api/views/update/${view.id}`, { query: newQuery });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({ name: 'Urgentes del día', query: newQuery });
    expect(updated.json().data.count.total).toBe(await listTotal(agente, '/api/tickets', { search: 'montacargas' }));

    // Another person never sees a personal view, not even an administrator.
    expect((await t.call(lucia, 'GET', `/api/views/${view.id}`)).statusCode).toBe(404);
    expect((await t.call(admin, 'GET', `/api/views/${view.id}`)).statusCode).toBe(404);
    expect((await t.call(admin, 'DELETE', `/api/views/${view.id}`)).statusCode).toBe(404);
    expect((await views(lucia)).data.map((v) => v.id)).not.toContain(view.id);

    const deleted = await t.call(agente, 'DELETE', `/api/views/${view.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toBe('Vista eliminada.');
    expect((await t.call(agente, 'GET', `/api/views/${view.id}`)).statusCode).toBe(404);
  });

  it('validates the query with the lists’ own contract and writes nothing on a refusal', async () => {
    const before = await viewCount();
    const base = { name: 'Inválida', list: 'mine', query: {} };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, query: { filters: { color: [1] } } }, 'Filtro desconocido.'],
      [{ ...base, query: { sort: { by: 'color', dir: 'asc' } } }, 'Columna de orden no válida.'],
      [
        { ...base, query: { filters: { created_from: '2026-02-01', created_to: '2026-01-01' } } },
        'La fecha inicial no puede ser posterior a la final.',
      ],
      [{ ...base, query: { per_page: 500 } }, 'El tamaño de página no puede ser mayor a 100.'],
      [{ ...base, query: { filters: { priority_type_id: ['x'] } } }, 'Debe ser un identificador válido.'],
      [{ ...base, name: '' }, 'Este campo es obligatorio.'],
      [{ ...base, name: 'Vista <script>' }, ''],
      [{ ...base, list: 'queues' }, 'Lista no válida.'],
    ];
    for (const [body, message] of cases) {
      const res = await create(agente, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      if (message) expect(Object.values(res.json().errors).flat()).toContain(message);
    }
    const [first] = (await views(agente)).data;
    if (first) {
      const res = await t.call(agente, 'PUT', `/api/views/update/${first.id}`, { query: { filters: { x: 1 } } });
      expect(res.statusCode).toBe(422);
    }
    expect(await viewCount()).toBe(before);
  });

  it('refuses a duplicate name per owner, a list the caller may not read, and a share without w on vi_main', async () => {
    const body = { name: 'Del turno', list: 'mine', query: {} };
    expect((await create(agente, body)).statusCode).toBe(201);
    const duplicate = await create(agente, body);
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json().errors.name).toEqual(['Ya tienes una vista con este nombre.']);
    // Another person may use the same name.
    expect((await create(lucia, body)).statusCode).toBe(201);

    const before = await viewCount();
    const general = await create(agente, { ...body, name: 'Todas', list: 'general' });
    expect(general.statusCode).toBe(403);
    expect(general.json().message).toBe('No tienes permiso para ver la lista de esta vista.');

    // An agent cannot share; neither can a supervisor, who holds nothing on vi_main.
    for (const token of [agente, supervisor]) {
      const shared = await create(token, { ...body, name: 'Compartida', role_ids: [AGENTE_ROLE] });
      expect(shared.statusCode).toBe(403);
      expect(shared.json().message).toBe('No tienes permiso para compartir vistas.');
    }
    const own = (await views(agente)).data.find((v) => v.name === 'Del turno')!;
    const reshare = await t.call(agente, 'PUT', `/api/views/update/${own.id}`, { role_ids: [AGENTE_ROLE] });
    expect(reshare.statusCode).toBe(403);
    // Sending the roles it already has is no share.
    expect((await t.call(agente, 'PUT', `/api/views/update/${own.id}`, { role_ids: [] })).statusCode).toBe(200);
    expect(await viewCount()).toBe(before);

    const badRole = await create(admin, { ...body, name: 'Rol raro', role_ids: [999] });
    expect(badRole.statusCode).toBe(422);
    expect(badRole.json().errors.role_ids).toEqual(['El rol seleccionado no existe o está inactivo.']);
    expect(await viewCount()).toBe(before);
  });

  it('shares a view with roles: a view shared with Supervisor is not visible to Agente; only the owner or an administrator changes it', async () => {
    const admins = await views(admin);
    expect(admins.can_share).toBe(true);
    expect(admins.roles.map((r) => r.name)).toEqual(expect.arrayContaining(['Supervisor', 'Agente']));

    const forSupervisors = await create(admin, {
      name: 'Urgentes de la operación',
      list: 'general',
      query: { filters: { priority_type_id: [4] } },
      role_ids: [SUPERVISOR_ROLE],
    });
    expect(forSupervisors.statusCode, forSupervisors.body).toBe(201);
    const id = forSupervisors.json().data.id as number;

    const seen = (await views(supervisor)).data.find((v) => v.id === id);
    expect(seen).toMatchObject({ is_owner: false, can_edit: false, can_delete: false });
    expect(seen?.count.total).toBe(
      await listTotal(supervisor, '/api/general-tickets', { filters: { priority_type_id: [4] } }),
    );
    expect((await t.call(supervisor, 'GET', `/api/views/${id}`)).statusCode).toBe(200);

    expect((await views(agente)).data.map((v) => v.id)).not.toContain(id);
    expect((await t.call(agente, 'GET', `/api/views/${id}`)).statusCode).toBe(404);

    const rename = await t.call(supervisor, 'PUT', `/api/views/update/${id}`, { name: 'Mías' });
    expect(rename.statusCode).toBe(403);
    expect(rename.json().message).toBe('Solo quien creó la vista o un administrador puede cambiarla.');
    const remove = await t.call(supervisor, 'DELETE', `/api/views/${id}`);
    expect(remove.statusCode).toBe(403);
    expect(remove.json().message).toBe('Solo quien creó la vista o un administrador puede eliminarla.');

    // Shared with Agente too: now the agent sees it, but only on a list they may read.
    const both = await t.call(admin, 'PUT', `/api/views/update/${id}`, { role_ids: [SUPERVISOR_ROLE, AGENTE_ROLE] });
    expect(both.statusCode).toBe(200);
    expect((await views(agente)).data.map((v) => v.id)).not.toContain(id);
    expect((await t.call(agente, 'GET', `/api/views/${id}`)).statusCode).toBe(403);

    // A view shared by someone granted w on vi_main: an administrator may still delete it.
    const { sectionId, routeId } = await t.services.database.db
      .selectFrom('sections')
      .select(['id as sectionId', 'route_id as routeId'])
      .where('name', '=', 'vi_main')
      .executeTakeFirstOrThrow();
    const route = await t.call(admin, 'POST', '/api/routes-permission/create', {
      route_id: routeId,
      role_id: SUPERVISOR_ROLE,
    });
    expect(route.statusCode, route.body).toBe(201);
    const grant = await t.call(admin, 'POST', '/api/sections-permission/create', {
      section_id: sectionId,
      role_id: SUPERVISOR_ROLE,
      r: 1,
      w: 1,
    });
    expect(grant.statusCode, grant.body).toBe(201);
    const bySupervisor = await create(supervisor, {
      name: 'Para agentes',
      list: 'mine',
      query: {},
      role_ids: [AGENTE_ROLE],
    });
    expect(bySupervisor.statusCode, bySupervisor.body).toBe(201);
    const sharedId = bySupervisor.json().data.id as number;
    const agentView = (await views(agente)).data.find((v) => v.id === sharedId);
    expect(agentView).toBeDefined();
    // A view of Mis Tickets counts the caller's own tickets.
    expect(agentView?.count.total).toBe(await listTotal(agente, '/api/tickets', {}));
    expect((await t.call(agente, 'DELETE', `/api/views/${sharedId}`)).statusCode).toBe(403);
    expect((await t.call(admin, 'DELETE', `/api/views/${sharedId}`)).statusCode).toBe(200);
    expect((await t.call(admin, 'DELETE', `/api/views/${id}`)).statusCode).toBe(200);
  });

  it('opens a view whose filter names a deactivated catalogue value and says which value no longer applies', async () => {
    const created = await t.call(admin, 'POST', '/api/priority-types/create', { name: 'Temporal' });
    expect(created.statusCode, created.body).toBe(201);
    const priorityId = created.json().data.id as number;
    const res = await create(agente, {
      name: 'Temporales',
      list: 'current',
      query: { filters: { priority_type_id: [priorityId, 4] } },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as number;
    expect(res.json().data.notice).toBeNull();

    const off = await t.call(admin, 'PATCH', `/api/priority-types/${priorityId}/change-status`, { status_id: 2 });
    expect(off.statusCode, off.body).toBe(200);
    const opened = await t.call(agente, 'GET', `/api/views/${id}`);
    expect(opened.statusCode).toBe(200);
    const data = opened.json().data;
    expect(data.query.filters.priority_type_id).toEqual([priorityId, 4]);
    expect(data.inactive_values).toEqual([
      {
        filter: 'priority_type_id',
        label: 'Prioridad',
        id: priorityId,
        name: 'Temporal',
        message: 'Prioridad «Temporal» ya no aplica: fue desactivado.',
      },
    ]);
    expect(data.notice).toBe('Prioridad «Temporal» ya no aplica: fue desactivado.');
  });

  it('bounds a view’s count like its list: past the cap it says more than 10.000', async () => {
    const db = t.services.database.db;
    const area = await t.call(admin, 'POST', '/api/areas/create', { name: 'Patio de contenedores' });
    expect(area.statusCode, area.body).toBe(201);
    const areaId = area.json().data.id as number;
    const status = await db
      .selectFrom('ticket_statuses')
      .select(['id', 'stage'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await withTicketDerivationsSuspended(db, dialect, async () => {
      for (let from = 0; from < TICKET_COUNT_CAP + 50; from += 1_000) {
        await db
          .insertInto('tickets')
          .values(
            Array.from({ length: Math.min(1_000, TICKET_COUNT_CAP + 50 - from) }, (_, i) => ({
              ...ticketBody(`Contenedor ${from + i}`, 'Carga masiva'),
              area_id: areaId,
              status_id: status.id,
              stage: status.stage,
              created_by: 1,
              created_at: now,
              updated_at: now,
            })),
          )
          .execute();
      }
    });
    const res = await create(admin, { name: 'Patio', list: 'general', query: { filters: { area_id: [areaId] } } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.count).toEqual({ total: TICKET_COUNT_CAP, is_lower_bound: true });
    const listed = (await views(admin)).data.find((v) => v.name === 'Patio');
    expect(listed?.count).toEqual({ total: TICKET_COUNT_CAP, is_lower_bound: true });
  });

  it('refuses every route without a session and a change without the CSRF header', async () => {
    expect((await t.call(null, 'GET', '/api/views')).statusCode).toBe(401);
    expect((await t.call(null, 'POST', '/api/views/create', { name: 'x', list: 'mine', query: {} })).statusCode).toBe(
      401,
    );
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/views/1',
      headers: { authorization: `Bearer ${agente}` },
    });
    expect(res.statusCode).toBe(403);
  });
});
