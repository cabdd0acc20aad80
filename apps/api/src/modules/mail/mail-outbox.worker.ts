import type { MailLog, Mailer } from '../../lib/mailer.ts';
import type { MailOutboxRepository, OutboxRow } from './mail-outbox.repository.ts';
import type { DigestComposer, MailRequestComposer } from './mail-outbox.repository.ts';
import type { MailHeaders } from './ticket-mail.ts';

export interface MailWorkerOptions {
  outbox: MailOutboxRepository;
  mailer: Mailer;
  /** Builds a person's digest from their due lines (gathered before each read of the queue). */
  composeDigest: DigestComposer;
  /**
   * Composes the mails the database requested (an automatic assignee's), turned into mails
   * before each read of the queue; without it they wait for a worker that has it.
   */
  composeRequested?: MailRequestComposer;
  log: MailLog;
  /** How often the queue is read when nothing woke the worker. */
  pollMs: number;
  /** The first retry's delay; each next one doubles it, up to `maxDelayMs`. */
  retryBaseMs: number;
  maxDelayMs?: number;
  /** Attempts before a mail is given up (`failed`, retried by hand from the Correo screen). */
  maxAttempts?: number;
  /** Mails claimed at once; they are sent side by side over the mailer's kept connections. */
  batchSize?: number;
  /** How long a claim holds: a worker that died mid-send leaves its mails to others after this. */
  leaseMs?: number;
  /**
   * How long a wake waits before reading the queue, so that the mails of a burst of commits
   * (a ticket created every few ms, each mailing its assignee) leave in one claim; 0 reads at once.
   */
  gatherMs?: number;
}

/** SMTP answers that no retry will change: the mailbox or the address does not exist, or is refused. */
const isPermanent = (error: unknown) => {
  const code = (error as { responseCode?: number } | null)?.responseCode;
  return typeof code === 'number' && code >= 550 && code <= 554;
};

/**
 * Sends the outbox: claims due mails, sends each, and records the outcome. A failed attempt is
 * tried again after retryBaseMs × 2^(attempt − 1) (at most maxDelayMs), so an SMTP server that is
 * down loses nothing: the mails wait in the table and leave once it answers again. Every process
 * runs one; their claims never overlap (mail-outbox.repository.ts).
 */
export function createMailOutboxWorker(options: MailWorkerOptions) {
  const { outbox, mailer, log } = options;
  const maxDelayMs = options.maxDelayMs ?? 10 * 60_000;
  const maxAttempts = options.maxAttempts ?? 12;
  const batchSize = options.batchSize ?? 50;
  const leaseMs = options.leaseMs ?? 2 * 60_000;
  const gatherMs = options.gatherMs ?? 100;

  let timer: NodeJS.Timeout | undefined;
  let wakeTimer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;
  /** Set by stop(): a drain in progress finishes its batch and ends. */
  let closing = false;

  /** Sends one claimed mail; true when it left (its outcome is written with the batch's), false when it failed (written now). */
  async function sendOne(row: OutboxRow, token: string): Promise<boolean> {
    const headers = JSON.parse(row.headers) as MailHeaders;
    try {
      await mailer.send({
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        messageId: row.message_id,
        inReplyTo: headers.inReplyTo,
        references: headers.references,
        ...(headers.replyTo ? { replyTo: headers.replyTo } : {}),
        list: { unsubscribe: headers.listUnsubscribe },
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = isPermanent(error) || row.attempts >= maxAttempts;
      const delay = Math.min(maxDelayMs, options.retryBaseMs * 2 ** Math.max(0, row.attempts - 1));
      const retryAt = giveUp ? null : new Date(Date.now() + delay).toISOString();
      log.warn({ outboxId: row.id, attempts: row.attempts, retryAt, err: message }, 'e-mail not sent');
      await outbox.markAttemptFailed(row.id, token, message, retryAt);
      return false;
    }
  }

  /** Claims and sends until nothing is due. */
  async function drain(): Promise<number> {
    let sent = 0;
    const { composeRequested } = options;
    // A request that cannot be composed stays for the next run; the mails already due still leave.
    if (composeRequested) {
      try {
        while ((await outbox.composeRequests(batchSize, composeRequested)) === batchSize);
      } catch (err) {
        log.error({ err }, 'mail outbox: the requested mails could not be composed');
      }
    }
    await outbox.gatherDigests(options.composeDigest);
    for (;;) {
      const { token, rows } = await outbox.claim(batchSize, leaseMs);
      const left = await Promise.all(rows.map((row) => sendOne(row, token)));
      // The batch's sent mails are recorded in one write; a process that stops before it sends
      // them again once the claim's lease ends, as it would a mail whose send it did not finish.
      await outbox.markSent(
        rows.filter((_, k) => left[k]).map((row) => row.id),
        token,
      );
      sent += rows.length;
      // A claim short of a batch took everything due; a mail committed since wakes the worker again.
      if (rows.length < batchSize || closing) return sent;
    }
  }

  function run(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await drain();
        } catch (err) {
          log.error({ err }, 'mail outbox: the queue could not be read');
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      void run().then(schedule);
    }, options.pollMs);
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      closing = false;
      void run().then(schedule);
    },
    /** Reads the queue soon (`gatherMs` after a commit that wrote to it), instead of at the next poll. */
    wake() {
      if (stopped || wakeTimer) return;
      if (gatherMs <= 0) {
        void run();
        return;
      }
      wakeTimer = setTimeout(() => {
        wakeTimer = undefined;
        if (!stopped) void run();
      }, gatherMs);
      wakeTimer.unref();
    },
    /** Sends what is due now; for tests and the benchmark. */
    runOnce: () => {
      closing = false;
      return run();
    },
    async stop() {
      stopped = true;
      closing = true;
      if (timer) clearTimeout(timer);
      if (wakeTimer) clearTimeout(wakeTimer);
      timer = undefined;
      wakeTimer = undefined;
      await running;
    },
  };
}
export type MailOutboxWorker = ReturnType<typeof createMailOutboxWorker>;
