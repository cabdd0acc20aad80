import { DEFAULT_NOTIFICATION_CHANNELS, notificationEvents, type TNotificationPreferences } from '@portal/contract';
import type { Database } from '../../db/database.ts';

/** A person's notification choices: their rows, the defaults for the events they never chose. */
export function createNotificationPreferences(database: Database) {
  const { db } = database;
  return {
    async read(userId: number): Promise<TNotificationPreferences> {
      const [rows, rhythm] = await Promise.all([
        db.selectFrom('notification_preferences').select(['event', 'channel']).where('user_id', '=', userId).execute(),
        db.selectFrom('notification_rhythms').select('rhythm').where('user_id', '=', userId).executeTakeFirst(),
      ]);
      const channels = { ...DEFAULT_NOTIFICATION_CHANNELS };
      for (const row of rows) if (row.event in channels) channels[row.event] = row.channel;
      return { channels, rhythm: rhythm?.rhythm ?? 'immediate' };
    },

    /** Replaces them whole, in one transaction. */
    async write(userId: number, preferences: TNotificationPreferences): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('notification_preferences').where('user_id', '=', userId).execute();
        await trx
          .insertInto('notification_preferences')
          .values(notificationEvents.map((event) => ({ user_id: userId, event, channel: preferences.channels[event] })))
          .execute();
        await trx
          .insertInto('notification_rhythms')
          .values({ user_id: userId, rhythm: preferences.rhythm })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ rhythm: preferences.rhythm }))
          .execute();
      });
    },
  };
}
