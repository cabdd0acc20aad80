import { RECORD_STATUS, recordStatusName, type TActivity } from '@portal/contract';
import { sql, type Kysely } from 'kysely';
import { likePattern, nowIso, type Database } from '../../db/database.ts';
import { countRows, flatPage, paginate, type Paging } from '../../db/paging.ts';
import type { DB } from '../../db/schema.ts';

export function createActivitiesRepository(database: Database) {
  const { db } = database;

  const withAuthor = () =>
    db
      .selectFrom('activities as ac')
      .innerJoin('users as u', 'u.id', 'ac.user_id')
      .select([
        'ac.id',
        'ac.name',
        'ac.created_at',
        'ac.status_id',
        'ac.user_id',
        'ac.ticket_id',
        'ac.merged_from_ticket_id',
        sql<string>`u.name || ' ' || u.last_name`.as('user_name'),
      ]);

  type Row = Awaited<ReturnType<ReturnType<typeof withAuthor>['executeTakeFirstOrThrow']>>;

  const toActivity = (r: Row): TActivity => ({
    id: r.id,
    name: r.name,
    created_at: r.created_at,
    status_id: r.status_id,
    user_id: r.user_id,
    ticket_id: r.ticket_id,
    merged_from_ticket_id: r.merged_from_ticket_id,
    user: { id: r.user_id, name: r.user_name },
    status: { id: r.status_id, name: recordStatusName(r.status_id) },
  });

  return {
    /** The ticket's active activities (deleted ones have status 2), newest first. */
    async list(ticketId: number, { search, ...paging }: Paging & { search: string }) {
      const matches = sql<boolean>`ac.name ${sql.raw(database.like)} ${likePattern(search)} escape '\\'`;
      const count = await countRows(
        db
          .selectFrom('activities as ac')
          .where('ac.ticket_id', '=', ticketId)
          .where('ac.status_id', '=', RECORD_STATUS.active)
          .$if(search !== '', (q) => q.where(matches)),
      );
      const rows =
        count === 0
          ? []
          : await withAuthor()
              .where('ac.ticket_id', '=', ticketId)
              .where('ac.status_id', '=', RECORD_STATUS.active)
              .$if(search !== '', (q) => q.where(matches))
              .orderBy('ac.id', 'desc')
              .$call(paginate(paging))
              .execute();
      return flatPage(rows.map(toActivity), count, paging);
    },

    async findById(id: number): Promise<TActivity | undefined> {
      const row = await withAuthor().where('ac.id', '=', id).executeTakeFirst();
      return row ? toActivity(row) : undefined;
    },

    async insert(values: { name: string; ticket_id: number; user_id: number }, trx: Kysely<DB> = db): Promise<number> {
      const now = nowIso();
      const row = await trx
        .insertInto('activities')
        .values({ ...values, status_id: RECORD_STATUS.active, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async setStatus(id: number, statusId: number, trx: Kysely<DB> = db): Promise<void> {
      await trx
        .updateTable('activities')
        .set({ status_id: statusId, updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
    },
  };
}
export type ActivitiesRepository = ReturnType<typeof createActivitiesRepository>;
