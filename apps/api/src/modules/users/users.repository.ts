import { RECORD_STATUS, type TSessionUser } from '@portal/contract';
import type { Database } from '../../db/database.ts';

export function createUsersRepository({ db }: Database) {
  const withRole = () =>
    db
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select([
        'users.id',
        'users.name',
        'users.last_name',
        'users.second_last_name',
        'users.username',
        'users.email',
        'users.role_id',
        'users.area_id',
        'users.status_id',
        'users.password_hash',
        'users.sessions_valid_after',
        'roles.name as role_name',
        'roles.is_supervisor',
        'roles.status_id as role_status_id',
      ]);

  type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof withRole>['executeTakeFirst']>>>;

  return {
    /** Usernames are unique without regard to case (migration 0004), so `Admin` signs in as `admin`. */
    findByUsername: (username: string) =>
      withRole()
        .where((eb) => eb(eb.fn('lower', ['users.username']), '=', username.trim().toLowerCase()))
        .executeTakeFirst(),
    findById: (id: number) => withRole().where('users.id', '=', id).executeTakeFirst(),
    /** The active users (of an active role) with this address, without regard to case (mail in: who wrote). */
    findActiveByEmail: (email: string) =>
      withRole()
        .where((eb) => eb(eb.fn('lower', ['users.email']), '=', email.trim().toLowerCase()))
        .where('users.status_id', '=', RECORD_STATUS.active)
        .where('roles.status_id', '=', RECORD_STATUS.active)
        .limit(2)
        .execute(),
    toSessionUser(row: Row): TSessionUser {
      return {
        id: row.id,
        name: row.name,
        last_name: row.last_name,
        second_last_name: row.second_last_name,
        username: row.username,
        email: row.email,
        role_id: row.role_id,
        role: { id: row.role_id, name: row.role_name, is_supervisor: row.is_supervisor },
        area_id: row.area_id,
      };
    },
    async endSessions(userId: number): Promise<void> {
      await db.updateTable('users').set({ sessions_valid_after: Date.now() }).where('id', '=', userId).execute();
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
export type AuthUserRow = NonNullable<Awaited<ReturnType<UsersRepository['findById']>>>;
