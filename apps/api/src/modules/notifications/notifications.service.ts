import {
  MAX_ACTIVE_NOTIFICATIONS,
  NOTIFICATION_TEXT,
  type NotificationChannel,
  type NotificationEvent,
  type NotificationType,
  type TNotification,
  type TNotificationHistoryQuery,
} from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Database } from '../../db/database.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { AuditRepository } from '../audit/audit.repository.ts';
import type { SessionChecker } from '../auth/sessions.ts';
import type { TokenClaims } from '../auth/tokens.ts';
import type { MailNotifier, MailPerson } from '../mail/mail-notifier.ts';
import { ENQUEUE_CHUNK, type NewOutboxMail } from '../mail/mail-outbox.repository.ts';
import type { NotificationBus, TicketChange } from './notifications.bus.ts';
import { createNotificationsRepository, type Executor, type NewNotification } from './notifications.repository.ts';
import { createStreamHub, type StreamSession } from './notifications.stream.ts';

/** A stream ticket opens one stream within this many seconds of being issued. */
export const STREAM_TICKET_TTL_SECONDS = 30;
const MAX_STREAMS_PER_USER = 10;
const TICKET_PREFIX = 'stream:';

interface NotificationsServiceDeps {
  database: Database;
  /** The process's bus (notifications.bus.ts), shared with the session and grant caches. */
  bus: NotificationBus;
  secret: string;
  sessions: SessionChecker;
  audit: AuditRepository;
  heartbeatMs?: number;
  /** Whether the user may see every ticket: live ticket changes reach them all. */
  seesAllTickets?: (userId: number) => Promise<boolean>;
  /** E-mail: each person's channel per event, and the mail written to the outbox (modules/mail). */
  mail?: MailNotifier;
}

export interface NotifyInput {
  /** Who receives it; nobody when null. */
  recipientId: number | null | undefined;
  /** Who acted; never notified of their own action. Null: the portal itself (an SLA alert, an automatic assignment). */
  actorId: number | null;
  ticketId: number;
  /** The ticket's name when the caller knows it: its mail does not read it again. */
  ticketName?: string;
  /** The recipient as the caller read them (mail-notifier.ts): not read again. */
  recipient?: MailPerson;
  /** Which of the events a person chooses channels for (profile, Notificaciones). */
  event: NotificationEvent;
  message: string;
  /** What was written or changed, for the mail (the activity's text, the new status). */
  detail?: string;
  type?: NotificationType;
}

interface TicketPayload {
  /** user id */ u: number;
  /** access token jti, iat, exp */ j: string;
  i: number;
  e: number;
  /** ticket expiry (s) */ x: number;
  /** single-use nonce */ n: string;
}

const refused = () => new HttpError(401, NOTIFICATION_TEXT.streamRefused);

export function createNotificationsService(deps: NotificationsServiceDeps) {
  const { database, sessions, audit } = deps;
  const repository = createNotificationsRepository(database);
  const { bus } = deps;

  // Its own key, so a stream ticket is never a valid access token or CSRF token, nor the reverse.
  const ticketKey = createHmac('sha256', deps.secret).update('notification-stream-ticket-key').digest();
  const sign = (body: string) => createHmac('sha256', ticketKey).update(body).digest('base64url');

  const isSessionValid = async (session: StreamSession) =>
    (await sessions.activeUser({
      userId: session.userId,
      jti: session.tokenJti,
      iat: session.tokenIat,
      exp: session.tokenExp,
    })) !== undefined;

  const hub = createStreamHub({
    bus,
    repository,
    isSessionValid,
    heartbeatMs: deps.heartbeatMs ?? 25_000,
    seesAllTickets: deps.seesAllTickets,
  });

  type DueNotice = NotifyInput & { recipientId: number };
  const inPortal = (channel: NotificationChannel | undefined) => channel === 'portal' || channel === 'both';

  /**
   * Stores notifications, with the mails of the same events (composed by the mail notifier),
   * and announces them to their recipients' live streams, in `executor`: a transaction's
   * announcement takes effect only if it commits (nothing is pushed for a rollback), so
   * callers never publish by hand. On PostgreSQL one statement writes the rows and sends the
   * NOTIFY. Answers the notifications' ids, in order.
   */
  async function store(
    rows: readonly NewNotification[],
    mails: readonly NewOutboxMail[],
    executor: Executor,
  ): Promise<number[]> {
    const { mail } = deps;
    const channel = bus.notifyChannel;
    if (channel !== null && mails.length <= ENQUEUE_CHUNK) {
      const alongside = mail && mails.length > 0 ? mail.outboxInsert(mails, executor) : undefined;
      return repository.createSignalled(rows, channel, executor, alongside);
    }
    if (mail && mails.length > 0) await mail.write(mails, executor);
    if (rows.length === 0) return [];
    const ids = await repository.createMany(rows, executor);
    await bus.signal([...new Set(rows.map((r) => r.user_id))], executor);
    return ids;
  }

  /** Stores a notification and announces it to the recipient's live streams (`store`). */
  async function create(notification: NewNotification, trx?: Executor): Promise<number> {
    const [id] = await store([notification], [], trx ?? database.db);
    return id!;
  }

  /** Each event's channel for its recipient and the mails of those who get it by e-mail (without mail: the portal). */
  async function channelsAndMails(due: readonly DueNotice[], executor: Executor) {
    const { mail } = deps;
    if (!mail) return { channels: due.map((): NotificationChannel => 'portal'), mails: [] };
    return mail.prepare(due, executor);
  }

  const rowOf = (input: DueNotice): NewNotification => ({
    user_id: input.recipientId,
    actor_id: input.actorId,
    ticket_id: input.ticketId,
    title: NOTIFICATION_TEXT.title(input.ticketId),
    message: input.message,
    type: input.type ?? 'info',
  });

  return {
    create,

    /**
     * A ticket event for `recipientId`, unless they are the one who acted, by the channel they
     * chose for it: a notification in the portal (title 'Ticket #id'), a mail in the outbox, both
     * or neither, written in `trx`, the event's transaction. Answers the notification's id.
     */
    async notify(input: NotifyInput, trx?: Executor): Promise<number | null> {
      const { recipientId } = input;
      if (!recipientId || recipientId === input.actorId) return null;
      const due = { ...input, recipientId };
      const executor = trx ?? database.db;
      const { channels, mails } = await channelsAndMails([due], executor);
      const [id] = await store(inPortal(channels[0]) ? [rowOf(due)] : [], mails, executor);
      return id ?? null;
    },

    /**
     * `notify` for many events at once (a sweep's alerts): the channels, the people and the
     * tickets read once for all, the mails and the notifications written together (`store`).
     */
    async notifyMany(inputs: readonly NotifyInput[], trx?: Executor): Promise<void> {
      const executor = trx ?? database.db;
      const due = inputs.flatMap((i) =>
        i.recipientId && i.recipientId !== i.actorId ? [{ ...i, recipientId: i.recipientId }] : [],
      );
      if (due.length === 0) return;
      const { channels, mails } = await channelsAndMails(due, executor);
      await store(due.filter((_, k) => inPortal(channels[k])).map(rowOf), mails, executor);
    },

    /**
     * Tells the live streams of those who may see the ticket that it changed, and the mail worker
     * that mails of the change are committed. Call it once the change has committed, outside its
     * transaction (notifications.bus.ts `signalTicket`).
     */
    ticketChanged: (change: TicketChange) => {
      deps.mail?.committed();
      return bus.signalTicket(change);
    },

    /** A committed write requested a mail (mail_requests): `ticketChanged` wakes the mail worker. */
    mailRequested: () => deps.mail?.requested(),

    /** Wakes `userId`'s streams; only for notifications written without `create` (same transaction rule). */
    publish: (userId: number, trx?: Executor) => bus.signal([userId], trx ?? database.db),

    async listActive(userId: number): Promise<{ data: TNotification[]; total: number }> {
      const [data, total] = await Promise.all([
        repository.listUnread(userId, MAX_ACTIVE_NOTIFICATIONS),
        repository.countUnread(userId),
      ]);
      return { data, total };
    },

    async listHistory(userId: number, query: TNotificationHistoryQuery) {
      const rows = await repository.listHistory(userId, query.limit + 1, query.before_id);
      return { data: rows.slice(0, query.limit), has_more: rows.length > query.limit };
    },

    markViewed: (userId: number, ids: number[]) => repository.markViewed(userId, unique(ids)),
    markRead: (userId: number, ids: number[]) => repository.markRead(userId, unique(ids)),
    markAllRead: (userId: number) => repository.markAllRead(userId),

    /**
     * A short-lived, single-use credential for `GET /notifications/stream`.
     * EventSource cannot send an Authorization header, and the access token
     * must never travel in a URL (logs, history), so the client trades it for
     * this ticket first. It is bound to the access token: the stream ends when
     * that token expires or is revoked.
     */
    issueStreamTicket(userId: number, claims: TokenClaims): string {
      const payload: TicketPayload = {
        u: userId,
        j: claims.jti,
        i: claims.iat,
        e: claims.exp,
        x: Math.floor(Date.now() / 1000) + STREAM_TICKET_TTL_SECONDS,
        n: randomBytes(16).toString('base64url'),
      };
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${body}.${sign(body)}`;
    },

    /** Checks and uses up a stream ticket; a 401 for a forged, expired or reused one or an ended session. */
    async redeemStreamTicket(ticket: string, ip: string): Promise<StreamSession> {
      const payload = verifyTicket(ticket, sign);
      const session = payload && {
        userId: payload.u,
        tokenJti: payload.j,
        tokenIat: payload.i,
        tokenExp: payload.e,
      };
      const isAccepted =
        payload !== null &&
        payload.x > Date.now() / 1000 &&
        (await repository.claimOnce(`${TICKET_PREFIX}${payload.n}`, payload.u, payload.x)) &&
        (await isSessionValid(session!));
      if (!isAccepted) {
        await audit.record({ event: 'notifications.stream_refused', userId: payload?.u ?? null, ip });
        throw refused();
      }
      if (hub.countFor(session!.userId) >= MAX_STREAMS_PER_USER) {
        throw new HttpError(429, 'Demasiadas conexiones de notificaciones abiertas.');
      }
      return session!;
    },

    /** The newest notification id of `userId`: where a stream opened without `since` starts. */
    latestIdOf: (userId: number) => repository.latestId(userId),

    /** Sends, over a hijacked response, every unread notification newer than `since` and then each new one. */
    openStream(raw: ServerResponse, session: StreamSession, since: number, headers: OutgoingHttpHeaders) {
      return hub.open(raw, session, since, headers);
    },

    /** How many live streams this process holds. */
    get openStreams() {
      return hub.size;
    },

    /** Runs the heartbeat now: pings every stream and ends those whose session has ended. */
    revalidateStreams: () => hub.revalidate(),

    async start(log: FastifyBaseLogger) {
      hub.setLogger(log);
      await bus.start(log);
    },
    closeStreams: () => hub.closeAll(),
    close: () => bus.close(),
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;

const unique = (ids: number[]) => [...new Set(ids)];

function verifyTicket(ticket: string, sign: (body: string) => string): TicketPayload | null {
  const [body, signature, ...rest] = ticket.split('.');
  if (!body || !signature || rest.length > 0) return null;
  const expected = Buffer.from(sign(body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<TicketPayload>;
    const isWellFormed =
      Number.isSafeInteger(p.u) &&
      typeof p.j === 'string' &&
      typeof p.i === 'number' &&
      typeof p.e === 'number' &&
      typeof p.x === 'number' &&
      typeof p.n === 'string';
    return isWellFormed ? (p as TicketPayload) : null;
  } catch {
    return null;
  }
}
