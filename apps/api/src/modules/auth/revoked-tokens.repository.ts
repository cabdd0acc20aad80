import type { Database } from '../../db/database.ts';
import type { NotificationBus } from '../notifications/notifications.bus.ts';

/**
 * Revoked access tokens (until they expire). A revocation is announced on the
 * bus at once in this process; on PostgreSQL a trigger announces it to the
 * others when it commits (migration 0006).
 */
export function createRevokedTokensRepository({ db }: Database, bus?: Pick<NotificationBus, 'invalidate'>) {
  return {
    async revoke(jti: string, userId: number, expiresAt: number): Promise<void> {
      await db
        .insertInto('revoked_tokens')
        .values({ jti, user_id: userId, expires_at: expiresAt })
        .onConflict((oc) => oc.column('jti').doNothing())
        .execute();
      bus?.invalidate({ kind: 'token', jti });
    },
    async isRevoked(jti: string): Promise<boolean> {
      const row = await db.selectFrom('revoked_tokens').select('jti').where('jti', '=', jti).executeTakeFirst();
      return row !== undefined;
    },
    /** Tokens past their expiry are refused anyway; their rows can go. */
    async purgeExpired(): Promise<void> {
      await db
        .deleteFrom('revoked_tokens')
        .where('expires_at', '<', Math.floor(Date.now() / 1000))
        .execute();
    },
  };
}
export type RevokedTokensRepository = ReturnType<typeof createRevokedTokensRepository>;
