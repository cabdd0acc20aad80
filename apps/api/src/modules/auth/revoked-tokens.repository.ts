import type { Database } from '../../db/database.ts';

export function createRevokedTokensRepository({ db }: Database) {
  return {
    async revoke(jti: string, userId: number, expiresAt: number): Promise<void> {
      await db
        .insertInto('revoked_tokens')
        .values({ jti, user_id: userId, expires_at: expiresAt })
        .onConflict((oc) => oc.column('jti').doNothing())
        .execute();
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
