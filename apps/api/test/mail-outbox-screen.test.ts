import { MAIL_OUTBOX_MSG } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';

describe.each(dialects)('the Correo screen on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let supervisor: string;
  const ids: Record<'pending' | 'sent' | 'failed', number> = { pending: 0, sent: 0, failed: 0 };

  beforeAll(async () => {
    // No SMTP_URL and a worker that never runs on its own: the rows stay as the test writes them.
    t = await createTestApp(dialect, { MAIL_POLL_MS: '3600000', MAIL_FROM: 'Portal <portal@empresa.mx>' });
    await t.services.mailWorker.stop();
    admin = await t.login('admin');
    supervisor = await t.login('supervisor');
    const { mailOutbox, ticketMail } = t.services;
    for (const status of ['pending', 'sent', 'failed'] as const) {
      const mail = ticketMail.compose({
        ticketId: 1,
        ticketName: `Correo ${status}`,
        recipientName: 'Diego',
        message: 'Aviso',
        actorName: null,
      });
      ids[status] = await mailOutbox.enqueue({ userId: null, ticketId: 1, to: `${status}@empresa.mx`, ...mail });
    }
    await t.services.database.db
      .updateTable('mail_outbox')
      .set({ status: 'sent', sent_at: new Date().toISOString() })
      .where('id', '=', ids.sent)
      .execute();
    await t.services.database.db
      .updateTable('mail_outbox')
      .set({ status: 'failed', attempts: 12, last_error: '550 Mailbox unavailable' })
      .where('id', '=', ids.failed)
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists the queue newest first, paged, and by state with the last error', async () => {
    const all = await t.call(admin, 'POST', '/api/mail-outbox', { page: 1, per_page: 2 });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data.map((m: { id: number }) => m.id)).toEqual([ids.failed, ids.sent]);
    expect(all.json().meta).toMatchObject({ total: 3, last_page: 2, per_page: 2, current_page: 1 });

    const failed = await t.call(admin, 'POST', '/api/mail-outbox', { status: 'failed' });
    expect(failed.json().data).toEqual([
      expect.objectContaining({
        id: ids.failed,
        status: 'failed',
        last_error: '550 Mailbox unavailable',
        attempts: 12,
      }),
    ]);
    const past = await t.call(admin, 'POST', '/api/mail-outbox', { page: '1e3', per_page: 50 });
    expect(past.statusCode, past.body).toBe(200);
    expect(past.json()).toMatchObject({ data: [], meta: { total: 3, current_page: 1000, last_page: 1 } });
    const sent = await t.call(admin, 'POST', '/api/mail-outbox', { status: 'sent' });
    expect(sent.json().data.map((m: { to_address: string }) => m.to_address)).toEqual(['sent@empresa.mx']);
  });

  it('puts a failed mail back in the queue, and refuses what is not failed or does not exist', async () => {
    const retried = await t.call(admin, 'POST', `/api/mail-outbox/retry/${ids.failed}`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({
      message: MAIL_OUTBOX_MSG.retried,
      data: { status: 'pending', attempts: 0 },
    });
    const again = await t.call(admin, 'POST', `/api/mail-outbox/retry/${ids.failed}`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(MAIL_OUTBOX_MSG.notFailed);
    const missing = await t.call(admin, 'POST', '/api/mail-outbox/retry/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(MAIL_OUTBOX_MSG.notFound);
  });

  it('answers bad input with a Spanish 422', async () => {
    const res = await t.call(admin, 'POST', '/api/mail-outbox', { status: 'perdido' });
    expect(res.statusCode).toBe(422);
    expect(JSON.stringify(res.json())).toContain('Elige un estado válido');
  });

  it('shows the mail-in state: off without MAIL_IN_URL', async () => {
    const res = await t.call(admin, 'GET', '/api/mail-outbox/inbound');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      enabled: false,
      last_poll_at: null,
      last_error: null,
      last_error_at: null,
      counts: { processed: 0, rejected: 0, ignored: 0, error: 0 },
    });
  });

  it('is for Administrador alone: anyone else is refused on every route, and nothing changes', async () => {
    await t.services.database.db
      .updateTable('mail_outbox')
      .set({ status: 'failed' })
      .where('id', '=', ids.failed)
      .execute();
    for (const [method, url] of [
      ['POST', '/api/mail-outbox'],
      ['POST', `/api/mail-outbox/retry/${ids.failed}`],
      ['GET', '/api/mail-outbox/inbound'],
    ] as const) {
      expect((await t.call(supervisor, method, url, method === 'POST' ? {} : undefined)).statusCode).toBe(403);
      expect((await t.call(null, method, url)).statusCode).toBe(401);
    }
    expect((await t.services.mailOutbox.findById(ids.failed))?.status).toBe('failed');
  });
});
