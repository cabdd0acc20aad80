import { RECORD_STATUS, type TicketStage, type TUserTicket, type TWorkloadItem } from '@portal/contract';
import { sql } from 'kysely';
import { likePattern, type Database } from '../../db/database.ts';
import { countRows, flatPage, pageMeta, paginate, type Paging } from '../../db/paging.ts';
import { COUNT_KIND } from '../../db/ticket-derivations.ts';
import { isAbsentAt } from '../groups/auto-assign.ts';
import { activeUsers, selectUserSummary, toUserSummary } from '../users/user-summaries.ts';

export function createWorkloadRepository(database: Database) {
  const { db } = database;

  const activeUsersMatching = (search: string, groupId?: number) => {
    const like = sql.raw(database.like);
    const pattern = likePattern(search);
    return activeUsers(db)
      .$if(search !== '', (q) =>
        q.where(
          sql<boolean>`(u.name ${like} ${pattern} escape '\\' or u.last_name ${like} ${pattern} escape '\\' or (u.name || ' ' || u.last_name) ${like} ${pattern} escape '\\')`,
        ),
      )
      .$if(groupId !== undefined, (q) =>
        q.where('u.id', 'in', db.selectFrom('group_members').select('user_id').where('group_id', '=', groupId!)),
      );
  };

  return {
    /**
     * Active users by name (or the members of one group) with the counts of the tickets assigned
     * to them, by stage, from the counters, and whether they are Ausente at `at`.
     */
    async countPerUser({ search, group_id, ...paging }: Paging & { search: string; group_id?: number }, at: number) {
      const count = await countRows(activeUsersMatching(search, group_id));
      const users = await selectUserSummary(activeUsersMatching(search, group_id))
        .select(['u.email', 'u.absent_from', 'u.absent_until'])
        .$call(paginate(paging))
        .execute();
      const ids = users.map((u) => u.id);
      const counts =
        ids.length === 0
          ? []
          : await db
              .selectFrom('ticket_counts')
              .where('kind', '=', COUNT_KIND.assigned)
              .where('user_id', 'in', ids)
              .groupBy('user_id')
              .select((eb) => [
                'user_id',
                eb.fn.sum<number | string>('n').as('ticket_count'),
                sql<number | string>`sum(case when stage = 'started' then n else 0 end)`.as('started_count'),
                sql<number | string>`sum(case when stage = 'closed' then n else 0 end)`.as('completed_count'),
                sql<number | string>`sum(case when stage <> 'closed' then n else 0 end)`.as('open_count'),
              ])
              .execute();
      const byUser = new Map(counts.map((c) => [c.user_id, c]));
      const data: TWorkloadItem[] = users.map((u) => {
        const c = byUser.get(u.id);
        return {
          ...toUserSummary(u),
          user_name: [u.name, u.last_name, u.second_last_name].filter(Boolean).join(' '),
          email: u.email,
          ticket_count: Number(c?.ticket_count ?? 0),
          started_count: Number(c?.started_count ?? 0),
          completed_count: Number(c?.completed_count ?? 0),
          open_count: Number(c?.open_count ?? 0),
          absent: isAbsentAt(u, at),
        };
      });
      return flatPage(data, count, paging);
    },

    userExists: async (userId: number) =>
      (await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined,

    /** The tickets assigned to a user, newest first, with their number of active activities. */
    async ticketsOf(userId: number, paging: Paging) {
      const { count } = await db
        .selectFrom('ticket_counts')
        .where('kind', '=', COUNT_KIND.assigned)
        .where('user_id', '=', userId)
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('n'), eb.lit(0)).as('count'))
        .executeTakeFirstOrThrow();
      const rows = await db
        .selectFrom('tickets as t')
        .innerJoin('priority_types as p', 'p.id', 't.priority_type_id')
        .innerJoin('difficulties as d', 'd.id', 't.difficulty_id')
        .innerJoin('ticket_statuses as s', 's.id', 't.status_id')
        .where('t.user_assigned_id', '=', userId)
        .select((eb) => [
          't.id',
          't.name',
          't.description',
          't.created_at',
          'p.name as priority',
          'd.name as difficulty',
          's.name as status',
          's.stage',
          eb
            .selectFrom('activities as ac')
            .whereRef('ac.ticket_id', '=', 't.id')
            .where('ac.status_id', '=', RECORD_STATUS.active)
            .select((e) => e.fn.countAll<number | string>().as('n'))
            .as('activity_count'),
        ])
        .orderBy('t.id', 'desc')
        .$call(paginate(paging))
        .execute();
      const activities: TUserTicket[] = rows.map((r) => ({
        id: r.id,
        name: r.name,
        description: r.description,
        created_at: r.created_at,
        priority: r.priority,
        difficulty: r.difficulty,
        status: r.status,
        stage: r.stage as TicketStage,
        activity_count: Number(r.activity_count ?? 0),
      }));
      return { activities, meta: pageMeta(Number(count), paging) };
    },
  };
}
export type WorkloadRepository = ReturnType<typeof createWorkloadRepository>;
