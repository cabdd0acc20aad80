import { randomUUID } from 'node:crypto';
import {
  DEFAULT_NOTIFICATION_CHANNELS,
  DEFAULT_TIME_ZONE,
  RECORD_STATUS,
  type MailRhythm,
  type NotificationChannel,
  type NotificationEvent,
} from '@portal/contract';
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

/** A person an event concerns, as its mail needs them. */
interface Person {
  id: number;
  name: string;
  last_name: string;
  email: string | null;
  status_id: number;
  rhythm: MailRhythm | null;
  /** Their channel per event they chose one for. */
  channels: Map<string, NotificationChannel>;
}

interface Deps {
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
export function createMailNotifier({ outbox, ticketMail }: Deps) {
  let wrote = false;
  let onCommitted: (() => void) | undefined;

  /**
   * The people events concern (recipients and actors) with what their mail depends on: name,
   * address, status, digest rhythm and their channel choices; one read.
   */
  async function peopleOf(ids: readonly number[], executor: Executor) {
    const rows = await executor
      .selectFrom('users as u')
      .leftJoin('notification_rhythms as r', 'r.user_id', 'u.id')
      .leftJoin('notification_preferences as p', 'p.user_id', 'u.id')
      .select(['u.id', 'u.name', 'u.last_name', 'u.email', 'u.status_id', 'r.rhythm', 'p.event', 'p.channel'])
      .where('u.id', 'in', [...new Set(ids)])
      .execute();
    const people = new Map<number, Person>();
    for (const { event, channel, ...user } of rows) {
      const person = people.get(user.id) ?? { ...user, channels: new Map<string, NotificationChannel>() };
      if (event !== null && channel !== null) person.channels.set(event, channel as NotificationChannel);
      people.set(user.id, person);
    }
    return people;
  }

  /** The mail of each event for its recipient: an immediate mail, or a line of their next digest. */
  function mailsOf(
    inputs: readonly TicketMailEvent[],
    people: Map<number, Person>,
    tickets: Map<number, { id: number; name: string }>,
  ): NewOutboxMail[] {
    const mails: NewOutboxMail[] = [];
    for (const input of inputs) {
      const recipient = people.get(input.recipientId);
      const ticket = tickets.get(input.ticketId);
      if (!recipient || recipient.status_id !== RECORD_STATUS.active || !recipient.email || !ticket) continue;
      const actor = input.actorId === null ? undefined : people.get(input.actorId);
      const content = {
        ticketId: ticket.id,
        ticketName: ticket.name,
        recipientName: recipient.name,
        message: input.message,
        actorName: actor ? `${actor.name} ${actor.last_name}` : null,
        detail: input.detail,
      };
      const rhythm = recipient.rhythm;
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
    return mails;
  }

  return {
    /**
     * Each event's channel for its recipient (their choice for the event, else the event's
     * default), and the mails of those who get it by e-mail written to the outbox, in
     * `executor` (the event's transaction). The people are read once for all of them, the
     * tickets only when some mail is due.
     */
    async deliver(inputs: readonly TicketMailEvent[], executor: Executor): Promise<NotificationChannel[]> {
      if (inputs.length === 0) return [];
      const people = await peopleOf(
        inputs.flatMap((i) => [i.recipientId, ...(i.actorId === null ? [] : [i.actorId])]),
        executor,
      );
      const channels = inputs.map(
        (i) => people.get(i.recipientId)?.channels.get(i.event) ?? DEFAULT_NOTIFICATION_CHANNELS[i.event],
      );
      const mailed = inputs.filter((_, k) => channels[k] === 'email' || channels[k] === 'both');
      if (mailed.length > 0) {
        const tickets = await executor
          .selectFrom('tickets')
          .select(['id', 'name'])
          .where('id', 'in', [...new Set(mailed.map((i) => i.ticketId))])
          .execute();
        await outbox.enqueueMany(mailsOf(mailed, people, new Map(tickets.map((t) => [t.id, t]))), executor);
      }
      return channels;
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
