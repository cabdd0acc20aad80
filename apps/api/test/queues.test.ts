import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

/** Colas: a group's unassigned open tickets, most urgent first, and an atomic 'Tomar'. */
describe.each(dialects)('queues on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let supervisor: string;
  let agente: string;
  let lucia: string;
  let jorge: string;
  let almacen: number;
  let flota: number;
  const ids: Record<string, number> = {};

  const userId = async (username: string) =>
    (
      await t.services.database.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;
  const newTicket = async (name: string, group_id: number | null, priority_type_id = 1) => {
    const res = await t.call(supervisor, 'POST', '/api/tickets/create', {
      ...ticketBody(name, 'En cola'),
      priority_type_id,
      group_id,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as number;
  };
  const queue = async (token: string, groupId: number) =>
    t.call(token, 'POST', `/api/queues/${groupId}`, { page: 1, per_page: 20 });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, supervisor, agente, lucia, jorge] = await Promise.all([
      t.login('admin'),
      t.login('supervisor'),
      t.login('agente'),
      t.login('lmartinez'),
      t.login('jcastillo'),
    ]);
    const create = async (name: string) =>
      ((await t.call(admin, 'POST', '/api/groups/create', { name })).json() as { data: { id: number } }).data.id;
    [almacen, flota] = [await create('Almacén'), await create('Flota Refrigerada')];
    for (const u of ['agente', 'lmartinez'])
      await t.call(admin, 'POST', `/api/groups/${almacen}/members`, { user_id: await userId(u) });
    await t.call(admin, 'POST', `/api/groups/${flota}/members`, { user_id: await userId('jcastillo') });
    ids.low = await newTicket('Etiqueta borrosa', almacen, 1);
    ids.urgent = await newTicket('Cámara sin frío', almacen, 4);
    ids.urgentLater = await newTicket('Andén bloqueado', almacen, 4);
    ids.other = await newTicket('Camión varado', flota, 3);
    ids.none = await newTicket('Sin equipo', null, 4);
  });
  afterAll(() => t?.close());

  it('shows an agent only the queues of their groups, most urgent then oldest first', async () => {
    const tabs = await t.call(agente, 'GET', '/api/queues');
    expect(tabs.statusCode, tabs.body).toBe(200);
    expect(tabs.json().data).toEqual([{ id: almacen, name: 'Almacén', count: 3, count_is_lower_bound: false }]);
    const page = await queue(agente, almacen);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data.map((x: { id: number }) => x.id)).toEqual([ids.urgent, ids.urgentLater, ids.low]);
    expect(page.json().meta.total).toBe(3);
    // Another group's queue is refused.
    expect((await queue(agente, flota)).statusCode).toBe(403);
    expect((await t.call(agente, 'POST', `/api/queues/take/${ids.other}`)).statusCode).toBe(403);
  });

  it('shows a supervisor every group', async () => {
    const tabs = (await t.call(supervisor, 'GET', '/api/queues')).json().data as { id: number; count: number }[];
    // Every active group has its tab (the seeded ones too, with empty queues).
    expect(tabs.length).toBeGreaterThan(2);
    expect(tabs.filter((x) => x.count > 0).map((x) => [x.id, x.count])).toEqual([
      [almacen, 3],
      [flota, 1],
    ]);
    expect((await queue(supervisor, flota)).json().data.map((x: { id: number }) => x.id)).toEqual([ids.other]);
  });

  it('takes a ticket atomically: of two agents at once one wins, the other gets a 409, and it leaves the queue', async () => {
    const [a, b] = await Promise.all([
      t.call(agente, 'POST', `/api/queues/take/${ids.urgent}`),
      t.call(lucia, 'POST', `/api/queues/take/${ids.urgent}`),
    ]);
    const codes = [a.statusCode, b.statusCode].sort();
    expect(codes).toEqual([200, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(loser.json().message).toBe('Otro agente ya tomó este ticket.');
    const winner = a.statusCode === 200 ? 'agente' : 'lmartinez';
    const detail = (await t.call(admin, 'GET', `/api/tickets/${ids.urgent}`)).json().data;
    expect(detail.user_assigned_id).toBe(await userId(winner));
    expect(detail.events.filter((e: { kind: string }) => e.kind === 'assigned')).toHaveLength(1);
    expect((await queue(agente, almacen)).json().data.map((x: { id: number }) => x.id)).toEqual([
      ids.urgentLater,
      ids.low,
    ]);
    // Taken again later: still a 409.
    expect((await t.call(agente, 'POST', `/api/queues/take/${ids.urgent}`)).statusCode).toBe(409);
  });

  it('refuses a ticket in no queue, an unknown ticket, and a take without w on qu_main', async () => {
    const none = await t.call(supervisor, 'POST', `/api/queues/take/${ids.none}`);
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe('El ticket no está en ninguna cola.');
    expect((await t.call(supervisor, 'POST', '/api/queues/take/999999')).statusCode).toBe(404);
    const section = await t.services.database.db
      .selectFrom('sections')
      .select('id')
      .where('name', '=', 'qu_main')
      .executeTakeFirstOrThrow();
    const grant = await t.services.database.db
      .selectFrom('sections_permission')
      .select('id')
      .where('section_id', '=', section.id)
      .where('role_id', '=', 3)
      .executeTakeFirstOrThrow();
    const res = await t.call(admin, 'PUT', `/api/sections-permission/update/${grant.id}`, { role_id: 3, r: 1, w: 0 });
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.call(jorge, 'POST', `/api/queues/take/${ids.other}`)).statusCode).toBe(403);
    expect((await queue(jorge, flota)).statusCode).toBe(200);
    expect((await t.call(null, 'GET', '/api/queues')).statusCode).toBe(401);
  });
});
