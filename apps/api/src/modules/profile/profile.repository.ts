import { sql } from 'kysely';
import { nowIso, type Database } from '../../db/database.ts';

export function createProfileRepository({ db }: Database) {
  return {
    /** The profile's laboral information: role (user type), area, supervisor and branch. */
    laboralInformation(userId: number) {
      return db
        .selectFrom('users as u')
        .innerJoin('roles as r', 'r.id', 'u.role_id')
        .leftJoin('areas as a', 'a.id', 'u.area_id')
        .leftJoin('users as s', 's.id', 'u.supervisor_id')
        .select([
          'r.id as role_id',
          'r.name as role_name',
          'a.id as area_id',
          'a.name as area_name',
          's.id as supervisor_id',
          sql<string | null>`s.name || ' ' || s.last_name`.as('supervisor_name'),
          'u.branch',
        ])
        .where('u.id', '=', userId)
        .executeTakeFirst();
    },

    findAvatar(userId: number) {
      return db.selectFrom('users').select(['id', 'avatar_path']).where('id', '=', userId).executeTakeFirst();
    },

    async setAvatar(userId: number, avatarPath: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ avatar_path: avatarPath, updated_at: nowIso() })
        .where('id', '=', userId)
        .execute();
    },

    /**
     * Replaces the password hash and ends every session issued until now, in one
     * statement, so no old token outlives the old password.
     */
    async setPassword(userId: number, passwordHash: string, sessionsValidAfter: number): Promise<void> {
      await db
        .updateTable('users')
        .set({ password_hash: passwordHash, sessions_valid_after: sessionsValidAfter, updated_at: nowIso() })
        .where('id', '=', userId)
        .execute();
    },
  };
}
export type ProfileRepository = ReturnType<typeof createProfileRepository>;
