import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver.ts';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(dialects)('a worker process killed (kill -9) mid-send on %s', (dialect) => {
  let t: TestApp;
  let smtp: SmtpReceiver;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await createTestApp(dialect, {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Portal de tickets <portal@empresa.mx>',
      MAIL_POLL_MS: '50',
      MAIL_RETRY_BASE_MS: '100',
    });
    // Only the child process sends, until it is killed.
    await t.services.mailWorker.stop();
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('loses no mail and sends none twice', async () => {
    const total = 60;
    const { ticketMail, mailOutbox, database } = t.services;
    await database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < total; i++) {
        const mail = ticketMail.compose({
          ticketId: 1,
          ticketName: 'Envío interrumpido',
          recipientName: 'Diego',
          message: `Aviso ${i}`,
          actorName: null,
        });
        await mailOutbox.enqueue({ userId: null, ticketId: 1, to: `dest${i}@empresa.mx`, ...mail }, trx);
      }
    });
    // The receiver answers 20 mails, then leaves every sender waiting at MAIL FROM.
    smtp.holdAfter(20);
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/mail-worker-child.ts'], {
      cwd: apiDir,
      env: {
        ...process.env,
        SMTP_URL: smtp.url,
        LEASE_MS: '1500',
        BATCH_SIZE: '10',
        ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : { SQLITE_FILE: t.config.sqliteFile }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      // Mid-send: 20 mails answered and recorded as sent, the next ones claimed and unanswered.
      await until(
        async () => smtp.mails.length === 20 && smtp.held() > 0 && (await mailOutbox.countByStatus()).sent === 20,
      );
    } catch (error) {
      child.kill('SIGKILL');
      throw new Error(`${(error as Error).message}; child stderr: ${stderr}`);
    }
    child.kill('SIGKILL');
    await exited;
    const afterKill = await mailOutbox.countByStatus();
    expect(afterKill.sent).toBe(20);
    expect(afterKill.sending).toBeGreaterThan(0);
    smtp.release();

    // Another worker takes over once the dead one's lease has ended.
    t.services.mailWorker.start();
    await until(async () => (await mailOutbox.countByStatus()).sent === total);
    expect(await mailOutbox.countByStatus()).toMatchObject({ sent: total, pending: 0, sending: 0, failed: 0 });
    const ids = smtp.mails.map((m) => m.headers.get('message-id'));
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
  });
});
