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
import type { MailOutboxRepository } from './mail-outbox.repository.ts';
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
    async channelOf(userId: number, event: NotificationEvent, executor: Executor = database.db) {
      const row = await executor
        .selectFrom('notification_preferences')
        .select('channel')
        .where('user_id', '=', userId)
        .where('event', '=', event)
        .executeTakeFirst();
      return (row?.channel ?? DEFAULT_NOTIFICATION_CHANNELS[event]) satisfies NotificationChannel;
    },

    /** Writes the event's mail for its recipient (an active user with an address); false when none is due. */
    async enqueue(input: TicketMailEvent, executor: Executor): Promise<boolean> {
      const [recipient, actor, ticket, rhythm] = await Promise.all([
        executor
          .selectFrom('users')
          .select(['id', 'name', 'email', 'status_id'])
          .where('id', '=', input.recipientId)
          .executeTakeFirst(),
        input.actorId === null
          ? undefined
          : executor
              .selectFrom('users')
              .select(['name', 'last_name'])
              .where('id', '=', input.actorId)
              .executeTakeFirst(),
        executor.selectFrom('tickets').select(['id', 'name']).where('id', '=', input.ticketId).executeTakeFirst(),
        executor
          .selectFrom('notification_rhythms')
          .select('rhythm')
          .where('user_id', '=', input.recipientId)
          .executeTakeFirst(),
      ]);
      if (!recipient || recipient.status_id !== RECORD_STATUS.active || !recipient.email || !ticket) return false;
      const content = {
        ticketId: ticket.id,
        ticketName: ticket.name,
        recipientName: recipient.name,
        message: input.message,
        actorName: actor ? `${actor.name} ${actor.last_name}` : null,
        detail: input.detail,
      };
      if (rhythm && rhythm.rhythm !== 'immediate') {
        // A line of the person's next digest, gathered with the others when it is due.
        const line = ticketMail.digestLine(content);
        await outbox.enqueue(
          {
            userId: recipient.id,
            ticketId: ticket.id,
            to: recipient.email,
            ...line,
            messageId: `<line.${randomUUID()}@${ticketMail.domain}>`,
            headers: { inReplyTo: '', references: '', listUnsubscribe: '' },
            digest: true,
            notBefore: nextDigestAt(rhythm.rhythm, new Date(), DEFAULT_TIME_ZONE).toISOString(),
          },
          executor,
        );
        return true;
      }
      const mail = ticketMail.compose(content);
      await outbox.enqueue(
        {
          userId: recipient.id,
          ticketId: ticket.id,
          to: recipient.email,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: mail.headers,
        },
        executor,
      );
      wrote = true;
      return true;
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
