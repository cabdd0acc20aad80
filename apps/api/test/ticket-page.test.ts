import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';
import { listen, openStream, streamTicket } from './notifications-stream-client.ts';

const form = {
  name: 'Sensor de humedad averiado',
  description: 'El sensor de la cámara 3 marca cero desde la mañana',
  area_id: 1,
  project_id: 1,
  category_id: 1,
  priority_type_id: 2,
  difficulty_id: 1,
  status_id: 1,
};

describe.each(dialects)('the ticket page and its timeline on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let supervisor: string;
  let agente: string;
  let lmartinez: string;
  const ids: Record<string, number> = {};
  const db = () => t.services.database.db;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, supervisor, agente, lmartinez] = (await Promise.all(
      ['admin', 'supervisor', 'agente', 'lmartinez'].map((u) => t.login(u)),
    )) as [string, string, string, string];
    for (const u of await db().selectFrom('users').select(['id', 'username']).execute()) ids[u.username] = u.id;
  });
  afterAll(() => t?.close());

  it('gives every existing ticket its created event (migration and seed)', async () => {
    const tickets = await db().selectFrom('tickets').select(['id', 'created_by', 'created_at']).execute();
    const created = await db()
      .selectFrom('ticket_events')
      .select(['ticket_id', 'user_id', 'created_at'])
      .where('kind', '=', 'created')
      .execute();
    expect(created).toHaveLength(tickets.length);
    const byTicket = new Map(created.map((e) => [e.ticket_id, e]));
    for (const ticket of tickets) {
      expect(byTicket.get(ticket.id)).toMatchObject({ user_id: ticket.created_by, created_at: ticket.created_at });
    }
  });

  it('shows a ticket with every field, creator, assignee, timeline and abilities; same visibility as the lists', async () => {
    const other = await db()
      .selectFrom('tickets')
      .select(['id'])
      .where('created_by', '<>', ids.agente!)
      .where((eb) => eb.or([eb('user_assigned_id', '<>', ids.agente!), eb('user_assigned_id', 'is', null)]))
      .executeTakeFirstOrThrow();
    const res = await t.call(supervisor, 'GET', `/api/tickets/${other.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({
      id: other.id,
      name: expect.any(String),
      description: expect.any(String),
      users: { id: expect.any(Number), name: expect.any(String) },
      priorities: { name: expect.any(String) },
      events: [{ kind: 'created', user: { id: expect.any(Number), name: expect.any(String) } }],
      can: { update: true, activities: 'view' },
    });

    // The agent sees only their own tickets (Mis Tickets, history): 403 for another's, 404 for none.
    const refused = await t.call(agente, 'GET', `/api/tickets/${other.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ status: false, message: 'No tienes permiso para ver este ticket.' });
    expect((await t.call(agente, 'GET', '/api/tickets/99999999')).statusCode).toBe(404);
    expect((await t.call(agente, 'GET', '/api/tickets/abc')).statusCode).toBe(422);
    expect((await t.call(null, 'GET', `/api/tickets/${other.id}`)).statusCode).toBe(401);

    const own = await db()
      .selectFrom('tickets')
      .select('id')
      .where('user_assigned_id', '=', ids.agente!)
      .executeTakeFirstOrThrow();
    const mine = await t.call(agente, 'GET', `/api/tickets/${own.id}`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data.can).toMatchObject({ activities: 'register', assign: false });
  });

  it('records created, edited (field from → to), status changed, assigned, reassigned and activity events, newest last', async () => {
    const created = await t.call(agente, 'POST', '/api/tickets/create', form);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as number;

    const edited = await t.call(agente, 'PUT', `/api/tickets/update/${id}`, {
      ...form,
      name: 'Sensor de humedad dañado',
      priority_type_id: 4,
      status_id: 2,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await t.call(admin, 'PATCH', `/api/tickets/${id}/assign/${ids.agente}`)).statusCode).toBe(200);
    expect((await t.call(admin, 'PATCH', `/api/tickets/${id}/assign/${ids.lmartinez}`)).statusCode).toBe(200);
    const activity = await t.call(lmartinez, 'POST', '/api/activities/create', {
      name: 'Revisión en sitio',
      ticket_id: id,
    });
    expect(activity.statusCode, activity.body).toBe(201);
    const activityId = activity.json().data.id as number;
    expect((await t.call(lmartinez, 'PUT', `/api/activities/${activityId}`, { status_id: 2 })).statusCode).toBe(200);

    const { data } = (await t.call(admin, 'GET', `/api/tickets/${id}`)).json();
    const summary = data.events.map((e: Record<string, unknown>) => [e.kind, e.field, e.from_value, e.to_value]);
    const priorities = await db().selectFrom('priority_types').select(['id', 'name']).execute();
    const priorityName = (pid: number) => priorities.find((p) => p.id === pid)!.name;
    const statuses = await db().selectFrom('ticket_statuses').select(['id', 'name']).execute();
    const statusName = (sid: number) => statuses.find((s) => s.id === sid)!.name;
    expect(summary).toEqual([
      ['created', null, null, null],
      ['sla_assigned', 'resolution_due_at', null, expect.any(String)],
      ['edited', 'name', 'Sensor de humedad averiado', 'Sensor de humedad dañado'],
      ['edited', 'priority_type_id', priorityName(2), priorityName(4)],
      ['status_changed', 'status_id', statusName(1), statusName(2)],
      ['sla_recalculated', 'resolution_due_at', expect.any(String), expect.any(String)],
      ['assigned', 'user_assigned_id', null, expect.stringMatching(/^\S+ \S+/)],
      ['assigned', 'user_assigned_id', expect.any(String), expect.any(String)],
      ['activity_added', null, null, 'Revisión en sitio'],
      ['activity_removed', null, 'Revisión en sitio', null],
    ]);
    expect(data.events[0].user.id).toBe(ids.agente);
    expect(data.events[6].user.id).toBe(ids.admin);
    expect(data.events[7].from_value).toBe(data.events[6].to_value);
    expect(data.events[8].user.id).toBe(ids.lmartinez);
    const times = data.events.map((e: { created_at: string }) => Date.parse(e.created_at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('writes no event when a change is refused or rolled back', async () => {
    const { id } = await db()
      .selectFrom('tickets')
      .select('id')
      .where('created_by', '<>', ids.agente!)
      .where((eb) => eb.or([eb('user_assigned_id', '<>', ids.agente!), eb('user_assigned_id', 'is', null)]))
      .executeTakeFirstOrThrow();
    const before = await db().selectFrom('ticket_events').select('id').where('ticket_id', '=', id).execute();
    expect((await t.call(agente, 'PUT', `/api/tickets/update/${id}`, form)).statusCode).toBe(403);
    const bad = await t.call(admin, 'PUT', `/api/tickets/update/${id}`, { ...form, area_id: 9999 });
    expect(bad.statusCode).toBe(422);
    const after = await db().selectFrom('ticket_events').select('id').where('ticket_id', '=', id).execute();
    expect(after).toHaveLength(before.length);
  });

  it('pushes a ticket-changed event to those who may see the ticket, not to others', async () => {
    const baseUrl = await listen(t);
    const created = await t.call(supervisor, 'POST', '/api/tickets/create', form);
    const id = created.json().data.id as number;
    const agentStream = await openStream(baseUrl, { ticket: await streamTicket(t, agente) });
    const adminStream = await openStream(baseUrl, { ticket: await streamTicket(t, admin) });
    const otherStream = await openStream(baseUrl, { ticket: await streamTicket(t, lmartinez) });
    try {
      for (const s of [agentStream, adminStream, otherStream]) await s.waitFor((e) => e.event === 'ready');
      const started = performance.now();
      expect((await t.call(supervisor, 'PATCH', `/api/tickets/${id}/assign/${ids.agente}`)).statusCode).toBe(200);
      const isTicket = (e: { event: string; data: unknown }) =>
        e.event === 'ticket' && (e.data as { id: number }).id === id;
      const seen = await agentStream.waitFor(isTicket, 1000);
      expect(seen.at - started).toBeLessThan(1000);
      await adminStream.waitFor(isTicket, 1000);
      // lmartinez (an agent) is not involved and may not see every ticket: a later notification of
      // their own reaching them shows the ticket's event had its chance to, before it.
      const marker = await t.services.notifications.create({
        user_id: ids.lmartinez!,
        ticket_id: null,
        title: 'Aviso',
        message: 'Marca',
        type: 'info',
      });
      await otherStream.waitFor((e) => e.event === 'notification' && e.id === String(marker));
      expect(otherStream.events.some(isTicket)).toBe(false);
    } finally {
      await Promise.all([agentStream.close(), adminStream.close(), otherStream.close()]);
    }
  });
});
