import { createHash } from 'node:crypto';
import type { ImapFlow } from 'imapflow';
import type { AddressObject, ParsedMail } from 'mailparser';
import type { MailInOutcome } from '@portal/contract';
import type { MailLog } from '../../lib/mailer.ts';
import { STALE_CLAIM_MS, type MailInRepository } from './mail-in.repository.ts';
import type { IncomingMail } from './mail-in.ts';
import type { MailInService } from './mail-in.service.ts';

/** The IMAP folders a message is moved to once handled, by its outcome. */
export const MAIL_IN_FOLDERS: Record<MailInOutcome, string> = {
  processed: 'Procesados',
  rejected: 'Rechazados',
  ignored: 'Rechazados',
  error: 'Errores',
};

export interface MailInPollerOptions {
  /** `imaps://user:pass@host:993/INBOX` (or `imap://` without TLS, for tests); the path is the folder read. */
  url: string;
  service: MailInService;
  repository: MailInRepository;
  log: MailLog;
  pollMs: number;
  /** A larger message is not read: it goes to Errores with a log line. */
  maxBytes: number;
}

/** Handled messages moved to their folders at once. */
const MOVE_BATCH = 50;

type Imap = typeof import('imapflow');
type Parser = typeof import('mailparser');

const addressesOf = (value: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(value) ? value : value ? [value] : [])
    .flatMap((a) => a.value)
    .map((a) => a.address?.toLowerCase() ?? '')
    .filter(Boolean);

const idsOf = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value : value ? value.split(/\s+/) : []).map((id) => id.trim()).filter(Boolean);

/** A Message-ID for a message without one: its bytes' hash, so a second fetch finds the same. */
const syntheticId = (source: Buffer) => `<${createHash('sha256').update(source).digest('hex')}@sin-message-id>`;

/** mailparser's answer as the mail-in rules read it; null for a message without headers or sender (malformed). */
export function toIncomingMail(parsed: ParsedMail, source: Buffer): IncomingMail | null {
  const from = addressesOf(parsed.from)[0] ?? '';
  if (parsed.headers.size === 0 || !from) return null;
  const headers = new Map<string, string>();
  for (const [name, value] of parsed.headers) {
    headers.set(
      name.toLowerCase(),
      typeof value === 'string'
        ? value
        : value && typeof value === 'object' && 'value' in value
          ? String(value.value)
          : String(value),
    );
  }
  return {
    messageId: parsed.messageId?.trim() || syntheticId(source),
    from,
    recipients: [...addressesOf(parsed.to), ...addressesOf(parsed.cc)],
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    thread: [...idsOf(parsed.inReplyTo), ...idsOf(parsed.references)],
    headers,
    contentType: (headers.get('content-type') ?? 'text/plain').split(';')[0]!.trim().toLowerCase(),
    attachments: parsed.attachments
      .filter((a) => !a.related)
      .map((a) => ({ filename: a.filename ?? 'archivo', content: a.content })),
  };
}

/**
 * Reads the mailbox of MAIL_IN_URL every `pollMs`: each message in it is handled once (the
 * Message-ID claimed in the database first) and moved to Procesados, Rechazados or Errores, so
 * the mailbox holds only what is still to read. A message too large, unreadable, or whose
 * handling failed goes to Errores with a log line, and the poll goes on with the next one. A
 * message another process is handling right now is left for it; one whose claim is older than
 * STALE_CLAIM_MS (its process died) goes to Errores, never handled twice.
 */
export function createMailInPoller(options: MailInPollerOptions) {
  const { service, repository, log } = options;
  const url = new URL(options.url);
  const mailbox = decodeURIComponent(url.pathname.replace(/^\/+/, '')) || 'INBOX';
  let libraries: Promise<[Imap, Parser]> | undefined;
  const load = () => (libraries ??= Promise.all([import('imapflow'), import('mailparser')]));
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  /** Set by stop(): a poll in progress ends after the message in hand. */
  let closing = false;

  async function connect(): Promise<ImapFlow> {
    const [{ ImapFlow }] = await load();
    const client = new ImapFlow({
      host: url.hostname,
      port: Number(url.port) || (url.protocol === 'imaps:' ? 993 : 143),
      secure: url.protocol === 'imaps:',
      auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
      logger: false,
      // A plain imap:// connection stays plain (tests on localhost); imaps:// is TLS from the start.
      doSTARTTLS: url.protocol === 'imaps:' ? undefined : false,
      connectionTimeout: 30_000,
      greetingTimeout: 15_000,
      socketTimeout: 120_000,
    });
    client.on('error', (err: unknown) => log.warn({ err }, 'mail in: IMAP connection error'));
    await client.connect();
    const existing = new Set((await client.list()).map((m) => m.path));
    for (const folder of new Set(Object.values(MAIL_IN_FOLDERS))) {
      if (!existing.has(folder)) await client.mailboxCreate(folder);
    }
    return client;
  }

  /** Handles one message; answers the folder it goes to, or null to leave it where it is. */
  async function handle(client: ImapFlow, uid: number, size: number, envelopeId: string | undefined) {
    if (size > options.maxBytes) {
      const messageId = envelopeId || `<uid-${uid}-${size}@sin-message-id>`;
      log.warn({ uid, size, messageId }, 'mail in: message too large, moved to Errores');
      if (await repository.claim({ messageId, from: '', subject: '' }))
        await repository.finish(messageId, 'error', `Mensaje demasiado grande (${size} bytes).`, null);
      await repository.recordError(`Mensaje demasiado grande (${size} bytes): ${messageId}`);
      return MAIL_IN_FOLDERS.error;
    }
    const fetched = await client.fetchOne(String(uid), { source: true }, { uid: true });
    const source = fetched && fetched.source;
    if (!source) return null;
    const [, { simpleParser }] = await load();
    let mail: IncomingMail | null = null;
    try {
      mail = toIncomingMail(await simpleParser(source), source);
    } catch (err) {
      log.warn({ uid, err }, 'mail in: unreadable message');
    }
    if (!mail) {
      log.warn({ uid, size }, 'mail in: malformed message (no headers or sender), moved to Errores');
      const messageId = envelopeId || syntheticId(source);
      if (await repository.claim({ messageId, from: '', subject: '' }))
        await repository.finish(messageId, 'error', 'Mensaje mal formado.', null);
      await repository.recordError(`Mensaje mal formado: ${messageId}`);
      return MAIL_IN_FOLDERS.error;
    }
    if (!(await repository.claim(mail))) {
      const seen = await repository.findByMessageId(mail.messageId);
      if (seen && seen.outcome !== 'processing') return MAIL_IN_FOLDERS[seen.outcome];
      if (seen && Date.now() - Date.parse(seen.created_at) < STALE_CLAIM_MS) return null;
      log.warn({ uid, messageId: mail.messageId }, 'mail in: handling was cut short earlier, moved to Errores');
      await repository.finish(mail.messageId, 'error', 'El proceso se interrumpió al procesarlo.', null);
      return MAIL_IN_FOLDERS.error;
    }
    try {
      const result = await service.handle(mail);
      await repository.finish(mail.messageId, result.outcome, result.reason, result.ticketId);
      log.info(
        { uid, messageId: mail.messageId, outcome: result.outcome, ticketId: result.ticketId, reason: result.reason },
        'mail in: message handled',
      );
      return MAIL_IN_FOLDERS[result.outcome];
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.error({ uid, messageId: mail.messageId, err }, 'mail in: message failed, moved to Errores');
      await repository.finish(mail.messageId, 'error', message, null);
      await repository.recordError(message);
      return MAIL_IN_FOLDERS.error;
    }
  }

  /** One poll: every message in the mailbox, one after another. */
  async function poll(): Promise<number> {
    let handled = 0;
    let client: ImapFlow | undefined;
    try {
      client = await connect();
      const lock = await client.getMailboxLock(mailbox);
      try {
        const waiting: { uid: number; size: number; messageId: string | undefined }[] = [];
        if (client.mailbox && client.mailbox.exists > 0) {
          for await (const m of client.fetch('1:*', { uid: true, size: true, envelope: true })) {
            waiting.push({ uid: m.uid, size: m.size ?? 0, messageId: m.envelope?.messageId });
          }
        }
        // Moves go by folder, one command per MOVE_BATCH messages: a message handled but not yet
        // moved when the process dies is fetched again and moved by its recorded outcome.
        const moves = new Map<string, number[]>();
        const flush = async () => {
          for (const [folder, uids] of moves) await client!.messageMove(uids.join(','), folder, { uid: true });
          moves.clear();
        };
        for (const [index, m] of waiting.entries()) {
          if (closing) break;
          let folder: string | null;
          try {
            folder = await handle(client, m.uid, m.size, m.messageId);
          } catch (err) {
            log.error({ uid: m.uid, err }, 'mail in: message failed, moved to Errores');
            await repository.recordError(err instanceof Error ? err.message : String(err));
            folder = MAIL_IN_FOLDERS.error;
          }
          if (folder) moves.set(folder, [...(moves.get(folder) ?? []), m.uid]);
          handled += 1;
          if ((index + 1) % MOVE_BATCH === 0) await flush();
        }
        await flush();
      } finally {
        lock.release();
      }
      await repository.recordPoll(null);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.error({ err }, 'mail in: the mailbox could not be read');
      await repository.recordPoll(message).catch(() => undefined);
    } finally {
      await client?.logout().catch(() => client?.close());
    }
    return handled;
  }

  function run(): Promise<void> {
    running ??= poll()
      .then(() => undefined)
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => void run().then(schedule), options.pollMs);
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      closing = false;
      void run().then(schedule);
    },
    /** Polls now (tests and the benchmark); resolves when the poll is done. */
    async pollOnce() {
      closing = false;
      await running;
      await run();
    },
    async stop() {
      stopped = true;
      closing = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
export type MailInPoller = ReturnType<typeof createMailInPoller>;
