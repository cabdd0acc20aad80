import { RECORD_STATUS, type TicketStage, type TTicket, type TTicketListQuery } from '@portal/contract';
import { sql, type Kysely } from 'kysely';
import { likePattern, nowIso, type Database } from '../../db/database.ts';
import { countRows, pageMeta, paginate } from '../../db/paging.ts';
import type { DB, TicketsTable } from '../../db/schema.ts';
import { activeUsers, selectUserSummary, toUserSummary } from '../users/user-summaries.ts';

/** Which tickets a list shows: all, or those the user created or is assigned to (DESIGN.md). */
export type TicketScope = { kind: 'all' } | { kind: 'mine'; userId: number };

export interface TicketFilter {
  scope: TicketScope;
  search: string;
  /** `current` = not in a closed stage, `old` = closed (ticket history). */
  history?: 'current' | 'old';
}

/** What the ticket form writes. */
export type TicketValues = Pick<
  TicketsTable,
  'name' | 'description' | 'area_id' | 'project_id' | 'category_id' | 'priority_type_id' | 'difficulty_id' | 'status_id'
>;

const fromTickets = (db: Kysely<DB>) => db.selectFrom('tickets as t');
type TicketsQuery = ReturnType<typeof fromTickets>;

type TicketColumn = 'priority_type_id' | 'project_id' | 'area_id' | 'category_id' | 'difficulty_id';

export function createTicketsRepository(database: Database) {
  const { db } = database;

  /** The filters run on the tickets table alone, so counting never joins. */
  const filtered = (filter: TicketFilter, trx: Kysely<DB> = db): TicketsQuery => {
    let q = fromTickets(trx);
    const { scope, search, history } = filter;
    if (scope.kind === 'mine') {
      q = q.where((eb) => eb.or([eb('t.created_by', '=', scope.userId), eb('t.user_assigned_id', '=', scope.userId)]));
    }
    if (history) {
      const closed = trx.selectFrom('ticket_statuses').select('id').where('stage', '=', 'closed');
      q = q.where('t.status_id', history === 'old' ? 'in' : 'not in', closed);
    }
    if (search) {
      const pattern = likePattern(search);
      const like = sql.raw(database.like);
      // Across all tickets, PostgreSQL's trigram indexes find the matches. Within
      // one user's tickets, reading those few through the user indexes is faster,
      // and matching the concatenation keeps the planner from intersecting them
      // with a large trigram bitmap (5 ms instead of 26 ms at 100,000 tickets).
      q = q.where(
        scope.kind === 'mine'
          ? sql<boolean>`(t.name || ' ' || t.description) ${like} ${pattern} escape '\\'`
          : sql<boolean>`(t.name ${like} ${pattern} escape '\\' or t.description ${like} ${pattern} escape '\\')`,
      );
    }
    return q;
  };

  /**
   * The names shown beside each ticket, read by scalar subqueries: PostgreSQL
   * plans them one by one, where a nine-table join cost more to plan (about
   * 15 ms) than the page costs to read.
   */
  const withDetails = (q: TicketsQuery) =>
    q.select((eb) => {
      const nameOf = (
        table: 'priority_types' | 'projects' | 'areas' | 'categories' | 'difficulties',
        column: TicketColumn,
      ) => eb.selectFrom(`${table} as x`).select('x.name').whereRef('x.id', '=', `t.${column}`);
      const status = () => eb.selectFrom('ticket_statuses as x').whereRef('x.id', '=', 't.status_id');
      const userName = (column: 't.created_by' | 't.user_assigned_id') =>
        eb
          .selectFrom('users as x')
          .select(sql<string>`x.name || ' ' || x.last_name`.as('full_name'))
          .whereRef('x.id', '=', column);
      return [
        't.id',
        't.name',
        't.description',
        't.area_id',
        't.project_id',
        't.category_id',
        't.priority_type_id',
        't.difficulty_id',
        't.status_id',
        't.created_by',
        't.user_assigned_id',
        't.created_at',
        't.updated_at',
        nameOf('priority_types', 'priority_type_id').$asScalar().$notNull().as('priority_name'),
        status().select('x.name').$asScalar().$notNull().as('status_name'),
        status().select('x.stage').$asScalar().$notNull().as('stage'),
        nameOf('projects', 'project_id').$asScalar().$notNull().as('project_name'),
        nameOf('areas', 'area_id').$asScalar().$notNull().as('area_name'),
        nameOf('categories', 'category_id').$asScalar().$notNull().as('category_name'),
        nameOf('difficulties', 'difficulty_id').$asScalar().$notNull().as('difficulty_name'),
        userName('t.created_by').$asScalar().$notNull().as('creator_name'),
        userName('t.user_assigned_id').as('assignee_name'),
      ];
    });

  type DetailRow = Awaited<ReturnType<ReturnType<typeof withDetails>['executeTakeFirstOrThrow']>>;

  const toTicket = (r: DetailRow): TTicket => ({
    id: r.id,
    name: r.name,
    description: r.description,
    area_id: r.area_id,
    project_id: r.project_id,
    category_id: r.category_id,
    priority_type_id: r.priority_type_id,
    difficulty_id: r.difficulty_id,
    status_id: r.status_id,
    created_by: r.created_by,
    user_assigned_id: r.user_assigned_id,
    created_at: r.created_at,
    updated_at: r.updated_at,
    priorities: { name: r.priority_name },
    status_tickets: { name: r.status_name, stage: r.stage as TicketStage },
    projects: { name: r.project_name },
    areas: { name: r.area_name },
    categories: { name: r.category_name },
    difficulties: { name: r.difficulty_name },
    users: { id: r.created_by, name: r.creator_name },
    assigned_to: r.user_assigned_id === null ? null : { id: r.user_assigned_id, name: r.assignee_name ?? '' },
  });

  return {
    /**
     * One page, newest first, paginated in the database, in two steps: the
     * page's ids and the total, then the details of those ids only.
     * - With a search, the matches are read once (a materialized CTE gives both
     *   the total and the page), so the costly text match is not done twice.
     * - Without one, the count reads only the indexes and the newest ids come
     *   straight from the primary key.
     */
    async list(filter: TicketFilter, { page, per_page }: Pick<TTicketListQuery, 'page' | 'per_page'>) {
      const offset = (page - 1) * per_page;
      const countAll = () => countRows(filtered(filter));
      let count: number;
      let ids: number[];
      if (filter.search !== '') {
        const slice = await db
          .with(
            (cte) => cte('matches').materialized(),
            () => filtered(filter).select('t.id'),
          )
          .selectFrom('matches as m')
          .select((eb) => [
            'm.id',
            eb
              .selectFrom('matches')
              .select((e) => e.fn.countAll<number | string>().as('n'))
              .as('full_count'),
          ])
          .orderBy('m.id', 'desc')
          .limit(per_page)
          .offset(offset)
          .execute();
        ids = slice.map((r) => r.id);
        // Past the last page the slice is empty and carries no total.
        count = slice.length > 0 ? Number(slice[0]!.full_count) : page === 1 ? 0 : await countAll();
      } else {
        count = await countAll();
        ids =
          offset >= count
            ? []
            : (
                await filtered(filter).select('t.id').orderBy('t.id', 'desc').limit(per_page).offset(offset).execute()
              ).map((r) => r.id);
      }
      const rows =
        ids.length === 0
          ? []
          : await withDetails(fromTickets(db)).where('t.id', 'in', ids).orderBy('t.id', 'desc').execute();
      return { data: rows.map(toTicket), meta: pageMeta(count, { page, per_page }) };
    },

    async findById(id: number, trx: Kysely<DB> = db): Promise<TTicket | undefined> {
      const row = await withDetails(fromTickets(trx)).where('t.id', '=', id).executeTakeFirst();
      return row ? toTicket(row) : undefined;
    },

    /** The bare row, read for an authorization decision. */
    findOwnership(id: number, trx: Kysely<DB> = db) {
      return trx
        .selectFrom('tickets')
        .select(['id', 'created_by', 'user_assigned_id', 'status_id'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async insert(values: TicketValues, createdBy: number): Promise<number> {
      const now = nowIso();
      const row = await db
        .insertInto('tickets')
        .values({ ...values, created_by: createdBy, user_assigned_id: null, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async update(id: number, values: TicketValues, trx: Kysely<DB> = db): Promise<void> {
      await trx
        .updateTable('tickets')
        .set({ ...values, updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Sets the assignee only if the ticket still has the assignee the caller saw,
     * so two concurrent assignments cannot both succeed.
     */
    async assign(id: number, userId: number, previous: number | null, trx: Kysely<DB>): Promise<boolean> {
      const result = await trx
        .updateTable('tickets')
        .set({ user_assigned_id: userId, updated_at: nowIso() })
        .where('id', '=', id)
        .where((eb) => (previous === null ? eb('user_assigned_id', 'is', null) : eb('user_assigned_id', '=', previous)))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The ids of the active rows of each catalogue a ticket refers to, among those given. */
    async missingReferences(values: TicketValues): Promise<(keyof TicketValues)[]> {
      const checks: [keyof TicketValues, keyof DB][] = [
        ['area_id', 'areas'],
        ['project_id', 'projects'],
        ['category_id', 'categories'],
        ['priority_type_id', 'priority_types'],
        ['difficulty_id', 'difficulties'],
        ['status_id', 'ticket_statuses'],
      ];
      const missing: (keyof TicketValues)[] = [];
      for (const [field, table] of checks) {
        const row = await (db as unknown as Kysely<Record<string, { id: number; status_id: number }>>)
          .selectFrom(table)
          .select('id')
          .where('id', '=', Number(values[field]))
          .where('status_id', '=', RECORD_STATUS.active)
          .executeTakeFirst();
        if (!row) missing.push(field);
      }
      return missing;
    },

    /** The caller's newest tickets, for the profile card. */
    async lastOf(userId: number, limit: number) {
      const rows = await withDetails(filtered({ scope: { kind: 'mine', userId }, search: '' }))
        .orderBy('t.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        description: r.description,
        created_at: r.created_at,
        priorities: { name: r.priority_name },
        difficulties: { name: r.difficulty_name },
        status_tickets: { name: r.status_name, stage: r.stage as TicketStage },
      }));
    },

    /** Active users a ticket can be assigned to, by name, paginated. */
    async assignableUsers({ search, ...paging }: TTicketListQuery) {
      let q = activeUsers(db).where('r.status_id', '=', RECORD_STATUS.active);
      if (search) {
        const pattern = likePattern(search);
        const like = sql.raw(database.like);
        q = q.where(
          sql<boolean>`(u.name ${like} ${pattern} escape '\\' or u.last_name ${like} ${pattern} escape '\\' or u.username ${like} ${pattern} escape '\\' or (u.name || ' ' || u.last_name) ${like} ${pattern} escape '\\')`,
        );
      }
      const count = await countRows(q);
      const rows = await selectUserSummary(q).$call(paginate(paging)).execute();
      return { data: rows.map(toUserSummary), meta: pageMeta(count, paging) };
    },

    findActiveUser(id: number, trx: Kysely<DB> = db) {
      return trx
        .selectFrom('users as u')
        .innerJoin('roles as r', 'r.id', 'u.role_id')
        .select(['u.id', 'u.status_id', 'r.status_id as role_status_id'])
        .where('u.id', '=', id)
        .where('u.status_id', '=', RECORD_STATUS.active)
        .where('r.status_id', '=', RECORD_STATUS.active)
        .executeTakeFirst();
    },
  };
}
export type TicketsRepository = ReturnType<typeof createTicketsRepository>;
