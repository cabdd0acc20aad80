import { RECORD_STATUS } from '@portal/contract';
import type { Database } from '../../db/database.ts';

export function createPasswordResetRepository({ db }: Database) {
  return {
    /** The active account an e-mail belongs to (compared without regard to case). */
    findActiveUserByEmail: (email: string) =>
      db
        .selectFrom('users')
        .innerJoin('roles', 'roles.id', 'users.role_id')
        .select(['users.id', 'users.name', 'users.username', 'users.email'])
        .where((eb) => eb(eb.fn('lower', ['users.email']), '=', email.trim().toLowerCase()))
        .where('users.status_id', '=', RECORD_STATUS.active)
        .where('roles.status_id', '=', RECORD_STATUS.active)
        .orderBy('users.id')
        .limit(1)
        .executeTakeFirst(),

    /** A new code replaces every earlier one of the user. */
    async replaceCode(userId: number, codeHash: string, expiresAt: string, createdAt: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('password_reset_codes').where('user_id', '=', userId).execute();
        await trx
          .insertInto('password_reset_codes')
          .values({ user_id: userId, code_hash: codeHash, expires_at: expiresAt, created_at: createdAt })
          .execute();
      });
    },

    latestCode: (userId: number) =>
      db
        .selectFrom('password_reset_codes')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),

    /**
     * Counts one try before the code is compared, atomically, so parallel guesses
     * cannot exceed the limit. Undefined when the code is dead or already traded.
     */
    async countAttempt(codeId: number, maxAttempts: number): Promise<number | undefined> {
      const row = await db
        .updateTable('password_reset_codes')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', codeId)
        .where('attempts', '<', maxAttempts)
        .where('reset_token_hash', 'is', null)
        .where('used_at', 'is', null)
        .returning('attempts')
        .executeTakeFirst();
      return row?.attempts;
    },

    /** Trades a verified code for a reset token; false if another request traded it first. */
    async storeResetToken(codeId: number, tokenHash: string, expiresAt: string): Promise<boolean> {
      const result = await db
        .updateTable('password_reset_codes')
        .set({ reset_token_hash: tokenHash, reset_expires_at: expiresAt })
        .where('id', '=', codeId)
        .where('reset_token_hash', 'is', null)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    findByResetToken: (userId: number, tokenHash: string) =>
      db
        .selectFrom('password_reset_codes')
        .selectAll()
        .where('user_id', '=', userId)
        .where('reset_token_hash', '=', tokenHash)
        .executeTakeFirst(),

    /**
     * Spends the reset token, sets the new password and ends every session of the
     * user, in one transaction. False (and nothing written) if the token was spent already.
     */
    async completeReset(args: {
      codeId: number;
      userId: number;
      passwordHash: string;
      sessionsValidAfter: number;
      at: string;
    }): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const spent = await trx
          .updateTable('password_reset_codes')
          .set({ used_at: args.at })
          .where('id', '=', args.codeId)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (Number(spent.numUpdatedRows) !== 1) return false;
        await trx
          .updateTable('users')
          .set({ password_hash: args.passwordHash, sessions_valid_after: args.sessionsValidAfter, updated_at: args.at })
          .where('id', '=', args.userId)
          .execute();
        await trx
          .deleteFrom('password_reset_codes')
          .where('user_id', '=', args.userId)
          .where('id', '!=', args.codeId)
          .execute();
        return true;
      });
    },
  };
}
export type PasswordResetRepository = ReturnType<typeof createPasswordResetRepository>;
