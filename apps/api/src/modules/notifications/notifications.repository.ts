import type { Insertable } from 'kysely';
import { nowIso, type Database } from '../../db/database.ts';
import type { NotificationsTable } from '../../db/schema.ts';

export type NewNotification = Omit<Insertable<NotificationsTable>, 'id' | 'created_at'>;

export function createNotificationsRepository({ db }: Database) {
  return {
    /** Stores one notification for its recipient (`user_id`) and returns its id. */
    async create(notification: NewNotification, trx = db): Promise<number> {
      const row = await trx
        .insertInto('notifications')
        .values({ ...notification, created_at: nowIso() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
