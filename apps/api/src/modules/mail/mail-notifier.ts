import { randomUUID } from 'node:crypto';
import {
  DEFAULT_NOTIFICATION_CHANNELS,
  DEFAULT_TIME_ZONE,
  RECORD_STATUS,
  type NotificationChannel,
  type NotificationEvent,
} from '@portal/contract';
import type { Database } from '../../db/database.ts';
import type { Executor } from '../notifications/notifications.repository.ts';
import type { MailOutboxRepository, NewOutboxMail } from './mail-outbox.repository.ts';
import { nextDigestAt, type TicketMail } from './ticket-mail.ts';

export interface TicketMailEvent {
  recipientId: number;
  /** Who acted; null for the portal itself (an SLA alert, an automatic assignment). */
  actorId: number | null;
  ticketId: number;
  event: NotificationEvent;
  /** What happened, as the portal's notification says it. */
  message: string;
  detail?: string | undefined;
}

interface Deps {
  database: Database;
  outbox: MailOutboxRepository;
  ticketMail: TicketMail;
}

/**
 * Turns a ticket event into its mail: the person's channel for the event (their choice, else
 * the default), and the mail written to the outbox in the event's own transaction, so it
 * exists exactly when the event committed. `committed()` is called once the event's
 * transaction has committed (with the ticket's live announcement) and wakes the worker when
 * this process wrote a mail, so it leaves at once instead of at the next poll.
 */
export function createMailNotifier({ database, outbox, ticketMail }: Deps) {
  let wrote = false;
  let onCommitted: (() => void) | undefined;

  return {
    /** Each request's channel: the person's choice for the event, else the event's default; one read. */
    async channelsOf(
      requests: readonly { userId: number; event: NotificationEvent }[],
      executor: Executor = database.db,
    ): Promise<NotificationChannel[]> {
      if (requests.length === 0) return [];
      const rows = await executor
        .selectFrom('notification_preferences')
        .select(['user_id', 'event', 'channel'])
        .where('user_id', 'in', [...new Set(requests.map((r) => r.userId))])
        .execute();
      const chosen = new Map(rows.map((r) => [`${r.user_id}:${r.event}`, r.channel as NotificationChannel]));
      return requests.map((r) => chosen.get(`${r.userId}:${r.event}`) ?? DEFAULT_NOTIFICATION_CHANNELS[r.event]);
    },

    /**
     * Writes each event's mail for its recipient (an active user with an address; an immediate
     * mail, or a line of their next digest), reading the people, tickets and rhythms once for all
     * of them. Answers how many were written.
     */
    async enqueueMany(inputs: readonly TicketMailEvent[], executor: Executor): Promise<number> {
      if (inputs.length === 0) return 0;
      const people = [...new Set(inputs.flatMap((i) => [i.recipientId, ...(i.actorId === null ? [] : [i.actorId])]))];
      const recipients = [...new Set(inputs.map((i) => i.recipientId))];
      const [users, tickets, rhythms] = await Promise.all([
        executor
          .selectFrom('users')
          .select(['id', 'name', 'last_name', 'email', 'status_id'])
          .where('id', 'in', people)
          .execute(),
        executor
          .selectFrom('tickets')
          .select(['id', 'name'])
          .where('id', 'in', [...new Set(inputs.map((i) => i.ticketId))])
          .execute(),
        executor
          .selectFrom('notification_rhythms')
          .select(['user_id', 'rhythm'])
          .where('user_id', 'in', recipients)
          .execute(),
      ]);
      const userOf = new Map(users.map((u) => [u.id, u]));
      const ticketOf = new Map(tickets.map((t) => [t.id, t]));
      const rhythmOf = new Map(rhythms.map((r) => [r.user_id, r.rhythm]));
      const mails: NewOutboxMail[] = [];
      for (const input of inputs) {
        const recipient = userOf.get(input.recipientId);
        const ticket = ticketOf.get(input.ticketId);
        if (!recipient || recipient.status_id !== RECORD_STATUS.active || !recipient.email || !ticket) continue;
        const actor = input.actorId === null ? undefined : userOf.get(input.actorId);
        const content = {
          ticketId: ticket.id,
          ticketName: ticket.name,
          recipientName: recipient.name,
          message: input.message,
          actorName: actor ? `${actor.name} ${actor.last_name}` : null,
          detail: input.detail,
        };
        const rhythm = rhythmOf.get(recipient.id);
        if (rhythm && rhythm !== 'immediate') {
          // A line of the person's next digest, gathered with the others when it is due.
          mails.push({
            userId: recipient.id,
            ticketId: ticket.id,
            to: recipient.email,
            ...ticketMail.digestLine(content),
            messageId: `<line.${randomUUID()}@${ticketMail.domain}>`,
            headers: { inReplyTo: '', references: '', listUnsubscribe: '' },
            digest: true,
            notBefore: nextDigestAt(rhythm, new Date(), DEFAULT_TIME_ZONE).toISOString(),
          });
          continue;
        }
        const mail = ticketMail.compose(content);
        mails.push({
          userId: recipient.id,
          ticketId: ticket.id,
          to: recipient.email,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: mail.headers,
        });
        wrote = true;
      }
      await outbox.enqueueMany(mails, executor);
      return mails.length;
    },

    committed() {
      if (!wrote) return;
      wrote = false;
      onCommitted?.();
    },

    /** What runs once a transaction that wrote a mail has committed (the worker's wake). */
    onCommitted(listener: () => void) {
      onCommitted = listener;
    },
  };
}
export type MailNotifier = ReturnType<typeof createMailNotifier>;
