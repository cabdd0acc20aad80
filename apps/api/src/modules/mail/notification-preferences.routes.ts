import { NOTIFICATION_PREFERENCES_MSG, ZErrorResponse, ZNotificationPreferences } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/access.ts';
import type { Services } from '../../services.ts';
import { createNotificationPreferences } from './notification-preferences.repository.ts';

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
