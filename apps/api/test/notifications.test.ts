import { NOTIFICATION_TEXT, type TNotification } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';

const userIdOf = async (t: TestApp, username: string) =>
  (
    await t.services.database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow()
  ).id;

describe.each(dialects)('notifications API on %s', (dialect) => {
  let t: TestApp;
  let agente: string;
  let supervisor: string;
  let agenteId: number;
  let supervisorId: number;
  let ticketId: number | null;

  const notifyUser = (userId: number, message = NOTIFICATION_TEXT.assigned) =>
    t.services.notifications.create({
      user_id: userId,
      ticket_id: ticketId,
      title: ticketId ? NOTIFICATION_TEXT.title(ticketId) : 'Aviso',
      message,
      type: 'info',
    });
  const rowOf = (id: number) =>
    t.services.database.db
      .selectFrom('notifications')
      .select(['user_id', 'viewed', 'visible'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const active = async (token: string) => {
    const res = await t.call(token, 'GET', '/api/notifications/active-records');
    expect(res.statusCode).toBe(200);
    return res.json() as { status: true; data: TNotification[]; total: number };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [agente, supervisor] = await Promise.all([t.login('agente'), t.login('supervisor')]);
    agenteId = await userIdOf(t, 'agente');
    supervisorId = await userIdOf(t, 'supervisor');
    const ticket = await t.services.database.db.selectFrom('tickets').select('id').orderBy('id').executeTakeFirst();
    ticketId = ticket?.id ?? null;
  });
  afterAll(() => t?.close());

  it('lists only the caller’s unread notifications, newest first, with every field a notification has', async () => {
    const before = (await active(agente)).total;
    const first = await notifyUser(agenteId);
    const second = await notifyUser(agenteId);
    const others = await notifyUser(supervisorId);

    const body = await active(agente);
    expect(body.status).toBe(true);
    expect(body.total).toBe(before + 2);
    expect(body.data.slice(0, 2).map((n) => n.id)).toEqual([second, first]);
    expect(body.data.map((n) => n.id)).not.toContain(others);
    const item = body.data[0]!;
    expect(item).toEqual({
      id: second,
      ticket_id: ticketId,
      title: ticketId ? `Ticket #${ticketId}` : 'Aviso',
      message: 'Se te ha asignado un nuevo ticket',
      type: 'info',
      viewed: 0,
      visible: 1,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      timestamp: Date.parse(item.created_at),
      actor_name: null,
      ticket_name: ticketId ? expect.any(String) : null,
    });
    expect(JSON.stringify(body)).not.toMatch(/user_id/);

    const theirs = await active(supervisor);
    expect(theirs.data.map((n) => n.id)).toContain(others);
    expect(theirs.data.map((n) => n.id)).not.toContain(first);
  });

  it('marks viewed only the caller’s own ids and leaves another user’s untouched and unrevealed', async () => {
    const mine = await notifyUser(agenteId);
    const theirs = await notifyUser(supervisorId);

    const res = await t.call(agente, 'POST', '/api/notifications/view', { ids: [mine, theirs, 999_999] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: true, message: NOTIFICATION_TEXT.viewed, data: { updated: 1 } });
    expect(await rowOf(mine)).toMatchObject({ viewed: 1, visible: 1 });
    expect(await rowOf(theirs)).toMatchObject({ user_id: supervisorId, viewed: 0, visible: 1 });

    // Viewed is not read: it stays in the unread list, now viewed.
    const item = (await active(agente)).data.find((n) => n.id === mine);
    expect(item).toMatchObject({ viewed: 1, visible: 1 });

    // Someone else's id alone: the same success, nothing changed, nothing told.
    const probe = await t.call(agente, 'POST', '/api/notifications/view', { ids: [theirs] });
    expect(probe.json()).toEqual({ status: true, message: NOTIFICATION_TEXT.viewed, data: { updated: 0 } });
    expect(await rowOf(theirs)).toMatchObject({ viewed: 0 });
  });

  it('marks read (removes) one notification of the caller, never another user’s', async () => {
    const mine = await notifyUser(agenteId);
    const theirs = await notifyUser(supervisorId);

    const res = await t.call(agente, 'POST', '/api/notifications/read', { ids: [String(mine), theirs] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.updated).toBe(1);
    expect(await rowOf(mine)).toMatchObject({ viewed: 1, visible: 0 });
    expect(await rowOf(theirs)).toMatchObject({ viewed: 0, visible: 1 });
    expect((await active(agente)).data.map((n) => n.id)).not.toContain(mine);
    expect((await active(supervisor)).data.map((n) => n.id)).toContain(theirs);

    const again = await t.call(agente, 'POST', '/api/notifications/read', { ids: [mine] });
    expect(again.json().data.updated).toBe(0);
  });

  it('marks all of the caller’s notifications read, answering Eliminadas, and no one else’s', async () => {
    await notifyUser(agenteId);
    const theirs = await notifyUser(supervisorId);
    const supervisorBefore = (await active(supervisor)).total;
    const agenteBefore = (await active(agente)).total;
    expect(agenteBefore).toBeGreaterThan(0);

    const res = await t.call(agente, 'POST', '/api/notifications/read-all');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: true, message: 'Eliminadas', data: { updated: agenteBefore } });

    expect(await active(agente)).toEqual({ status: true, data: [], total: 0 });
    expect((await active(supervisor)).total).toBe(supervisorBefore);
    expect(await rowOf(theirs)).toMatchObject({ visible: 1 });
  });

  it('keeps the history: read and unread, newest first, paged by before_id, only the caller’s', async () => {
    const fresh = await notifyUser(agenteId);
    const theirs = await notifyUser(supervisorId);
    const res = await t.call(agente, 'GET', '/api/notifications/all-data');
    expect(res.statusCode).toBe(200);
    const all = res.json() as { data: TNotification[]; has_more: boolean };
    expect(all.has_more).toBe(false);
    expect(all.data[0]).toMatchObject({ id: fresh, visible: 1 });
    expect(all.data.some((n) => n.visible === 0)).toBe(true);
    expect(all.data.map((n) => n.id)).not.toContain(theirs);
    const ids = all.data.map((n) => n.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const page1 = (await t.call(agente, 'GET', '/api/notifications/all-data?limit=2')).json();
    expect(page1.data.map((n: TNotification) => n.id)).toEqual(ids.slice(0, 2));
    expect(page1.has_more).toBe(true);
    const page2 = (await t.call(agente, 'GET', `/api/notifications/all-data?limit=2&before_id=${ids[1]}`)).json();
    expect(page2.data.map((n: TNotification) => n.id)).toEqual(ids.slice(2, 4));
  });

  it('answers bad input with a Spanish 422 and never a 500', async () => {
    const cases: [string, string, unknown][] = [
      ['POST', '/api/notifications/view', {}],
      ['POST', '/api/notifications/view', { ids: [] }],
      ['POST', '/api/notifications/view', { ids: ['abc'] }],
      ['POST', '/api/notifications/view', { ids: 'todas' }],
      ['POST', '/api/notifications/read', { ids: Array.from({ length: 101 }, (_, i) => i + 1) }],
      ['POST', '/api/notifications/read', { ids: [-1] }],
      ['GET', '/api/notifications/all-data?limit=0', undefined],
      ['GET', '/api/notifications/all-data?limit=abc', undefined],
      ['GET', '/api/notifications/all-data?before_id=x', undefined],
    ];
    for (const [method, url, body] of cases) {
      const res = await t.call(agente, method as 'GET' | 'POST', url, body);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(422);
      expect(res.json()).toMatchObject({ status: false, message: 'Error de validación' });
      expect(Object.values(res.json().errors).flat().join(' ')).toMatch(/[a-záéíóúñ]/i);
    }
    const empty = await t.call(agente, 'POST', '/api/notifications/view', { ids: [] });
    expect(empty.json().errors.ids).toEqual(['Debes indicar al menos una notificación.']);
  });

  it('refuses every notification call without a valid session (401)', async () => {
    for (const [method, url] of [
      ['GET', '/api/notifications/active-records'],
      ['GET', '/api/notifications/all-data'],
      ['POST', '/api/notifications/view'],
      ['POST', '/api/notifications/read'],
      ['POST', '/api/notifications/read-all'],
      ['POST', '/api/notifications/stream-ticket'],
    ] as const) {
      for (const token of [null, 'garbage']) {
        const res = await t.call(token, method, url, method === 'POST' ? { ids: [1] } : undefined);
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json().status).toBe(false);
      }
    }
  });

  it('never notifies the person who acted, and nobody when there is no recipient', async () => {
    const before = await t.services.database.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const tid = ticketId ?? 1;
    const self = await t.services.notifications.notify({
      recipientId: agenteId,
      actorId: agenteId,
      ticketId: tid,
      event: 'activity_added',
      message: NOTIFICATION_TEXT.activityAdded,
    });
    const none = await t.services.notifications.notify({
      recipientId: null,
      actorId: agenteId,
      ticketId: tid,
      event: 'status_changed',
      message: NOTIFICATION_TEXT.statusChanged,
    });
    expect(self).toBeNull();
    expect(none).toBeNull();
    const after = await t.services.database.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));

    if (ticketId) {
      const id = await t.services.notifications.notify({
        recipientId: supervisorId,
        actorId: agenteId,
        ticketId,
        event: 'activity_added',
        message: NOTIFICATION_TEXT.activityAdded,
      });
      expect(id).not.toBeNull();
      expect((await active(supervisor)).data[0]).toMatchObject({
        id,
        title: `Ticket #${ticketId}`,
        message: NOTIFICATION_TEXT.activityAdded,
        type: 'info',
      });
    }
  });
});
