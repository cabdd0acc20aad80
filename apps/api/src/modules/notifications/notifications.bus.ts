import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Database } from '../../db/database.ts';
import { pgNotify, type Executor } from './notifications.repository.ts';

/** The PostgreSQL channel every API process listens on; its payload is a recipient's user id. */
export const NOTIFY_CHANNEL = 'portal_notifications';

/**
 * Tells live streams that a user may have new notifications. It carries only
 * the recipient's id: a stream then reads the rows from the database, so it
 * can only ever push what was committed.
 */
export interface NotificationBus {
  /**
   * Announces new notifications for `userId`. When `executor` is a
   * transaction, the announcement takes effect only once it commits; a
   * rolled-back write announces nothing.
   */
  signal(userId: number, executor: Executor): Promise<void>;
  /** Calls `listener` whenever `userId` may have new notifications, and after a reconnection (signals may have been lost). */
  subscribe(userId: number, listener: () => void): () => void;
  start(log: FastifyBaseLogger): Promise<void>;
  close(): Promise<void>;
}

export function createNotificationBus(database: Database, databaseUrl: string | undefined): NotificationBus {
  return database.dialect === 'postgres' && databaseUrl ? createPostgresBus(databaseUrl) : createLocalBus();
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
  return {
    async signal(userId) {
      setImmediate(() => listeners.notify(userId));
    },
    subscribe: (userId, listener) => listeners.add(userId, listener),
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
function createPostgresBus(databaseUrl: string): NotificationBus {
  const listeners = createListeners();
  let log: FastifyBaseLogger | undefined;
  let client: pg.Client | null = null;
  let isClosed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryDelayMs = 500;
  let hasConnectedBefore = false;

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
      await c.query(`LISTEN ${NOTIFY_CHANNEL}`);
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
    if (hasConnectedBefore) {
      log?.info('notifications: LISTEN connection restored');
      listeners.notifyAll();
    }
    hasConnectedBefore = true;
  }

  return {
    async signal(userId, executor) {
      await pgNotify(executor, NOTIFY_CHANNEL, String(userId));
    },
    subscribe: (userId, listener) => listeners.add(userId, listener),
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
