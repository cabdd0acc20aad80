import { NOTIFICATION_TEXT, type TNotification } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';

/** Notifications say who did what: the actor's name and the ticket's name come with each one. */
describe.each(dialects)('who did what in notifications on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let agente: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, agente] = await Promise.all([t.login('admin'), t.login('agente')]);
  });
  afterAll(() => t?.close());

  const user = (username: string) =>
    t.services.database.db
      .selectFrom('users')
      .select(['id', 'name', 'last_name'])
      .where('username', '=', username)
      .executeTakeFirstOrThrow();

  it('names the administrator who assigned the ticket, and the ticket', async () => {
    const [adminRow, agenteRow] = await Promise.all([user('admin'), user('agente')]);
    const ticket = await t.services.database.db
      .selectFrom('tickets')
      .select(['id', 'name'])
      .where((eb) => eb.or([eb('user_assigned_id', 'is', null), eb('user_assigned_id', '!=', agenteRow.id)]))
      .orderBy('id')
      .executeTakeFirstOrThrow();

    const assigned = await t.call(admin, 'PATCH', `/api/tickets/${ticket.id}/assign/${agenteRow.id}`);
    expect(assigned.statusCode, assigned.body).toBe(200);

    const res = await t.call(agente, 'GET', '/api/notifications/active-records');
    expect(res.statusCode).toBe(200);
    const notification = (res.json().data as TNotification[]).find((n) => n.ticket_id === ticket.id);
    expect(notification).toMatchObject({
      message: NOTIFICATION_TEXT.assigned,
      actor_name: `${adminRow.name} ${adminRow.last_name}`,
      ticket_name: ticket.name,
    });

    const history = await t.call(agente, 'GET', '/api/notifications/all-data');
    expect(history.statusCode, history.body).toBe(200);
    expect((history.json().data as TNotification[]).find((n) => n.id === notification!.id)).toMatchObject({
      actor_name: `${adminRow.name} ${adminRow.last_name}`,
    });
  });

  it('answers null for a notification without an actor', async () => {
    const agenteRow = await user('agente');
    const id = await t.services.notifications.create({
      user_id: agenteRow.id,
      ticket_id: null,
      title: 'Aviso',
      message: 'Mantenimiento programado',
      type: 'info',
    });
    const res = await t.call(agente, 'GET', '/api/notifications/active-records');
    expect((res.json().data as TNotification[]).find((n) => n.id === id)).toMatchObject({
      actor_name: null,
      ticket_name: null,
    });
  });
});
