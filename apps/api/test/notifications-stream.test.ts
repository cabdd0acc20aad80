import { NOTIFICATION_TEXT, type TNotification } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSiblingApp, createTestApp, dialects, type TestApp } from './helper.ts';
import { listen, openStream, streamTicket, type StreamEvent } from './notifications-stream-client.ts';

const isNotification = (id: number) => (e: StreamEvent) =>
  e.event === 'notification' && (e.data as TNotification).id === id;

describe.each(dialects)('notifications live stream on %s', (dialect) => {
  let t: TestApp;
  let baseUrl: string;
  let agente: string;
  let agenteId: number;
  let supervisorId: number;

  const note = (userId: number) => ({
    user_id: userId,
    ticket_id: null,
    title: 'Aviso',
    message: NOTIFICATION_TEXT.assigned,
    type: 'info' as const,
  });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    baseUrl = await listen(t);
    agente = await t.login('agente');
    const ids = await t.services.database.db.selectFrom('users').select(['id', 'username']).execute();
    agenteId = ids.find((u) => u.username === 'agente')!.id;
    supervisorId = ids.find((u) => u.username === 'supervisor')!.id;
  });
  afterAll(() => t?.close());

  it('pushes a notification created by another request to its recipient within a second, and to no one else', async () => {
    const supervisor = await t.login('supervisor');
    const mine = await openStream(baseUrl, { ticket: await streamTicket(t, agente) });
    const theirs = await openStream(baseUrl, { ticket: await streamTicket(t, supervisor) });
    expect(mine.res.status).toBe(200);
    expect(mine.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(mine.res.headers.get('cache-control')).toMatch(/no-cache/);
    expect(mine.res.headers.get('x-content-type-options')).toBe('nosniff');
    await mine.waitFor((e) => e.event === 'ready');
    await theirs.waitFor((e) => e.event === 'ready');

    const sentAt = performance.now();
    const id = await t.services.notifications.create(note(agenteId));
    const event = await mine.waitFor(isNotification(id), 1000);
    expect(event.at - sentAt).toBeLessThan(1000);
    expect(event.id).toBe(String(id));
    expect(event.data).toMatchObject({ id, message: NOTIFICATION_TEXT.assigned, viewed: 0, visible: 1 });

    // A later notification of their own reaching them shows the agent's had its chance to, before it.
    const marker = await t.services.notifications.create(note(supervisorId));
    await theirs.waitFor(isNotification(marker));
    expect(theirs.events.filter((e) => e.event === 'notification').map((e) => e.id)).toEqual([String(marker)]);
    await Promise.all([mine.close(), theirs.close()]);
  });

  it('pushes a ticket assignment (PATCH /tickets/{id}/assign/{userId}) to the assignee; assigning oneself notifies nobody', async () => {
    const admin = await t.login('admin');
    const adminId = (await t.services.database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow())!.id;
    const [first, second] = await t.services.database.db
      .selectFrom('tickets')
      .select('id')
      .where((eb) => eb.or([eb('user_assigned_id', 'is', null), eb('user_assigned_id', 'not in', [agenteId, adminId])]))
      .orderBy('id')
      .limit(2)
      .execute();
    const stream = await openStream(baseUrl, { ticket: await streamTicket(t, agente) });
    await stream.waitFor((e) => e.event === 'ready');

    const sentAt = performance.now();
    const res = await t.call(admin, 'PATCH', `/api/tickets/${first!.id}/assign/${agenteId}`);
    expect(res.statusCode).toBe(200);
    const event = await stream.waitFor((e) => e.event === 'notification', 1000);
    expect(event.at - sentAt).toBeLessThan(1000);
    expect(event.data).toMatchObject({
      ticket_id: first!.id,
      title: `Ticket #${first!.id}`,
      message: 'Se te ha asignado un nuevo ticket',
      type: 'info',
    });
    await stream.close();

    const adminStream = await openStream(baseUrl, { ticket: await streamTicket(t, admin) });
    await adminStream.waitFor((e) => e.event === 'ready');
    const before = (await t.call(admin, 'GET', '/api/notifications/active-records')).json().total;
    expect((await t.call(admin, 'PATCH', `/api/tickets/${second!.id}/assign/${adminId}`)).statusCode).toBe(200);
    expect((await t.call(admin, 'GET', '/api/notifications/active-records')).json().total).toBe(before);
    // A later notification reaching the stream shows the assignment's had its chance to, before it.
    const marker = await t.services.notifications.create(note(adminId));
    await adminStream.waitFor(isNotification(marker));
    expect(adminStream.events.filter((e) => e.event === 'notification').map((e) => e.id)).toEqual([String(marker)]);
    await adminStream.close();
  });

  it('pushes nothing for a rolled-back transaction and the notification once committed', async () => {
    const stream = await openStream(baseUrl, { ticket: await streamTicket(t, agente) });
    await stream.waitFor((e) => e.event === 'ready');
    const { db } = t.services.database;

    await expect(
      db.transaction().execute(async (trx) => {
        await t.services.notifications.create(note(agenteId), trx);
        throw new Error('asignación cancelada');
      }),
    ).rejects.toThrow('asignación cancelada');
    const committed = await db
      .transaction()
      .execute((trx) => t.services.notifications.create({ ...note(agenteId), message: 'confirmada' }, trx));

    // A later notification reaching the stream shows the rolled-back one had its chance to, before it.
    const marker = await t.services.notifications.create(note(agenteId));
    await stream.waitFor(isNotification(marker));
    const pushed = stream.events.filter((e) => e.event === 'notification').map((e) => (e.data as TNotification).id);
    expect(pushed).toEqual([committed, marker]);
    await stream.close();
  });

  it('sends the unread notifications newer than since on connect', async () => {
    const a = await t.services.notifications.create(note(agenteId));
    const b = await t.services.notifications.create(note(agenteId));
    const stream = await openStream(baseUrl, { ticket: await streamTicket(t, agente), since: String(a - 1) });
    await stream.waitFor(isNotification(b));
    const pushed = stream.events.filter((e) => e.event === 'notification').map((e) => (e.data as TNotification).id);
    expect(pushed).toEqual([a, b]);
    await stream.close();
  });

  it('refuses without a valid ticket: missing, forged, the bearer token itself, reused, expired', async () => {
    const missing = await fetch(`${baseUrl}/api/notifications/stream`);
    expect(missing.status).toBe(422);
    expect(await missing.json()).toMatchObject({ status: false, message: 'Error de validación' });

    const ticket = await streamTicket(t, agente);
    const [body, signature] = ticket.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const otherUser = Buffer.from(JSON.stringify({ ...payload, u: supervisorId })).toString('base64url');
    for (const bad of [`${otherUser}.${signature}`, `${body}.${'A'.repeat(43)}`, agente, 'garbage', `${ticket}.x`]) {
      const res = await fetch(`${baseUrl}/api/notifications/stream?ticket=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(401);
      expect(await res.json()).toEqual({ status: false, message: NOTIFICATION_TEXT.streamRefused });
    }

    const first = await openStream(baseUrl, { ticket });
    expect(first.res.status).toBe(200);
    const reused = await fetch(`${baseUrl}/api/notifications/stream?ticket=${encodeURIComponent(ticket)}`);
    expect(reused.status).toBe(401);
    await first.close();

    const late = await streamTicket(t, agente);
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 31_000);
    try {
      const expired = await fetch(`${baseUrl}/api/notifications/stream?ticket=${encodeURIComponent(late)}`);
      expect(expired.status).toBe(401);
    } finally {
      vi.restoreAllMocks();
    }

    const refusals = await t.services.database.db
      .selectFrom('audit_log')
      .select('event')
      .where('event', '=', 'notifications.stream_refused')
      .execute();
    expect(refusals.length).toBeGreaterThanOrEqual(7);
  });

  it('refuses a ticket of a session that has ended, and ends open streams when their session ends', async () => {
    const token = await t.login('agente');
    const spare = await streamTicket(t, token);
    const stream = await openStream(baseUrl, { ticket: await streamTicket(t, token) });
    await stream.waitFor((e) => e.event === 'ready');

    expect((await t.call(token, 'POST', '/api/logout')).statusCode).toBe(200);
    const afterLogout = await fetch(`${baseUrl}/api/notifications/stream?ticket=${encodeURIComponent(spare)}`);
    expect(afterLogout.status).toBe(401);

    await t.services.notifications.revalidateStreams();
    const end = await stream.waitFor((e) => e.event === 'end');
    expect(end.data).toEqual({ reason: 'session' });
    await stream.ended;
    expect(stream.isDone).toBe(true);
  });

  it('caps the streams one user may hold open at once (429 beyond 10)', async () => {
    const token = await t.login('mflores');
    const streams = [];
    for (let i = 0; i < 10; i += 1) streams.push(await openStream(baseUrl, { ticket: await streamTicket(t, token) }));
    await Promise.all(streams.map((s) => s.waitFor((e) => e.event === 'ready')));
    const extra = await fetch(`${baseUrl}/api/notifications/stream?ticket=${await streamTicket(t, token)}`);
    expect(extra.status).toBe(429);
    expect(await extra.json()).toMatchObject({ status: false, message: expect.stringMatching(/conexiones/) });
    await Promise.all(streams.map((s) => s.close()));
    await expect.poll(() => t.services.notifications.openStreams).toBe(0);
  });

  it('ends its streams cleanly when the app closes', async () => {
    const sibling = await createSiblingApp(t);
    const siblingUrl = await listen(sibling);
    const stream = await openStream(siblingUrl, { ticket: await streamTicket(sibling, agente) });
    await stream.waitFor((e) => e.event === 'ready');
    expect(sibling.services.notifications.openStreams).toBe(1);

    const started = performance.now();
    await sibling.close();
    expect(performance.now() - started).toBeLessThan(2000);
    await stream.ended;
    expect(stream.events.at(-1)).toMatchObject({ event: 'end', data: { reason: 'shutdown' } });
    expect(sibling.services.notifications.openStreams).toBe(0);
  });

  it.runIf(dialect === 'postgres')(
    'delivers through LISTEN/NOTIFY to a stream held by another process on the same database',
    async () => {
      const other = await createSiblingApp(t);
      try {
        const otherUrl = await listen(other);
        // The ticket comes from one process and opens the stream on the other: tickets are not process-bound.
        const ticket = await streamTicket(t, agente);
        const stream = await openStream(otherUrl, { ticket });
        await stream.waitFor((e) => e.event === 'ready');
        const replayed = await fetch(`${baseUrl}/api/notifications/stream?ticket=${encodeURIComponent(ticket)}`);
        expect(replayed.status).toBe(401);

        const sentAt = performance.now();
        const id = await t.services.database.db
          .transaction()
          .execute((trx) => t.services.notifications.create(note(agenteId), trx));
        const event = await stream.waitFor(isNotification(id), 1000);
        expect(event.at - sentAt).toBeLessThan(1000);

        await stream.close();
      } finally {
        await other.close();
      }
    },
  );
});
