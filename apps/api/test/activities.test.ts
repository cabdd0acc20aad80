import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';

const form = {
  name: 'Revisar sensor de puerta',
  description: 'El sensor de la puerta del andén 2 marca abierta todo el tiempo',
  area_id: 1,
  project_id: 1,
  category_id: 1,
  priority_type_id: 2,
  difficulty_id: 1,
  status_id: 1,
};

describe.each(dialects)('activities on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let supervisor: string;
  let agente: string;
  let lmartinez: string;
  let ticketId: number;
  let agenteId: number;
  let activityId: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, supervisor, agente, lmartinez] = (await Promise.all(
      ['admin', 'supervisor', 'agente', 'lmartinez'].map((u) => t.login(u)),
    )) as [string, string, string, string];
    agenteId = (
      await t.services.database.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'agente')
        .executeTakeFirstOrThrow()
    ).id;
    ticketId = (await t.call(admin, 'POST', '/api/tickets/create', form)).json().data.id;
    const assigned = await t.call(admin, 'PATCH', `/api/tickets/${ticketId}/assign/${agenteId}`);
    expect(assigned.statusCode).toBe(200);
  });
  afterAll(() => t?.close());

  const list = (token: string, query = '') =>
    t.call(token, 'GET', `/api/activities?ticket_id=${ticketId}&page=1&per_page=10${query}`);

  it('lets the assignee register an activity, authored by them and active whatever the body says', async () => {
    const res = await t.call(agente, 'POST', '/api/activities/create', {
      name: 'Se revisó el cableado del sensor',
      ticket_id: ticketId,
      status_id: 1,
      user_id: 1,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: true, message: 'Actividad agregada' });
    expect(res.json().data).toMatchObject({
      name: 'Se revisó el cableado del sensor',
      ticket_id: ticketId,
      user_id: agenteId,
      status_id: 1,
      user: { id: agenteId, name: 'Diego Hernández' },
      status: { id: 1, name: 'Activo' },
    });
    activityId = res.json().data.id;
  });

  it('notifies the ticket creator of the activity, not the assignee who wrote it', async () => {
    const rows = await t.services.database.db
      .selectFrom('notifications')
      .select(['user_id', 'message'])
      .where('ticket_id', '=', ticketId)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { user_id: agenteId, message: 'Se te ha asignado un nuevo ticket' },
      { user_id: 1, message: 'Se registró una nueva actividad en tu ticket' },
    ]);
  });

  it('lists the activities to the assignee with write access', async () => {
    const res = await list(agente);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: true, can_write: true });
    expect(body.data).toMatchObject({ current_page: 1, last_page: 1, total: 1 });
    expect(body.data.data[0]).toMatchObject({
      id: activityId,
      user: { name: 'Diego Hernández' },
      status: { name: 'Activo' },
    });
  });

  it('shows them read-only to a privileged role, which cannot add or delete', async () => {
    const res = await list(supervisor);
    expect(res.statusCode).toBe(200);
    expect(res.json().can_write).toBe(false);
    expect(res.json().data.total).toBe(1);
    const add = await t.call(supervisor, 'POST', '/api/activities/create', { name: 'Intento', ticket_id: ticketId });
    expect(add.statusCode).toBe(403);
    expect(add.json().message).toBe('Solo el usuario asignado al ticket puede agregar o eliminar actividades.');
    const remove = await t.call(admin, 'PUT', `/api/activities/${activityId}`, { status_id: 2 });
    expect(remove.statusCode).toBe(403);
  });

  it('refuses another agent everything on the ticket', async () => {
    const read = await list(lmartinez);
    expect(read.statusCode).toBe(403);
    expect(read.json()).toMatchObject({
      status: false,
      message: 'No tienes permiso para ver las actividades de este ticket.',
    });
    expect(
      (await t.call(lmartinez, 'POST', '/api/activities/create', { name: 'Intento', ticket_id: ticketId })).statusCode,
    ).toBe(403);
    expect((await t.call(lmartinez, 'PUT', `/api/activities/${activityId}`, { status_id: 2 })).statusCode).toBe(403);
    const count = await t.services.database.db
      .selectFrom('activities')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('ticket_id', '=', ticketId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('refuses the ticket creator too when they are neither the assignee nor privileged', async () => {
    const own = (await t.call(lmartinez, 'POST', '/api/tickets/create', form)).json().data.id;
    await t.call(admin, 'PATCH', `/api/tickets/${own}/assign/${agenteId}`);
    expect((await t.call(lmartinez, 'GET', `/api/activities?ticket_id=${own}`)).statusCode).toBe(403);
  });

  it('requires a name, with the Spanish message, and a real ticket', async () => {
    const empty = await t.call(agente, 'POST', '/api/activities/create', { name: '   ', ticket_id: ticketId });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.name).toEqual(['Por favor ingrese el nombre de la actividad.']);
    const missing = await t.call(agente, 'POST', '/api/activities/create', { ticket_id: ticketId });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.name).toEqual(['Por favor ingrese el nombre de la actividad.']);
    const unknown = await t.call(agente, 'POST', '/api/activities/create', { name: 'Algo', ticket_id: 999999 });
    expect(unknown.statusCode).toBe(404);
    expect((await t.call(agente, 'GET', '/api/activities?ticket_id=abc')).statusCode).toBe(422);
    expect((await t.call(agente, 'GET', '/api/activities')).statusCode).toBe(422);
    expect((await t.call(agente, 'PUT', '/api/activities/999999', { status_id: 2 })).statusCode).toBe(404);
    expect((await t.call(agente, 'PUT', `/api/activities/${activityId}`, { status_id: 7 })).statusCode).toBe(422);
  });

  it('searches activities by name and pages them', async () => {
    for (const name of ['Cambio de sensor', 'Prueba de apertura', 'Cierre con el solicitante']) {
      expect((await t.call(agente, 'POST', '/api/activities/create', { name, ticket_id: ticketId })).statusCode).toBe(
        201,
      );
    }
    const found = (await list(agente, '&search=SENSOR')).json();
    expect(found.data.data.map((a: { name: string }) => a.name)).toEqual([
      'Cambio de sensor',
      'Se revisó el cableado del sensor',
    ]);
    const paged = (await t.call(agente, 'GET', `/api/activities?ticket_id=${ticketId}&page=2&per_page=3`)).json();
    expect(paged.data).toMatchObject({ current_page: 2, last_page: 2, total: 4 });
    expect(paged.data.data).toHaveLength(1);
  });

  it('lets the assignee delete an activity (status 2), which then leaves the list', async () => {
    const res = await t.call(agente, 'PUT', `/api/activities/${activityId}`, { status_id: 2 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: true, message: 'Actividad eliminada', data: { status_id: 2 } });
    const after = (await list(agente)).json();
    expect(after.data.data.map((a: { id: number }) => a.id)).not.toContain(activityId);
    const row = await t.services.database.db
      .selectFrom('activities')
      .select('status_id')
      .where('id', '=', activityId)
      .executeTakeFirstOrThrow();
    expect(row.status_id).toBe(2);
  });

  it('passes the write right to the new assignee when the ticket is reassigned', async () => {
    const lmartinezId = (
      await t.services.database.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'lmartinez')
        .executeTakeFirstOrThrow()
    ).id;
    expect((await t.call(admin, 'PATCH', `/api/tickets/${ticketId}/assign/${lmartinezId}`)).statusCode).toBe(200);
    expect((await list(lmartinez)).json().can_write).toBe(true);
    expect((await list(agente)).statusCode).toBe(403);
    expect(
      (await t.call(agente, 'POST', '/api/activities/create', { name: 'Tarde', ticket_id: ticketId })).statusCode,
    ).toBe(403);
  });
});
