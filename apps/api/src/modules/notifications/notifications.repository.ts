import type { TNotification } from '@portal/contract';
import { sql, type Insertable, type InsertQueryBuilder, type InsertResult, type Kysely, type Selectable } from 'kysely';
import { nowIso, type Database } from '../../db/database.ts';
import { executePrepared } from '../../db/prepared.ts';
import type { DB, NotificationsTable } from '../../db/schema.ts';

export type NewNotification = Omit<Insertable<NotificationsTable>, 'id' | 'created_at'>;
type NotificationRow = Selectable<NotificationsTable>;

/** A query executor: the database or an open transaction. */
export type Executor = Kysely<DB>;

const columns = [
  'n.id',
  'n.ticket_id',
  'n.title',
  'n.message',
  'n.type',
  'n.viewed',
  'n.visible',
  'n.created_at',
  'actor.name as actor_first_name',
  'actor.last_name as actor_last_name',
  'ticket.name as ticket_name',
] as const;

/** Sends a PostgreSQL NOTIFY through `executor`: inside a transaction it is delivered when that commits. */
export async function pgNotify(executor: Executor, channel: string, payloads: readonly string[]): Promise<void> {
  if (payloads.length === 0) return;
  await sql`select pg_notify(${channel}, p) from unnest(${[...payloads]}::text[]) as p`.execute(executor);
}

/** Reads join who acted and the ticket's name. */
const readable = 'notifications as n' as const;

type ReadRow = Omit<NotificationRow, 'user_id' | 'actor_id'> & {
  actor_first_name?: string | null;
  actor_last_name?: string | null;
  ticket_name?: string | null;
};

export function toNotification(row: ReadRow): TNotification {
  return {
    id: row.id,
    ticket_id: row.ticket_id,
    title: row.title,
    message: row.message,
    type: row.type,
    viewed: Number(row.viewed),
    visible: Number(row.visible),
    created_at: row.created_at,
    timestamp: Date.parse(row.created_at),
    actor_name: row.actor_first_name ? `${row.actor_first_name} ${row.actor_last_name ?? ''}`.trim() : null,
    ticket_name: row.ticket_name ?? null,
  };
}

/**
 * Notifications are rows per recipient; every read and write below is scoped
 * to one `user_id`, so a caller can never reach another user's rows.
 */
export function createNotificationsRepository({ db }: Database) {
  /** Notifications with the name of who acted and of their ticket. */
  const readQuery = () =>
    db
      .selectFrom(readable)
      .leftJoin('users as actor', 'actor.id', 'n.actor_id')
      .leftJoin('tickets as ticket', 'ticket.id', 'n.ticket_id')
      .select(columns);

  return {
    /** Stores notifications, each for its recipient (`user_id`); answers their ids, in order. */
    async createMany(notifications: readonly NewNotification[], trx: Executor = db): Promise<number[]> {
      if (notifications.length === 0) return [];
      const now = nowIso();
      const rows = await trx
        .insertInto('notifications')
        .values(notifications.map((n) => ({ ...n, created_at: now })))
        .returning('id')
        .execute();
      return rows.map((r) => r.id).sort((a, b) => a - b);
    },

    /**
     * PostgreSQL: stores notifications and, in the same statement, NOTIFYs `channel` with each
     * recipient's id (delivered when the transaction commits), writing `alongside` too (the
     * same events' mails, mail-outbox.repository.ts `insertQuery`). Answers the ids, in order.
     */
    async createSignalled(
      notifications: readonly NewNotification[],
      channel: string,
      trx: Executor,
      alongside?: InsertQueryBuilder<DB, 'mail_outbox', InsertResult>,
    ): Promise<number[]> {
      if (notifications.length === 0) {
        if (alongside) await alongside.execute();
        return [];
      }
      const now = nowIso();
      const insert = trx
        .insertInto('notifications')
        .values(notifications.map((n) => ({ ...n, created_at: now })))
        .returning(['id', 'user_id']);
      const statement = sql<{ id: number }>`with ${alongside ? sql`mails as (${alongside}),` : sql``}
        n as (${insert})
        select n.id, pg_notify(${channel}, n.user_id::text) from n order by n.id`;
      const { rows } = await executePrepared(trx, statement);
      return rows.map((r) => r.id);
    },

    /** The newest unread notifications, newest first. */
    async listUnread(userId: number, limit: number): Promise<TNotification[]> {
      const rows = await readQuery()
        .where('n.user_id', '=', userId)
        .where('n.visible', '=', 1)
        .orderBy('n.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toNotification);
    },

    async countUnread(userId: number): Promise<number> {
      const row = await db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('user_id', '=', userId)
        .where('visible', '=', 1)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Unread notifications newer than `afterId`, oldest first: what a live stream has not sent yet. */
    async listUnreadAfter(userId: number, afterId: number, limit: number): Promise<TNotification[]> {
      const rows = await readQuery()
        .where('n.user_id', '=', userId)
        .where('n.visible', '=', 1)
        .where('n.id', '>', afterId)
        .orderBy('n.id', 'asc')
        .limit(limit)
        .execute();
      return rows.map(toNotification);
    },

    /** All notifications, read or not, newest first, one page before the cursor. */
    async listHistory(userId: number, limit: number, beforeId?: number): Promise<TNotification[]> {
      const rows = await readQuery()
        .where('n.user_id', '=', userId)
        .$if(beforeId !== undefined, (qb) => qb.where('n.id', '<', beforeId!))
        .orderBy('n.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toNotification);
    },

    async latestId(userId: number): Promise<number> {
      const row = await db
        .selectFrom('notifications')
        .select((eb) => eb.fn.max('id').as('max'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.max ?? 0);
    },

    /** Marks the listed notifications of `userId` viewed; ids of other users match nothing. */
    async markViewed(userId: number, ids: number[]): Promise<number> {
      const result = await db
        .updateTable('notifications')
        .set({ viewed: 1 })
        .where('user_id', '=', userId)
        .where('id', 'in', ids)
        .where('viewed', '=', 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** Marks the listed notifications of `userId` read (and viewed); ids of other users match nothing. */
    async markRead(userId: number, ids: number[]): Promise<number> {
      const result = await db
        .updateTable('notifications')
        .set({ visible: 0, viewed: 1 })
        .where('user_id', '=', userId)
        .where('id', 'in', ids)
        .where('visible', '=', 1)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async markAllRead(userId: number): Promise<number> {
      const result = await db
        .updateTable('notifications')
        .set({ visible: 0, viewed: 1 })
        .where('user_id', '=', userId)
        .where('visible', '=', 1)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /**
     * Records a one-time key (a stream ticket's nonce) in `revoked_tokens`, the
     * table every API process shares; false when it was already there, so a
     * ticket opens one stream at most, whichever process receives it.
     */
    async claimOnce(key: string, userId: number, expiresAt: number): Promise<boolean> {
      const row = await db
        .insertInto('revoked_tokens')
        .values({ jti: key, user_id: userId, expires_at: expiresAt })
        .onConflict((oc) => oc.column('jti').doNothing())
        .returning('jti')
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
