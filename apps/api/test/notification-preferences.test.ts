import { DEFAULT_NOTIFICATION_CHANNELS, NOTIFICATION_PREFERENCES_MSG } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

const URL = '/api/users/notification-preferences';

describe.each(dialects)('notification preferences on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let agente: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, agente] = await Promise.all([t.login('admin'), t.login('agente')]);
  });
  afterAll(() => t?.close());

  const idOf = async (username: string) =>
    (
      await t.services.database.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;

  it('answers the defaults to someone who never chose: assignment by both, the rest in the portal, immediately', async () => {
    const res = await t.call(agente, 'GET', URL);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ channels: DEFAULT_NOTIFICATION_CHANNELS, rhythm: 'immediate' });
    expect(DEFAULT_NOTIFICATION_CHANNELS).toMatchObject({ assigned: 'both', activity_added: 'portal' });
  });

  it("saves the caller's own choices, which then decide where an event goes", async () => {
    const choices = {
      channels: { assigned: 'none', status_changed: 'portal', activity_added: 'email', sla: 'portal' },
      rhythm: 'immediate',
    };
    const res = await t.call(admin, 'PUT', URL, choices);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: NOTIFICATION_PREFERENCES_MSG.saved, data: choices });
    expect((await t.call(admin, 'GET', URL)).json().data).toEqual(choices);
    // Another person's are untouched.
    expect((await t.call(agente, 'GET', URL)).json().data.channels).toEqual(DEFAULT_NOTIFICATION_CHANNELS);

    // The admin creates a ticket, the agent is assigned and adds an activity: the admin is told by e-mail only.
    const ticketId = (
      await t.call(admin, 'POST', '/api/tickets/create', ticketBody('Rampa 4 dañada', 'Se dobló'))
    ).json().data.id as number;
    const [adminId, agenteId] = await Promise.all([idOf('admin'), idOf('agente')]);
    expect((await t.call(admin, 'PATCH', `/api/tickets/${ticketId}/assign/${agenteId}`)).statusCode).toBe(200);
    const added = await t.call(agente, 'POST', '/api/activities/create', {
      name: 'Se soldó la rampa',
      ticket_id: ticketId,
    });
    expect(added.statusCode, added.body).toBe(201);
    const mails = await t.services.database.db
      .selectFrom('mail_outbox')
      .select(['user_id'])
      .where('ticket_id', '=', ticketId)
      .execute();
    expect(mails.map((m) => m.user_id).sort()).toEqual([adminId, agenteId].sort());
    const portal = await t.services.database.db
      .selectFrom('notifications')
      .select('user_id')
      .where('ticket_id', '=', ticketId)
      .execute();
    expect(portal.map((n) => n.user_id)).toEqual([agenteId]);
  });

  it('refuses an unknown channel or rhythm, or a missing event, with a Spanish 422 and nothing saved', async () => {
    const before = (await t.call(agente, 'GET', URL)).json().data;
    for (const body of [
      { channels: { ...DEFAULT_NOTIFICATION_CHANNELS, assigned: 'sms' }, rhythm: 'immediate' },
      { channels: DEFAULT_NOTIFICATION_CHANNELS, rhythm: 'weekly' },
      { channels: { assigned: 'both' }, rhythm: 'immediate' },
    ]) {
      const res = await t.call(agente, 'PUT', URL, body);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.body).toMatch(/[Ee]lige|Indica|canal|ritmo|obligatorio|inválid/);
    }
    expect((await t.call(agente, 'GET', URL)).json().data).toEqual(before);
  });

  it('refuses anyone not signed in', async () => {
    expect((await t.call(null, 'GET', URL)).statusCode).toBe(401);
    expect(
      (await t.call(null, 'PUT', URL, { channels: DEFAULT_NOTIFICATION_CHANNELS, rhythm: 'daily' })).statusCode,
    ).toBe(401);
  });
});
