import { NOTIFICATION_STREAM_EVENTS, type TNotification } from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { NotificationBus, TicketChange } from './notifications.bus.ts';
import type { NotificationsRepository } from './notifications.repository.ts';

/** Who a stream belongs to, and the access token it was opened with (its lifetime bounds the stream's). */
export interface StreamSession {
  userId: number;
  tokenJti: string;
  tokenIat: number;
  tokenExp: number;
}

export type StreamEndReason = 'shutdown' | 'session';

interface Stream {
  session: StreamSession;
  ping(): void;
  end(reason: StreamEndReason): void;
}

interface StreamHubDeps {
  bus: NotificationBus;
  repository: Pick<NotificationsRepository, 'listUnreadAfter'>;
  isSessionValid(session: StreamSession): Promise<boolean>;
  heartbeatMs: number;
  /** Whether the user may see every ticket (Tickets Generales); others hear only of tickets they are involved in. */
  seesAllTickets?: (userId: number) => Promise<boolean>;
}

/** How long a stream trusts its user's 'sees every ticket' answer. */
const TICKET_AUDIENCE_TTL_MS = 5_000;

const BATCH = 100;

const frame = (event: string, data: unknown, id?: number) =>
  `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The open server-sent-event streams of this process. Each stream subscribes to
 * its user's signals and, on each one, sends the unread notifications newer
 * than the last one it sent, read from the database.
 */
export function createStreamHub({ bus, repository, isSessionValid, heartbeatMs, seesAllTickets }: StreamHubDeps) {
  const streams = new Set<Stream>();
  let log: FastifyBaseLogger | undefined;
  let isClosed = false;

  const heartbeat = setInterval(() => void revalidate(), heartbeatMs);
  heartbeat.unref();

  /** Ends the given streams whose session is no longer in force. */
  async function check(targets: Stream[]) {
    await Promise.all(
      targets.map(async (stream) => {
        if (!(await isSessionValid(stream.session).catch(() => true))) stream.end('session');
      }),
    );
  }

  /** Pings every stream (so proxies keep it and dead sockets surface) and ends the ones whose session ended. */
  async function revalidate() {
    for (const stream of streams) stream.ping();
    await check([...streams]);
  }

  // A session can end in any process (logout, deactivation, password or role change): end its streams at once.
  bus.onInvalidate((invalidation) => {
    if (streams.size === 0) return;
    if (invalidation.kind === 'token') {
      for (const stream of [...streams]) if (stream.session.tokenJti === invalidation.jti) stream.end('session');
    } else if (invalidation.kind === 'user') {
      void check([...streams].filter((stream) => stream.session.userId === invalidation.userId));
    } else if (invalidation.kind !== 'grants') {
      void check([...streams]);
    }
  });

  return {
    setLogger(logger: FastifyBaseLogger) {
      log = logger;
    },

    countFor(userId: number): number {
      let count = 0;
      for (const s of streams) if (s.session.userId === userId) count += 1;
      return count;
    },

    get size() {
      return streams.size;
    },

    /** Takes over a hijacked response and keeps it open until the client leaves or the server ends it. */
    async open(raw: ServerResponse, session: StreamSession, since: number, headers: OutgoingHttpHeaders) {
      const { userId } = session;
      let lastId = since;
      let isOpen = true;
      let isPumping = false;
      let isPumpRequested = false;

      const write = (chunk: string) => {
        if (isOpen && !raw.writableEnded && !raw.destroyed) raw.write(chunk);
      };

      const pump = async () => {
        if (isPumping) {
          isPumpRequested = true;
          return;
        }
        isPumping = true;
        try {
          do {
            isPumpRequested = false;
            const rows: TNotification[] = await repository.listUnreadAfter(userId, lastId, BATCH);
            for (const row of rows) {
              write(frame(NOTIFICATION_STREAM_EVENTS.notification, row, row.id));
              lastId = row.id;
            }
            if (rows.length === BATCH) isPumpRequested = true;
          } while (isPumpRequested && isOpen);
        } catch (error) {
          log?.warn({ err: error, userId }, 'notifications: stream read failed');
        } finally {
          isPumping = false;
        }
      };

      // Ticket changes (live lists): sent to a user involved in the ticket or who sees every ticket.
      let seesAll: { value: boolean; until: number } | null = null;
      const onTicketChange = async (change: TicketChange) => {
        if (!change.userIds.includes(userId)) {
          if (!seesAll || seesAll.until < Date.now()) {
            const value = (await seesAllTickets?.(userId).catch(() => false)) ?? false;
            seesAll = { value, until: Date.now() + TICKET_AUDIENCE_TTL_MS };
          }
          if (!seesAll.value) return;
        }
        write(frame(NOTIFICATION_STREAM_EVENTS.ticket, { id: change.ticketId }));
      };

      const cleanup = () => {
        if (!isOpen) return;
        isOpen = false;
        unsubscribe();
        streams.delete(stream);
      };

      const stream: Stream = {
        session,
        ping() {
          if (raw.destroyed || raw.writableEnded) cleanup();
          else write(': ping\n\n');
        },
        end(reason) {
          write(frame(NOTIFICATION_STREAM_EVENTS.end, { reason }));
          cleanup();
          raw.end();
        },
      };

      raw.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-store, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.flushHeaders();
      const unsubscribeNotifications = bus.subscribe(userId, () => void pump());
      const unsubscribeTickets = bus.subscribeTickets((change) => void onTicketChange(change));
      const unsubscribe = () => {
        unsubscribeNotifications();
        unsubscribeTickets();
      };
      streams.add(stream);
      raw.on('close', cleanup);
      raw.on('error', cleanup);
      // The client may have left while the stream was being set up.
      if (raw.destroyed) return cleanup();

      write(frame(NOTIFICATION_STREAM_EVENTS.ready, { since: lastId }));
      if (isClosed) return stream.end('shutdown');
      await pump();
    },

    revalidate,

    /** Ends every stream with an `end` event, so `app.close()` does not wait on them. */
    closeAll() {
      isClosed = true;
      clearInterval(heartbeat);
      for (const stream of [...streams]) stream.end('shutdown');
    },
  };
}
export type StreamHub = ReturnType<typeof createStreamHub>;
