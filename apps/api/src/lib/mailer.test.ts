import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSmtpReceiver, type SmtpReceiver } from '../../test/smtp-receiver.ts';
import { createMailer, type MailLog } from './mailer.ts';

const message = {
  to: 'ana@portal.local',
  subject: 'Código para restablecer tu contraseña',
  text: 'Tu código de verificación es: 123456',
  html: '<p>Tu código de verificación es: <strong>123456</strong></p>',
};

const spyLog = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() }) satisfies MailLog;

describe('mailer without SMTP_URL (dev outbox)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-outbox-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('logs each message and keeps it as an .eml file, pruning the oldest', async () => {
    const log = spyLog();
    const outboxDir = path.join(dir, 'outbox');
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'Portal <no-reply@portal.local>',
      outboxDir,
      log,
      outboxLimit: 2,
    });
    expect(mailer.mode).toBe('outbox');
    await mailer.send(message);
    const [file] = readdirSync(outboxDir);
    const raw = readFileSync(path.join(outboxDir, file!), 'utf8');
    expect(raw).toMatch(/^From: Portal <no-reply@portal\.local>$/m);
    expect(raw).toMatch(/^To: ana@portal\.local$/m);
    expect(raw).toContain('123456');
    expect(log.info).toHaveBeenCalledWith(
      expect.objectContaining({ to: 'ana@portal.local', text: message.text, file: path.join(outboxDir, file!) }),
      expect.stringContaining('dev outbox'),
    );

    await mailer.send({ ...message, to: 'b@portal.local' });
    await mailer.send({ ...message, to: 'c@portal.local' });
    const kept = readdirSync(outboxDir);
    expect(kept).toHaveLength(2);
    expect(kept.map((f) => readFileSync(path.join(outboxDir, f), 'utf8')).join()).not.toContain('ana@portal.local');
    mailer.close();
  });

  it('prunes the outbox once per quarter of its limit written', async () => {
    const outboxDir = path.join(dir, 'outbox-8');
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'Portal <no-reply@portal.local>',
      outboxDir,
      log: spyLog(),
      outboxLimit: 8,
    });
    for (let n = 1; n <= 9; n++) await mailer.send({ ...message, to: `n${n}@portal.local` });
    // Pruned at the 8th (nothing to delete yet), the 9th waits for the 10th.
    expect(readdirSync(outboxDir)).toHaveLength(9);
    await mailer.send({ ...message, to: 'n10@portal.local' });
    const kept = readdirSync(outboxDir)
      .map((f) => readFileSync(path.join(outboxDir, f), 'utf8'))
      .join();
    expect(readdirSync(outboxDir)).toHaveLength(8);
    expect(kept).not.toContain('n1@portal.local');
    expect(kept).not.toContain('n2@portal.local');
    expect(kept).toContain('n3@portal.local');
    mailer.close();
  });
});

describe('mailer with SMTP_URL', () => {
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
  });
  afterAll(() => smtp?.close());

  it('delivers over SMTP with authentication, Spanish text intact', async () => {
    const mailer = createMailer({
      smtpUrl: smtp.url,
      from: 'Portal <no-reply@portal.local>',
      outboxDir: '/nonexistent',
      log: spyLog(),
    });
    expect(mailer.mode).toBe('smtp');
    await mailer.send(message);
    const mail = await smtp.waitFor((m) => m.to.includes('ana@portal.local'));
    expect(mail.subject).toBe(message.subject);
    expect(mail.text).toBe(message.text);
    expect(mail.html).toBe(message.html);
    mailer.close();
  });

  it('fails loudly when the server refuses the credentials', async () => {
    const wrong = smtp.url.replace('smtp-secret', 'otra');
    const mailer = createMailer({
      smtpUrl: wrong,
      from: 'no-reply@portal.local',
      outboxDir: '/nonexistent',
      log: spyLog(),
    });
    await expect(mailer.send(message)).rejects.toThrow();
    mailer.close();
  });
});
