import type { FastifyBaseLogger } from 'fastify';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
type Nodemailer = typeof import('nodemailer');
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type StreamTransport from 'nodemailer/lib/stream-transport/index.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Threading: this mail's `Message-ID`, and the thread's earlier one(s) (`In-Reply-To`, `References`). */
  messageId?: string;
  inReplyTo?: string;
  references?: string;
  replyTo?: string;
  /** `List-Unsubscribe`: where the recipient turns these mails off. */
  list?: { unsubscribe: string };
  headers?: Record<string, string>;
}

export type MailLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export interface MailerOptions {
  /** `smtp://user:pass@host:587` or `smtps://…:465`; nodemailer options may follow as a query (`?tls.rejectUnauthorized=false`). */
  smtpUrl: string | undefined;
  from: string;
  /** Where messages go when there is no SMTP server (the dev outbox). */
  outboxDir: string;
  log: MailLog;
  /** How many messages the dev outbox keeps; older ones are deleted (up to a quarter more may wait). */
  outboxLimit?: number;
}

export interface Mailer {
  readonly mode: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * Real delivery over SMTP when `SMTP_URL` is set. Without it nothing leaves the machine:
 * each message is logged and written as an `.eml` file to the dev outbox.
 */
export function createMailer(options: MailerOptions): Mailer {
  const { smtpUrl, from, outboxDir, log } = options;
  // nodemailer is loaded with the first message, not at start (start-up time).
  let transporter: Promise<Transporter> | undefined;
  const transporterOf = (create: (nodemailer: Nodemailer) => Transporter) =>
    (transporter ??= import('nodemailer').then(({ default: nodemailer }) => create(nodemailer)));
  const close = () => void transporter?.then((t) => t.close());
  if (smtpUrl) {
    const smtp = () =>
      transporterOf((nodemailer) =>
        nodemailer.createTransport(
          {
            url: smtpUrl,
            // A few kept connections: the outbox sends its batches through them (not one connection per mail).
            pool: true,
            maxConnections: 8,
            connectionTimeout: 10_000,
            greetingTimeout: 10_000,
            socketTimeout: 30_000,
          } as SMTPPool.Options,
          { from },
        ),
      );
    return {
      mode: 'smtp',
      async send(message) {
        const info = (await (await smtp()).sendMail(message)) as { messageId?: string };
        log.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'e-mail sent');
      },
      close,
    };
  }

  const composerOptions: StreamTransport.Options = { streamTransport: true, buffer: true, newline: 'unix' };
  const composer = () => transporterOf((nodemailer) => nodemailer.createTransport(composerOptions, { from }));
  const outboxLimit = options.outboxLimit ?? 200;
  // The folder is listed and pruned once per quarter of the limit written, not at every mail.
  const pruneEvery = Math.max(1, Math.floor(outboxLimit / 4));
  let sequence = 0;
  return {
    mode: 'outbox',
    async send(message) {
      const info = (await (await composer()).sendMail(message)) as unknown as StreamTransport.SentMessageInfo;
      const raw = info.message as Buffer;
      // Written off the event loop: the outbox worker sends from the process that serves requests.
      await mkdir(outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      sequence += 1;
      const file = path.join(
        outboxDir,
        `${stamp}-${String(sequence).padStart(6, '0')}-${randomBytes(3).toString('hex')}.eml`,
      );
      await writeFile(file, raw, { mode: 0o600 });
      if (sequence % pruneEvery === 0) await pruneOutbox(outboxDir, outboxLimit);
      log.info(
        { to: message.to, subject: message.subject, file, text: message.text },
        'e-mail not sent (no SMTP_URL): kept in the dev outbox',
      );
    },
    close,
  };
}

async function pruneOutbox(dir: string, keep: number) {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
  for (const file of files.slice(0, Math.max(0, files.length - keep))) await rm(path.join(dir, file), { force: true });
}
