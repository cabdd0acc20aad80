import { MAIL_TEXT, NOTIFICATION_TEXT, TICKET_MSG } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiblingApp, createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from './smtp-receiver.ts';

const PUBLIC_URL = 'https://portal.empresa.mx';
const mailEnv = (smtpUrl: string) => ({
  SMTP_URL: smtpUrl,
  MAIL_FROM: 'Portal de tickets <portal@empresa.mx>',
  MAIL_REPLY_ADDRESS: 'soporte@empresa.mx',
  PUBLIC_URL,
  MAIL_POLL_MS: '50',
  MAIL_RETRY_BASE_MS: '100',
});

/** Resolves once `check` answers true; polls the database, never sleeps a fixed time. */
async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const userId = async (t: TestApp, username: string) =>
  (
    await t.services.database.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('username', '=', username)
      .executeTakeFirstOrThrow()
  ).id;

const emailOf = async (t: TestApp, username: string) =>
  (
    await t.services.database.db
      .selectFrom('users')
      .select('email')
      .where('username', '=', username)
      .executeTakeFirstOrThrow()
  ).email;

async function createTicket(t: TestApp, token: string, name: string): Promise<number> {
  const res = await t.call(token, 'POST', '/api/tickets/create', ticketBody(name, `Descripción de ${name}`));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as number;
}

const outboxRows = (t: TestApp, ticketId: number) =>
  t.services.database.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('ticket_id', '=', ticketId)
    .orderBy('id')
    .execute();

const byMessageId = (mails: ReceivedMail[], messageId: string) =>
  mails.filter((m) => m.headers.get('message-id') === messageId);

describe.each(dialects)('notification mails through the outbox on %s', (dialect) => {
  let smtp: SmtpReceiver;
  let t: TestApp;
  let admin: string;
  let agente: string;
  let adminId: number;
  let agenteId: number;
  let agenteEmail: string;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await createTestApp(dialect, mailEnv(smtp.url));
    [admin, agente] = await Promise.all([t.login('admin'), t.login('agente')]);
    [adminId, agenteId, agenteEmail] = await Promise.all([
      userId(t, 'admin'),
      userId(t, 'agente'),
      emailOf(t, 'agente'),
    ]);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('mails an assignment (a default by e-mail): Spanish subject, link, thread, reply address, auto-generated', async () => {
    const ticketId = await createTicket(t, admin, 'Báscula descalibrada Nuevo Laredo');
    const res = await t.call(admin, 'PATCH', `/api/tickets/${ticketId}/assign/${agenteId}`);
    expect(res.statusCode, res.body).toBe(200);

    const mail = await smtp.waitFor((m) => m.subject === `[Ticket #${ticketId}] Báscula descalibrada Nuevo Laredo`);
    expect(mail.to).toEqual([agenteEmail]);
    expect(mail.text).toContain(TICKET_MSG.assignmentMessage);
    expect(mail.text).toContain(`${PUBLIC_URL}/tickets/${ticketId}`);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/tickets/${ticketId}"`);
    expect(mail.html).not.toMatch(/<img|src=/i);
    const h = mail.headers;
    expect(h.get('auto-submitted')).toBe('auto-generated');
    expect(h.get('in-reply-to')).toBe(`<ticket-${ticketId}@empresa.mx>`);
    expect(h.get('references')).toBe(`<ticket-${ticketId}@empresa.mx>`);
    expect(h.get('reply-to')).toBe(`soporte+t${ticketId}.${t.services.ticketMail.replyToken(ticketId)}@empresa.mx`);
    expect(h.get('reply-to')).toMatch(new RegExp(`^soporte\\+t${ticketId}\\.[0-9a-z]{8}@empresa\\.mx$`));
    expect(h.get('list-unsubscribe')).toBe(`<${PUBLIC_URL}/users-profile?tab=notificaciones>`);
    expect(mail.text).toContain(MAIL_TEXT.footer);

    await until(async () => (await outboxRows(t, ticketId))[0]?.status === 'sent');
    const [row] = await outboxRows(t, ticketId);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, to_address: agenteEmail, last_error: null });
    expect(h.get('message-id')).toBe(row!.message_id);
    // The portal notification is there too (assignment: both channels by default).
    const tray = await t.call(agente, 'GET', '/api/notifications/active-records');
    expect(tray.json().data.some((n: { ticket_id: number }) => n.ticket_id === ticketId)).toBe(true);
  });

  it('keeps one thread per ticket: a second mail answers the same thread with its own Message-ID', async () => {
    const ticketId = await createTicket(t, admin, 'Montacargas sin batería');
    await t.services.database.db
      .insertInto('notification_preferences')
      .values({ user_id: adminId, event: 'activity_added', channel: 'email' })
      .onConflict((oc) => oc.columns(['user_id', 'event']).doUpdateSet({ channel: 'email' }))
      .execute();
    expect((await t.call(admin, 'PATCH', `/api/tickets/${ticketId}/assign/${agenteId}`)).statusCode).toBe(200);
    const added = await t.call(agente, 'POST', '/api/activities/create', {
      name: 'Se cambió la batería del montacargas',
      ticket_id: ticketId,
    });
    expect(added.statusCode, added.body).toBe(201);

    await until(async () => (await outboxRows(t, ticketId)).every((r) => r.status === 'sent'));
    const rows = await outboxRows(t, ticketId);
    expect(rows.map((r) => r.user_id)).toEqual([agenteId, adminId]);
    const [first, second] = await Promise.all(
      rows.map((r) => smtp.waitFor((m) => m.headers.get('message-id') === r.message_id)),
    );
    expect(second!.text).toContain(NOTIFICATION_TEXT.activityAdded);
    expect(second!.text).toContain('Se cambió la batería del montacargas');
    expect(second!.headers.get('message-id')).not.toBe(first!.headers.get('message-id'));
    expect(second!.headers.get('references')).toBe(first!.headers.get('references'));
    // By e-mail only: no notification in the admin's tray for it.
    const notified = await t.services.database.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', adminId)
      .where('ticket_id', '=', ticketId)
      .execute();
    expect(notified).toEqual([]);
  });

  it('gathers the events of someone who chose an hourly digest into one mail at the next hour', async () => {
    const supervisor = await t.login('supervisor');
    const supervisorId = await userId(t, 'supervisor');
    const saved = await t.call(supervisor, 'PUT', '/api/users/notification-preferences', {
      channels: { assigned: 'email', status_changed: 'portal', activity_added: 'portal', sla: 'both' },
      rhythm: 'hourly',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const ids = [
      await createTicket(t, admin, 'Cortina del andén 1'),
      await createTicket(t, admin, 'Cortina del andén 2'),
    ];
    for (const id of ids) {
      expect((await t.call(admin, 'PATCH', `/api/tickets/${id}/assign/${supervisorId}`)).statusCode).toBe(200);
    }
    const lines = await t.services.database.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('user_id', '=', supervisorId)
      .where('status', '=', 'digest')
      .execute();
    expect(lines).toHaveLength(2);
    const nextHour = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 3_600_000;
    for (const line of lines) expect(Date.parse(line.next_attempt_at)).toBe(nextHour);

    // The hour comes.
    await t.services.database.db
      .updateTable('mail_outbox')
      .set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
      .where('status', '=', 'digest')
      .execute();
    t.services.mailWorker.wake();
    const digest = await smtp.waitFor((m) => m.subject === MAIL_TEXT.digestSubject(2));
    expect(digest.text).toContain(`[Ticket #${ids[0]}] Cortina del andén 1`);
    expect(digest.text).toContain(`[Ticket #${ids[1]}] Cortina del andén 2`);
    expect(digest.text).toContain(`${PUBLIC_URL}/tickets/${ids[1]}`);
    const left = () =>
      t.services.database.db.selectFrom('mail_outbox').select('status').where('user_id', '=', supervisorId).execute();
    // The two lines became that one mail.
    await until(async () => (await left()).every((r) => r.status === 'sent'));
    expect((await left()).map((r) => r.status)).toEqual(['sent']);
  });

  it('never mails the person who acted', async () => {
    const ticketId = await createTicket(t, admin, 'Puerta del andén atorada');
    expect((await t.call(admin, 'PATCH', `/api/tickets/${ticketId}/assign/${adminId}`)).statusCode).toBe(200);
    expect(await outboxRows(t, ticketId)).toEqual([]);
  });

  it('gives up at once on a mailbox the server refuses, with the error kept', async () => {
    const lmartinez = await userId(t, 'lmartinez');
    smtp.refuse(await emailOf(t, 'lmartinez'));
    const ticketId = await createTicket(t, admin, 'Impresora de etiquetas');
    expect((await t.call(admin, 'PATCH', `/api/tickets/${ticketId}/assign/${lmartinez}`)).statusCode).toBe(200);
    await until(async () => (await outboxRows(t, ticketId))[0]?.status === 'failed');
    const [row] = await outboxRows(t, ticketId);
    expect(row).toMatchObject({ attempts: 1 });
    expect(row!.last_error).toMatch(/550/);
  });

  it('sends again a mail whose worker died mid-send, once its lease ends, and only once', async () => {
    const ticketId = await createTicket(t, admin, 'Lector de códigos sin señal');
    await t.services.mailWorker.stop();
    try {
      expect((await t.call(admin, 'PATCH', `/api/tickets/${ticketId}/assign/${agenteId}`)).statusCode).toBe(200);
      // A worker claims the mail and dies before it is sent (kill -9): its claim is all that remains.
      const dead = await t.services.mailOutbox.claim(10, 300);
      expect(dead.rows.map((r) => r.ticket_id)).toEqual([ticketId]);
      expect((await outboxRows(t, ticketId))[0]).toMatchObject({ status: 'sending' });
    } finally {
      t.services.mailWorker.start();
    }
    await until(async () => (await outboxRows(t, ticketId))[0]?.status === 'sent');
    const [row] = await outboxRows(t, ticketId);
    expect(row!.attempts).toBe(2);
    await smtp.waitFor((m) => m.headers.get('message-id') === row!.message_id);
    expect(byMessageId(smtp.mails, row!.message_id)).toHaveLength(1);
  });
});

describe.each(dialects)('an SMTP outage on %s', (dialect) => {
  let t: TestApp;
  let smtp: SmtpReceiver | undefined;

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('loses nothing: the mails wait with their error and leave once the server is back, each once', async () => {
    // A port where, for now, nothing listens.
    const probe = await startSmtpReceiver();
    const port = Number(new URL(probe.url).port);
    await probe.close();
    t = await createTestApp(dialect, mailEnv(probe.url));
    const admin = await t.login('admin');
    const agenteId = await userId(t, 'agente');

    const ids: number[] = [];
    for (const name of ['Falla de red en patio', 'Cámara del andén 3', 'Sensor de temperatura']) {
      const ticketId = await createTicket(t, admin, name);
      expect((await t.call(admin, 'PATCH', `/api/tickets/${ticketId}/assign/${agenteId}`)).statusCode).toBe(200);
      ids.push(ticketId);
    }
    const rows = () =>
      t.services.database.db.selectFrom('mail_outbox').selectAll().where('ticket_id', 'in', ids).execute();
    // Each is tried, fails and is kept for a retry (more than once: the delay doubles).
    await until(async () => (await rows()).every((r) => r.status === 'pending' && r.attempts >= 2));
    for (const row of await rows()) expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);

    smtp = await startSmtpReceiver({ port });
    await until(async () => (await rows()).every((r) => r.status === 'sent'), 20_000);
    for (const row of await rows()) {
      expect(byMessageId(smtp.mails, row.message_id)).toHaveLength(1);
    }
    expect(smtp.mails).toHaveLength(3);
  });
});

describe('two processes on one PostgreSQL database', () => {
  let smtp: SmtpReceiver;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    first = await createTestApp('postgres', mailEnv(smtp.url));
    second = await createSiblingApp(first);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await smtp?.close();
  });

  it('send each mail exactly once', async () => {
    const agenteId = await userId(first, 'agente');
    const ticketId = (
      await first.services.database.db.selectFrom('tickets').select('id').orderBy('id').executeTakeFirstOrThrow()
    ).id;
    const mail = first.services.ticketMail;
    const total = 300;
    // Written in one transaction, so both workers find them all due at once.
    await first.services.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < total; i++) {
        const composed = mail.compose({
          ticketId,
          ticketName: 'Prueba de envío',
          recipientName: 'Diego',
          message: `Aviso ${i}`,
          actorName: null,
        });
        await first.services.mailOutbox.enqueue(
          { userId: agenteId, ticketId, to: `dest${i}@empresa.mx`, ...composed },
          trx,
        );
      }
    });
    first.services.mailWorker.wake();
    second.services.mailWorker.wake();
    await until(async () => (await first.services.mailOutbox.countByStatus()).sent === total, 30_000);
    const counts = await first.services.mailOutbox.countByStatus();
    expect(counts).toMatchObject({ sent: total, pending: 0, sending: 0, failed: 0 });
    const ids = smtp.mails.map((m) => m.headers.get('message-id'));
    expect(new Set(ids).size).toBe(total);
    expect(ids).toHaveLength(total);
    // Both processes took part.
    expect(new Set(smtp.mails.map((m) => m.to[0])).size).toBe(total);
  });
});
