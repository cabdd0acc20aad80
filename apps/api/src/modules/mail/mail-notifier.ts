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
import type { MailOutboxRepository, MailRequest, NewOutboxMail } from './mail-outbox.repository.ts';
import { nextDigestAt, type TicketMail } from './ticket-mail.ts';

export interface TicketMailEvent {
  recipientId: number;
  /** Who acted; null for the portal itself (an SLA alert, an automatic assignment). */
  actorId: number | null;
  ticketId: number;
  /** The ticket's name, when the caller knows it (otherwise read for its mail). */
  ticketName?: string | undefined;
  /** The recipient as the caller read them with the event (with their channel for it): not read again. */
  recipient?: MailPerson | undefined;
  event: NotificationEvent;
  /** What happened, as the portal's notification says it. */
  message: string;
  detail?: string | undefined;
}

/** A person an event concerns, as its mail needs them. */
export interface MailPerson {
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
    const people = new Map<number, MailPerson>();
    if (ids.length === 0) return people;
    const rows = await executor
      .selectFrom('users as u')
      .leftJoin('notification_rhythms as r', 'r.user_id', 'u.id')
      .leftJoin('notification_preferences as p', 'p.user_id', 'u.id')
      .select(['u.id', 'u.name', 'u.last_name', 'u.email', 'u.status_id', 'r.rhythm', 'p.event', 'p.channel'])
      .where('u.id', 'in', [...new Set(ids)])
      .execute();
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
    people: Map<number, MailPerson>,
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

  /** The tickets' names: those the events carry, the others read (in `executor`). */
  async function ticketsOf(inputs: readonly TicketMailEvent[], executor: Executor) {
    const tickets = new Map<number, { id: number; name: string }>();
    for (const { ticketId, ticketName } of inputs) {
      if (ticketName !== undefined) tickets.set(ticketId, { id: ticketId, name: ticketName });
    }
    const unknown = [...new Set(inputs.map((i) => i.ticketId).filter((id) => !tickets.has(id)))];
    if (unknown.length > 0) {
      const rows = await executor.selectFrom('tickets').select(['id', 'name']).where('id', 'in', unknown).execute();
      for (const ticket of rows) tickets.set(ticket.id, ticket);
    }
    return tickets;
  }

  /**
   * Each event's channel for its recipient (their choice for the event, else the event's
   * default), and the mails of those who get it by e-mail, composed, to be written in the
   * event's transaction. The people the events do not carry are read once for all of them (in
   * `executor`), the tickets' names only when some mail is due and an event does not carry it.
   */
  async function prepare(
    inputs: readonly TicketMailEvent[],
    executor: Executor,
  ): Promise<{ channels: NotificationChannel[]; mails: NewOutboxMail[] }> {
    if (inputs.length === 0) return { channels: [], mails: [] };
    const known = new Map(inputs.flatMap((i) => (i.recipient ? [[i.recipientId, i.recipient] as const] : [])));
    const unknown = inputs
      .flatMap((i) => [i.recipientId, ...(i.actorId === null ? [] : [i.actorId])])
      .filter((id) => !known.has(id));
    const people = new Map([...known, ...(await peopleOf(unknown, executor))]);
    const channels = inputs.map(
      (i) => people.get(i.recipientId)?.channels.get(i.event) ?? DEFAULT_NOTIFICATION_CHANNELS[i.event],
    );
    const mailed = inputs.filter((_, k) => channels[k] === 'email' || channels[k] === 'both');
    const mails = mailed.length === 0 ? [] : mailsOf(mailed, people, await ticketsOf(mailed, executor));
    return { channels, mails };
  }

  return {
    prepare,

    /** Writes mails `prepare` composed to the outbox, in `executor` (the event's transaction). */
    write: (mails: readonly NewOutboxMail[], executor: Executor) => outbox.enqueueMany(mails, executor),

    /**
     * The insert of mails `prepare` composed (at most ENQUEUE_CHUNK), not run: for a caller that
     * writes it within a statement of its own, in the event's transaction.
     */
    outboxInsert: (mails: readonly NewOutboxMail[], executor: Executor) => outbox.insertQuery(mails, executor),

    /**
     * The mails of events whose recipient the database chose (`mail_requests`), composed as
     * `prepare` composes an event's: for the outbox worker (mail-outbox.repository.ts
     * `composeRequests`).
     */
    async fromRequests(requests: readonly MailRequest[], executor: Executor): Promise<NewOutboxMail[]> {
      const inputs = requests.map((r): TicketMailEvent => ({
        recipientId: r.user_id,
        actorId: null,
        ticketId: r.ticket_id,
        event: r.event,
        message: r.message,
        detail: r.detail ?? undefined,
      }));
      return (await prepare(inputs, executor)).mails;
    },

    /** A write requested a mail (`mail_requests`): `committed` wakes the worker after it. */
    requested() {
      wrote = true;
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
