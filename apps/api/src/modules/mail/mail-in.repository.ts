import { mailInOutcomes, type MailInOutcome, type TMailInStatus } from '@portal/contract';
import { nowIso, type Database } from '../../db/database.ts';

/** A message claimed this long ago and still `processing` was cut short (its process died). */
export const STALE_CLAIM_MS = 10 * 60_000;

/**
 * The incoming messages by Message-ID (`mail_inbox`, migration 0033) and the poller's state.
 * A message is claimed (its row written, the Message-ID unique) before it is acted on: of two
 * pollers that fetched it, or of two fetches of one poller, one claim wins and the other finds
 * the row. Its outcome is written once it is done.
 */
export function createMailInRepository(database: Database) {
  const { db } = database;

  return {
    /** True when this call wrote the row; false when the Message-ID was seen before. */
    async claim(message: { messageId: string; from: string; subject: string }): Promise<boolean> {
      const result = await db
        .insertInto('mail_inbox')
        .values({
          message_id: message.messageId,
          from_address: message.from.slice(0, 320),
          subject: message.subject.slice(0, 500),
          outcome: 'processing',
          created_at: nowIso(),
        })
        .onConflict((oc) => oc.column('message_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    findByMessageId: (messageId: string) =>
      db
        .selectFrom('mail_inbox')
        .select(['outcome', 'created_at'])
        .where('message_id', '=', messageId)
        .executeTakeFirst(),

    async finish(messageId: string, outcome: MailInOutcome, reason: string | null, ticketId: number | null) {
      await db
        .updateTable('mail_inbox')
        .set({ outcome, reason: reason?.slice(0, 1000) ?? null, ticket_id: ticketId })
        .where('message_id', '=', messageId)
        .execute();
    },

    async recordPoll(error: string | null): Promise<void> {
      const at = nowIso();
      const values = { last_poll_at: at, ...(error ? { last_error: error.slice(0, 1000), last_error_at: at } : {}) };
      await db
        .insertInto('mail_in_state')
        .values({ id: 1, last_error: null, last_error_at: null, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
    },

    /** A message's failure is also the poller's last error on the Correo screen. */
    async recordError(error: string): Promise<void> {
      const at = nowIso();
      await db
        .insertInto('mail_in_state')
        .values({ id: 1, last_poll_at: null, last_error: error.slice(0, 1000), last_error_at: at })
        .onConflict((oc) => oc.column('id').doUpdateSet({ last_error: error.slice(0, 1000), last_error_at: at }))
        .execute();
    },

    async status(enabled: boolean): Promise<TMailInStatus> {
      const [state, rows] = await Promise.all([
        db.selectFrom('mail_in_state').selectAll().where('id', '=', 1).executeTakeFirst(),
        db
          .selectFrom('mail_inbox')
          .select(['outcome', (eb) => eb.fn.countAll<number>().as('n')])
          .groupBy('outcome')
          .execute(),
      ]);
      const counts = Object.fromEntries(mailInOutcomes.map((o) => [o, 0])) as Record<MailInOutcome, number>;
      for (const row of rows) if (row.outcome !== 'processing') counts[row.outcome] = Number(row.n);
      return {
        enabled,
        last_poll_at: state?.last_poll_at ?? null,
        last_error: state?.last_error ?? null,
        last_error_at: state?.last_error_at ?? null,
        counts,
      };
    },
  };
}
export type MailInRepository = ReturnType<typeof createMailInRepository>;
