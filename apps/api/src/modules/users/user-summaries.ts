import { RECORD_STATUS } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** Active users with their role and area, the base of the assign modal and of the workload. */
export const activeUsers = (db: Kysely<DB>) =>
  db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .leftJoin('areas as a', 'a.id', 'u.area_id')
    .where('u.status_id', '=', RECORD_STATUS.active);

export type ActiveUsersQuery = ReturnType<typeof activeUsers>;

/** Who each user is, ordered by name, as the lists of people show them. */
export const selectUserSummary = (query: ActiveUsersQuery) =>
  query
    .select([
      'u.id',
      'u.name',
      'u.last_name',
      'u.second_last_name',
      'u.username',
      'r.name as role_name',
      'a.name as area_name',
    ])
    .orderBy('u.name')
    .orderBy('u.last_name')
    .orderBy('u.id');

type SummaryRow = Awaited<ReturnType<ReturnType<typeof selectUserSummary>['executeTakeFirstOrThrow']>>;

export const toUserSummary = (r: SummaryRow) => ({
  id: r.id,
  name: r.name,
  last_name: r.last_name,
  second_last_name: r.second_last_name,
  username: r.username,
  role: { name: r.role_name },
  area: r.area_name === null ? null : { name: r.area_name },
});
