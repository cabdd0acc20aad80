import { randomUUID } from 'node:crypto';
import type { Insertable, Selectable } from 'kysely';
import type { MailStatus } from '@portal/contract';
import { nowIso, type Database } from '../../db/database.ts';
import { countRows, paginate, type Paging } from '../../db/paging.ts';
import type { MailOutboxTable, MailRequestsTable } from '../../db/schema.ts';
import type { Executor } from '../notifications/notifications.repository.ts';
import type { MailHeaders } from './ticket-mail.ts';

export type OutboxRow = Selectable<MailOutboxTable>;
/** A mail whose recipient the database chose, to be composed (migration 0045). */
export type MailRequest = Selectable<MailRequestsTable>;

export interface NewOutboxMail {
  userId: number | null;
  ticketId: number | null;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: MailHeaders;
  /** When it may leave (now for an immediate mail; a digest line: when its digest is gathered). */
  notBefore?: string;
  /** A line of a digest rather than a mail of its own. */
  digest?: boolean;
}

/** Builds one person's digest mail from their gathered lines. */
export type DigestComposer = (
  recipientName: string,
  lines: { text: string; html: string }[],
) => { subject: string; text: string; html: string; messageId: string; headers: MailHeaders };

/** Composes the mails of requests (`mail_requests`), in the transaction that takes them. */
export type MailRequestComposer = (requests: readonly MailRequest[], trx: Executor) => Promise<NewOutboxMail[]>;

/** Mails per insert statement (within both databases' limits on bound values). */
export const ENQUEUE_CHUNK = 100;

/** A mail's row as it enters the outbox. */
const rowOf = (mail: NewOutboxMail, now: string): Insertable<MailOutboxTable> => ({
  user_id: mail.userId,
  ticket_id: mail.ticketId,
  to_address: mail.to,
  subject: mail.subject,
  text_body: mail.text,
  html_body: mail.html,
  message_id: mail.messageId,
  headers: JSON.stringify(mail.headers),
  status: mail.digest ? 'digest' : 'pending',
  next_attempt_at: mail.notBefore ?? now,
  created_at: now,
});

const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/**
 * The outbox table (`mail_outbox`, migration 0024). A mail is written with the event that
 * causes it (`enqueue` takes the event's transaction), and claimed by a worker before it is
 * sent: the claim marks rows `sending` under a random token until a lease ends, in one
 * statement, so two workers never hold the same row; on PostgreSQL the rows are chosen
 * `for update skip locked`, so workers of other processes pass over each other's rows instead of
 * waiting for them. A row whose worker died mid-send is claimed again once its lease ends.
 * The outcome is written only under the claim's token: a worker whose lease ran out cannot
 * overwrite what the next one did.
 */
export function createMailOutboxRepository(database: Database) {
  const { db } = database;

  /** Several mails at once (one event's recipients, a sweep's alerts). */
  async function enqueueMany(mails: readonly NewOutboxMail[], executor: Executor = db): Promise<void> {
    const now = nowIso();
    for (let i = 0; i < mails.length; i += ENQUEUE_CHUNK) {
      await executor
        .insertInto('mail_outbox')
        .values(mails.slice(i, i + ENQUEUE_CHUNK).map((mail) => rowOf(mail, now)))
        .execute();
    }
  }

  return {
    async enqueue(mail: NewOutboxMail, executor: Executor = db): Promise<number> {
      const row = await executor
        .insertInto('mail_outbox')
        .values(rowOf(mail, nowIso()))
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /**
     * The insert of up to ENQUEUE_CHUNK mails, not run: for a caller that writes it within a
     * statement of its own (the notification of the same event, notifications.repository.ts).
     */
    insertQuery(mails: readonly NewOutboxMail[], executor: Executor = db) {
      if (mails.length > ENQUEUE_CHUNK) throw new Error(`at most ${ENQUEUE_CHUNK} mails per insert`);
      const now = nowIso();
      return executor.insertInto('mail_outbox').values(mails.map((mail) => rowOf(mail, now)));
    },

    /**
     * Turns the oldest `limit` mail requests (`mail_requests`) into mails: `compose` makes them,
     * and they are written and the requests deleted in one transaction, so a request is composed
     * once whatever fails. On PostgreSQL the requests are taken `for update skip locked`: the
     * workers of other processes pass over them. Answers how many requests it took.
     */
    async composeRequests(limit: number, compose: MailRequestComposer): Promise<number> {
      // Most runs find no request: one read tells, without a transaction.
      if (!(await db.selectFrom('mail_requests').select('id').limit(1).executeTakeFirst())) return 0;
      return db.transaction().execute(async (trx) => {
        const oldest = trx.selectFrom('mail_requests').selectAll().orderBy('id').limit(limit);
        const requests = await (database.dialect === 'postgres' ? oldest.forUpdate().skipLocked() : oldest).execute();
        if (requests.length === 0) return 0;
        await enqueueMany(await compose(requests, trx), trx);
        await trx
          .deleteFrom('mail_requests')
          .where(
            'id',
            'in',
            requests.map((r) => r.id),
          )
          .execute();
        return requests.length;
      });
    },

    enqueueMany,

    /** Claims up to `limit` due mails (and those whose worker's lease ran out) for `leaseMs`. */
    async claim(limit: number, leaseMs: number): Promise<{ token: string; rows: OutboxRow[] }> {
      const now = nowIso();
      const token = randomUUID();
      const rows = await db
        .updateTable('mail_outbox')
        .set((eb) => ({
          status: 'sending',
          claim_token: token,
          lease_until: plus(now, leaseMs),
          attempts: eb('attempts', '+', 1),
        }))
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('mail_outbox')
            .select('id')
            .where((w) =>
              w.or([
                w.and([w('status', '=', 'pending'), w('next_attempt_at', '<=', now)]),
                w.and([w('status', '=', 'sending'), w('lease_until', '<', now)]),
              ]),
            )
            .orderBy('next_attempt_at')
            .orderBy('id')
            .limit(limit)
            .$if(database.dialect === 'postgres', (q) => q.forUpdate().skipLocked()),
        )
        .returningAll()
        .execute();
      rows.sort((a, b) => a.id - b.id);
      return { token, rows };
    },

    /** Records mails of one claim as sent; how many were still under that claim. */
    async markSent(ids: readonly number[], token: string): Promise<number> {
      if (ids.length === 0) return 0;
      const result = await db
        .updateTable('mail_outbox')
        .set({ status: 'sent', sent_at: nowIso(), lease_until: null, claim_token: null, last_error: null })
        .where('id', 'in', [...ids])
        .where('claim_token', '=', token)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** After a failed attempt: again at `retryAt`, or given up (`failed`) when `retryAt` is null. */
    async markAttemptFailed(id: number, token: string, error: string, retryAt: string | null): Promise<void> {
      await db
        .updateTable('mail_outbox')
        .set({
          status: retryAt ? 'pending' : 'failed',
          ...(retryAt ? { next_attempt_at: retryAt } : {}),
          lease_until: null,
          claim_token: null,
          last_error: error.slice(0, 1000),
        })
        .where('id', '=', id)
        .where('claim_token', '=', token)
        .execute();
    },

    /**
     * Turns due digest lines into one pending mail per person, in one transaction: the lines are
     * deleted as their mail is written, so a line is in exactly one digest (PostgreSQL: lines
     * another process is gathering are skipped, not waited for). Answers the mails written.
     */
    async gatherDigests(compose: DigestComposer, limit = 1000): Promise<number> {
      const now = nowIso();
      const due = (executor: Executor) =>
        executor.selectFrom('mail_outbox').where('status', '=', 'digest').where('next_attempt_at', '<=', now);
      // Most runs find no line due: one read tells, without a transaction.
      if (!(await due(db).select('id').limit(1).executeTakeFirst())) return 0;
      return db.transaction().execute(async (trx) => {
        const lines = await due(trx)
          .select(['id', 'user_id', 'to_address', 'text_body', 'html_body'])
          .orderBy('id')
          .limit(limit)
          .$if(database.dialect === 'postgres', (q) => q.forUpdate().skipLocked())
          .execute();
        if (lines.length === 0) return 0;
        const byAddress = new Map<string, typeof lines>();
        for (const line of lines) byAddress.set(line.to_address, [...(byAddress.get(line.to_address) ?? []), line]);
        for (const [to, group] of byAddress) {
          const userId = group[0]!.user_id;
          const user = userId
            ? await trx.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirst()
            : undefined;
          const mail = compose(
            user?.name ?? '',
            group.map((l) => ({ text: l.text_body, html: l.html_body })),
          );
          await this.enqueue({ userId, ticketId: null, to, ...mail }, trx);
          await trx
            .deleteFrom('mail_outbox')
            .where(
              'id',
              'in',
              group.map((l) => l.id),
            )
            .execute();
        }
        return byAddress.size;
      });
    },

    /** A failed mail goes back to the queue with its attempts counted from zero. */
    async retry(id: number): Promise<boolean> {
      const result = await db
        .updateTable('mail_outbox')
        .set({ status: 'pending', attempts: 0, next_attempt_at: nowIso() })
        .where('id', '=', id)
        .where('status', '=', 'failed')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Mails by state (pending counts those being sent): the metrics' outbox depth. */
    async countByStatus(): Promise<Record<'pending' | 'sending' | 'sent' | 'failed', number>> {
      const rows = await db
        .selectFrom('mail_outbox')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .where('status', '!=', 'digest')
        .groupBy('status')
        .execute();
      const counts = { pending: 0, sending: 0, sent: 0, failed: 0 };
      for (const row of rows) if (row.status !== 'digest') counts[row.status] = Number(row.n);
      return counts;
    },

    /** The Correo screen's page of the queue, newest first (digest lines waiting to be gathered are not mails yet). */
    async list(query: Paging & { status?: MailStatus | undefined }) {
      const filtered = db
        .selectFrom('mail_outbox')
        .where('status', '!=', 'digest')
        .$if(query.status !== undefined, (q) => q.where('status', '=', query.status!));
      const [total, rows] = await Promise.all([
        countRows(filtered),
        filtered
          .select([
            'id',
            'to_address',
            'subject',
            'status',
            'attempts',
            'last_error',
            'ticket_id',
            'created_at',
            'next_attempt_at',
            'sent_at',
          ])
          .orderBy('id', 'desc')
          .$call(paginate(query))
          .execute(),
      ]);
      return { rows: rows.map((r) => ({ ...r, status: r.status as MailStatus })), total };
    },

    findById: (id: number) => db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst(),
  };
}
export type MailOutboxRepository = ReturnType<typeof createMailOutboxRepository>;
