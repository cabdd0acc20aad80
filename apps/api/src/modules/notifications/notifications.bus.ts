import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Database } from '../../db/database.ts';
import { pgNotify, type Executor } from './notifications.repository.ts';

/** The PostgreSQL channel every API process listens on; its payload is a recipient's user id. */
export const NOTIFY_CHANNEL = 'portal_notifications';
/**
 * The PostgreSQL channel of cache invalidations, sent by triggers on the tables
 * that session state and grants come from (migration 0006), so no write can
 * forget to announce itself. Payloads: `user:<id>`, `token:<jti>`, `roles`, `grants`,
 * `catalogs` (migration 0011).
 */
export const INVALIDATE_CHANNEL = 'portal_invalidate';

/**
 * Something that in-memory state (sessions, grants, open streams) may hold an
 * old copy of:
 * - `user`: one user's row (status, role, password, sessions_valid_after, name…);
 * - `users`: any user's row;
 * - `token`: an access token was revoked;
 * - `roles`: roles changed (users' role status and name, and grants);
 * - `grants`: sections, routes or their permissions changed;
 * - `catalogs`: a catalogue changed (the ones tickets name: priorities, statuses, projects, areas, categories,
 *   difficulties; and groups, routing rules, business calendars, SLA policies);
 * - `all`: anything (announcements may have been lost, e.g. while reconnecting).
 */
export type Invalidation =
  | { kind: 'user'; userId: number }
  | { kind: 'users' }
  | { kind: 'token'; jti: string }
  | { kind: 'roles' }
  | { kind: 'grants' }
  | { kind: 'catalogs' }
  | { kind: 'all' };

export function parseInvalidation(payload: string): Invalidation | null {
  if (
    payload === 'roles' ||
    payload === 'grants' ||
    payload === 'users' ||
    payload === 'catalogs' ||
    payload === 'all'
  ) {
    return { kind: payload };
  }
  if (payload.startsWith('token:')) return { kind: 'token', jti: payload.slice(6) };
  if (payload.startsWith('user:')) {
    const userId = Number(payload.slice(5));
    return Number.isSafeInteger(userId) ? { kind: 'user', userId } : null;
  }
  return null;
}

/** The PostgreSQL channel of ticket changes (live lists); payload `ticketId:userId,userId…`. */
export const TICKET_CHANNEL = 'portal_ticket_changes';

/** A ticket was created or changed: its id and the users involved (creator, assignees before and after). */
export interface TicketChange {
  ticketId: number;
  userIds: number[];
}

const encodeTicketChange = (c: TicketChange) => `${c.ticketId}:${c.userIds.join(',')}`;
function decodeTicketChange(payload: string | undefined): TicketChange | null {
  const [id, users = ''] = (payload ?? '').split(':');
  const ticketId = Number(id);
  const userIds = users.split(',').filter(Boolean).map(Number);
  return Number.isSafeInteger(ticketId) && userIds.every(Number.isSafeInteger) ? { ticketId, userIds } : null;
}

/** Fans ticket changes out to every stream of the process (each decides whether its user may see the ticket). */
function createTicketListeners() {
  const set = new Set<(change: TicketChange) => void>();
  return {
    add(listener: (change: TicketChange) => void) {
      set.add(listener);
      return () => void set.delete(listener);
    },
    notify(change: TicketChange) {
      for (const listener of set) listener(change);
    },
  };
}

/**
 * Tells live streams that a user may have new notifications. It carries only
 * the recipient's id: a stream then reads the rows from the database, so it
 * can only ever push what was committed.
 */
export interface NotificationBus {
  /**
   * Announces new notifications for each of `userIds` (on PostgreSQL one
   * statement for all). When `executor` is a transaction, the announcement
   * takes effect only once it commits; a rolled-back write announces nothing.
   */
  signal(userIds: readonly number[], executor: Executor): Promise<void>;
  /**
   * PostgreSQL: the channel `signal` notifies, each recipient's id its payload, so a write may
   * send it in its own statement (notifications.repository.ts `createSignalled`); null when
   * signals travel inside the process.
   */
  readonly notifyChannel: string | null;
  /** Calls `listener` whenever `userId` may have new notifications, and after a reconnection (signals may have been lost). */
  subscribe(userId: number, listener: () => void): () => void;
  /**
   * Calls `listener` for every invalidation: the ones of this process at once
   * (`invalidate`), and on PostgreSQL the ones of every process once their
   * transaction commits (triggers, LISTEN).
   */
  onInvalidate(listener: (invalidation: Invalidation) => void): () => void;
  /** Announces an invalidation inside this process. */
  invalidate(invalidation: Invalidation): void;
  /**
   * Whether in-memory state may be kept now: invalidations from every process
   * reach this one (always on SQLite; on PostgreSQL while the LISTEN connection
   * is up and no write of this process is still uncommitted-or-unannounced).
   */
  canCache(): boolean;
  /**
   * Announces a ticket change. Called once the change has committed (never inside its
   * transaction): on PostgreSQL a NOTIFY sent in a writer's transaction takes a lock that
   * every other notifying commit waits for, through its WAL flush, so concurrent ticket
   * writes would commit one at a time. Changes are sent in batches instead, on the LISTEN
   * connection, each batch one NOTIFY transaction that does not wait for its flush.
   */
  signalTicket(change: TicketChange): void;
  /** Calls `listener` on every ticket change. */
  subscribeTickets(listener: (change: TicketChange) => void): () => void;
  start(log: FastifyBaseLogger): Promise<void>;
  close(): Promise<void>;
}

export function createNotificationBus(database: Database, databaseUrl: string | undefined): NotificationBus {
  const bus = database.dialect === 'postgres' && databaseUrl ? createPostgresBus(databaseUrl) : createLocalBus();
  // Writes of this process invalidate at once; on PostgreSQL the triggers announce them to every process too.
  database.writes.onWrite((table) => {
    const invalidation = invalidationOfTable(table);
    if (invalidation) bus.invalidate(invalidation);
  });
  return bus;
}

const GRANT_TABLES = new Set(['sections', 'routes', 'sections_permission', 'routes_permission']);
/** The catalogues whose names tickets show (ticket-names.repository.ts). */
export const TICKET_CATALOG_TABLES = [
  'priority_types',
  'ticket_statuses',
  'projects',
  'areas',
  'categories',
  'difficulties',
] as const;
const CATALOG_TABLES = new Set<string>([
  ...TICKET_CATALOG_TABLES,
  'groups',
  'routing_rules',
  'reference_types',
  'business_calendars',
  'sla_policies',
]);

/** What a write to `table` may change (revoked tokens are announced one by one by their repository). */
function invalidationOfTable(table: string): Invalidation | null {
  if (table === 'users') return { kind: 'users' };
  if (table === 'roles') return { kind: 'roles' };
  if (GRANT_TABLES.has(table)) return { kind: 'grants' };
  if (CATALOG_TABLES.has(table)) return { kind: 'catalogs' };
  return null;
}

function createInvalidationListeners() {
  const listeners = new Set<(invalidation: Invalidation) => void>();
  return {
    add(listener: (invalidation: Invalidation) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    emit(invalidation: Invalidation) {
      for (const listener of listeners) listener(invalidation);
    },
  };
}

function createListeners() {
  const byUser = new Map<number, Set<() => void>>();
  return {
    add(userId: number, listener: () => void) {
      let set = byUser.get(userId);
      if (!set) byUser.set(userId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && byUser.get(userId) === set) byUser.delete(userId);
      };
    },
    notify(userId: number) {
      for (const listener of byUser.get(userId) ?? []) listener();
    },
    notifyAll() {
      for (const set of byUser.values()) for (const listener of set) listener();
    },
  };
}

/**
 * SQLite runs in one process, so an in-process signal reaches every stream.
 * It is sent on the next turn of the event loop; the stream's read then goes
 * through Kysely's single SQLite connection, which a transaction holds until it
 * commits or rolls back, so the read sees the committed row or nothing.
 */
function createLocalBus(): NotificationBus {
  const listeners = createListeners();
  const invalidations = createInvalidationListeners();
  const ticketListeners = createTicketListeners();
  return {
    notifyChannel: null,
    async signal(userIds) {
      setImmediate(() => {
        for (const userId of userIds) listeners.notify(userId);
      });
    },
    subscribe: (userId, listener) => listeners.add(userId, listener),
    onInvalidate: (listener) => invalidations.add(listener),
    // Kysely's one SQLite connection is held by a transaction until it ends, so a
    // read that follows an invalidation sees the committed state: caching is always safe.
    invalidate: (invalidation) => invalidations.emit(invalidation),
    canCache: () => true,
    signalTicket(change) {
      setImmediate(() => ticketListeners.notify(change));
    },
    subscribeTickets: (listener) => ticketListeners.add(listener),
    async start() {},
    async close() {},
  };
}

/**
 * Several API processes share one PostgreSQL: NOTIFY reaches every process
 * that LISTENs, and PostgreSQL delivers it only when the sending transaction
 * commits. Each process keeps one dedicated connection for LISTEN (the
 * Kysely pool cannot hold one) and reconnects with backoff when it drops.
 */
/**
 * How long after a write of this process in-memory state is not kept: a write
 * inside a transaction invalidates before it commits, so a read on another pool
 * connection could still see the old row; the trigger's NOTIFY, delivered on
 * commit, invalidates again.
 */
const UNCOMMITTED_WINDOW_MS = 1_000;

/** Ticket changes kept while the LISTEN connection is down (the oldest are dropped beyond). */
const MAX_QUEUED_TICKET_CHANGES = 10_000;

function createPostgresBus(databaseUrl: string): NotificationBus {
  const listeners = createListeners();
  const invalidations = createInvalidationListeners();
  let noCacheUntil = 0;
  const ticketListeners = createTicketListeners();
  let log: FastifyBaseLogger | undefined;
  let client: pg.Client | null = null;
  let isClosed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryDelayMs = 500;
  let hasConnectedBefore = false;
  /** Ticket changes not yet sent (encoded), and whether a batch is on its way. */
  let ticketQueue: string[] = [];
  let isPublishing = false;

  /** Sends every queued ticket change in one statement; changes queued meanwhile go in the next one. */
  async function publishTickets(): Promise<void> {
    if (isPublishing) return;
    isPublishing = true;
    try {
      while (client && ticketQueue.length > 0) {
        const c = client;
        const batch = ticketQueue;
        ticketQueue = [];
        try {
          await c.query('select pg_notify($1, x) from unnest($2::text[]) as x', [TICKET_CHANNEL, batch]);
        } catch (error) {
          log?.warn({ err: error }, 'notifications: ticket changes not announced');
          // A lost connection: `connect` sends them on the next one. Otherwise they are dropped (never retried forever).
          if (client !== c) ticketQueue = [...batch, ...ticketQueue].slice(-MAX_QUEUED_TICKET_CHANGES);
          return;
        }
      }
    } finally {
      isPublishing = false;
    }
  }

  const drop = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    c.end().catch(() => undefined);
    scheduleRetry();
  };

  const scheduleRetry = () => {
    if (isClosed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().catch((error: unknown) => {
        log?.warn({ err: error }, 'notifications: LISTEN connection failed, retrying');
        scheduleRetry();
      });
    }, retryDelayMs);
    retryTimer.unref();
    retryDelayMs = Math.min(retryDelayMs * 2, 30_000);
  };

  async function connect() {
    const c = new pg.Client({ connectionString: databaseUrl, application_name: 'portal-notifications' });
    c.on('notification', (message) => {
      if (message.channel === INVALIDATE_CHANNEL) {
        const invalidation = parseInvalidation(message.payload ?? '');
        if (invalidation) invalidations.emit(invalidation);
        return;
      }
      if (message.channel === TICKET_CHANNEL) {
        const change = decodeTicketChange(message.payload);
        if (change) ticketListeners.notify(change);
        return;
      }
      if (message.channel !== NOTIFY_CHANNEL) return;
      const userId = Number(message.payload);
      if (Number.isSafeInteger(userId)) listeners.notify(userId);
    });
    c.on('error', (error) => {
      log?.warn({ err: error }, 'notifications: LISTEN connection lost');
      drop(c);
    });
    c.on('end', () => drop(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${NOTIFY_CHANNEL}; LISTEN ${INVALIDATE_CHANNEL}`);
      await c.query(`LISTEN ${TICKET_CHANNEL}`);
      // The ticket changes sent on this connection (publishTickets) need not wait for their WAL flush.
      await c.query('set synchronous_commit = off');
    } catch (error) {
      await c.end().catch(() => undefined);
      throw error;
    }
    if (isClosed) {
      await c.end();
      return;
    }
    client = c;
    retryDelayMs = 500;
    void publishTickets();
    // Whatever was kept before this connection listened may have changed unannounced.
    invalidations.emit({ kind: 'all' });
    if (hasConnectedBefore) {
      log?.info('notifications: LISTEN connection restored');
      listeners.notifyAll();
    }
    hasConnectedBefore = true;
  }

  return {
    notifyChannel: NOTIFY_CHANNEL,
    async signal(userIds, executor) {
      await pgNotify(executor, NOTIFY_CHANNEL, userIds.map(String));
    },
    subscribe: (userId, listener) => listeners.add(userId, listener),
    onInvalidate: (listener) => invalidations.add(listener),
    invalidate(invalidation) {
      noCacheUntil = Date.now() + UNCOMMITTED_WINDOW_MS;
      invalidations.emit(invalidation);
    },
    canCache: () => client !== null && Date.now() >= noCacheUntil,
    signalTicket(change) {
      ticketQueue.push(encodeTicketChange(change));
      if (ticketQueue.length > MAX_QUEUED_TICKET_CHANGES) ticketQueue.shift();
      void publishTickets();
    },
    subscribeTickets: (listener) => ticketListeners.add(listener),
    async start(logger) {
      log = logger;
      try {
        await connect();
      } catch (error) {
        // The portal works without live push (clients poll); keep trying in the background.
        log.warn({ err: error }, 'notifications: LISTEN connection failed, retrying');
        scheduleRetry();
      }
    },
    async close() {
      isClosed = true;
      clearTimeout(retryTimer);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
