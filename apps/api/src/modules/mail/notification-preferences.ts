import {
  DEFAULT_NOTIFICATION_CHANNELS,
  NOTIFICATION_PREFERENCES_MSG,
  ZErrorResponse,
  ZNotificationPreferences,
  notificationEvents,
  type TNotificationPreferences,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database.ts';
import { currentUser } from '../../plugins/access.ts';
import type { Services } from '../../services.ts';

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

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 422: ZErrorResponse };
const ZAnswer = z.object({ status: z.literal(true), data: ZNotificationPreferences });

/** GET/PUT /users/notification-preferences: always the signed-in user's own, never another's. */
export const notificationPreferencesRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const preferences = createNotificationPreferences(services.database);
  const tags = ['profile'];
  app.get(
    '/users/notification-preferences',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Tus avisos: canal por evento y ritmo del correo',
        response: { 200: ZAnswer, ...errors },
      },
    },
    async (request) => ({ status: true as const, data: await preferences.read(currentUser(request).id) }),
  );
  app.put(
    '/users/notification-preferences',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Guarda tus avisos (solo los tuyos)',
        body: ZNotificationPreferences,
        response: { 200: ZAnswer.extend({ message: z.string() }), ...errors },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      await preferences.write(userId, request.body);
      return {
        status: true as const,
        message: NOTIFICATION_PREFERENCES_MSG.saved,
        data: await preferences.read(userId),
      };
    },
  );
};
