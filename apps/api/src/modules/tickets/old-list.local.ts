import {
  TICKET_COUNT_CAP,
  type TicketSortColumn,
  type TicketStage,
  type TTicketFilters,
  type TTicketSort,
} from '@portal/contract';
import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  type Selectable,
  type SqlBool,
} from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB, TicketsTable } from '../../db/schema.ts';
import { ATTR } from '../../db/ticket-derivations.ts';
import { fts5Body, tsqueryWords, type TicketSearch } from './ticket-search.ts';

/**
 * The ticket lists with filters and sorts (issue 12), beside the plain lists of
 * tickets.repository.ts. The design keeps the scale rules of those lists:
 *
 * - in id order (ID and 'Creado', since ids grow with creation time) on SQLite, every
 *   filter is a token of the FTS5 `attrs` column, so the index alone answers the page
 *   and the capped count, search or not; a date range becomes an id range (`rowid between`);
 * - on PostgreSQL, and for the other sorts on SQLite, the filters are conditions on the
 *   row and the page walks a `(column, id)` index in the sort order;
 * - totals are exact (maintained counters) when only the list's scope and stage apply,
 *   otherwise counted up to TICKET_COUNT_CAP.
 */

type Row = ExpressionBuilder<DB & { t: TicketsTable }, 't'>;

export type ListScope = { kind: 'all' } | { kind: 'mine'; userId: number };

export interface ListSpec {
  scope: ListScope;
  /** The stages the list shows (its history tab), or null for all. */
  stages: TicketStage[] | null;
  search: TicketSearch;
  filters: TTicketFilters;
  sort: TTicketSort;
}

export interface IdSlice {
  ids: number[];
  total: number;
  isLowerBound: boolean;
}

/** The catalogue filters: key of the filters, token prefix of the FTS5 index, column of the row. */
const idFilters = [
  ['status_id', ATTR.status, 'status_id'],
  ['priority_type_id', ATTR.priority, 'priority_type_id'],
  ['project_id', ATTR.project, 'project_id'],
  ['area_id', ATTR.area, 'area_id'],
  ['category_id', ATTR.category, 'category_id'],
  ['difficulty_id', ATTR.difficulty, 'difficulty_id'],
  ['created_by', ATTR.createdBy, 'created_by'],
] as const;

type SortableColumn = 'id' | 'name' | 'priority_type_id' | 'status_id' | 'project_id' | 'updated_at';

const sortColumns: Record<TicketSortColumn, SortableColumn> = {
  id: 'id',
  created: 'id',
  name: 'name',
  priority: 'priority_type_id',
  status: 'status_id',
  project: 'project_id',
  updated: 'updated_at',
};

/** Whether any filter beyond the list's own scope and stage is set. */
export const hasFilters = (filters: TTicketFilters) =>
  Object.values(filters).some((v) => v !== undefined && (!Array.isArray(v) || v.length > 0));

export const isIdOrder = (sort: TTicketSort) => sortColumns[sort.by] === 'id';

/** The list's stages narrowed by the stage filter; an empty array shows nothing. */
function effectiveStages(spec: ListSpec): TicketStage[] | null {
  const wanted = spec.filters.stage?.length ? spec.filters.stage : null;
  if (!spec.stages) return wanted;
  return wanted ? spec.stages.filter((s) => wanted.includes(s)) : spec.stages;
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

interface IdRange {
  min: number | null;
  max: number | null;
}

export function createTicketListQueries(database: Database) {
  const { db } = database;
  const fromTickets = (q: Kysely<DB> = db) => q.selectFrom('tickets as t');

  /**
   * The created-date range as an id range: ids grow with creation time, so the first
   * ticket created on or after `from` and the last created before the day after `to`
   * bound it (two seeks on the `created_at` index). Null when no ticket can match.
   */
  async function idRangeOf(filters: TTicketFilters): Promise<IdRange | null> {
    const range: IdRange = { min: null, max: null };
    if (filters.created_from) {
      const row = await fromTickets()
        .select('t.id')
        .where('t.created_at', '>=', `${filters.created_from}T00:00:00.000Z`)
        .orderBy('t.created_at', 'asc')
        .limit(1)
        .executeTakeFirst();
      if (!row) return null;
      range.min = row.id;
    }
    if (filters.created_to) {
      const row = await fromTickets()
        .select('t.id')
        .where('t.created_at', '<', nextDay(filters.created_to))
        .orderBy('t.created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!row) return null;
      range.max = row.id;
    }
    return range.min !== null && range.max !== null && range.min > range.max ? null : range;
  }

  /** The FTS5 query of the search, scope, stages and filters; null when none applies (nothing to match on). */
  function ftsMatch(spec: ListSpec, stages: TicketStage[] | null): string | null {
    const parts: string[] = [];
    const any = (tokens: string[]) => `{attrs} : (${tokens.join(' OR ')})`;
    const { search, scope, filters } = spec;
    if (search.kind === 'words') {
      parts.push(fts5Body(search));
    } else if (search.kind === 'id') {
      parts.push(`{attrs} : ${ATTR.id}${search.id}`);
    }
    if (scope.kind === 'mine') parts.push(any([`${ATTR.createdBy}${scope.userId}`, `${ATTR.assignee}${scope.userId}`]));
    if (stages) parts.push(any(stages.map((s) => `${ATTR.stage}${s}`)));
    for (const [key, prefix] of idFilters) {
      const values = filters[key];
      if (values?.length) parts.push(any(values.map((v) => `${prefix}${v}`)));
    }
    const assignees = filters.user_assigned_id;
    if (assignees?.length) parts.push(any(assignees.map((v) => `${ATTR.assignee}${v ?? 0}`)));
    return parts.length === 0 ? null : parts.join(' AND ');
  }

  /** The search, scope, stages, filters and id range as conditions on the row `t`. */
  const rowConditions =
    (spec: ListSpec, stages: TicketStage[] | null, range: IdRange) =>
    (eb: Row): Expression<SqlBool> => {
      const c: Expression<SqlBool>[] = [];
      const { scope, filters, search } = spec;
      if (scope.kind === 'mine') {
        c.push(eb.or([eb('t.created_by', '=', scope.userId), eb('t.user_assigned_id', '=', scope.userId)]));
      }
      if (stages) {
        // `<> 'closed'` is the predicate of the partial index tickets_current_idx.
        const isCurrent = stages.length === 2 && !stages.includes('closed');
        c.push(isCurrent ? eb('t.stage', '<>', 'closed') : eb('t.stage', 'in', stages));
      }
      for (const [key, , column] of idFilters) {
        const values = filters[key];
        if (values?.length) c.push(eb(`t.${column}`, 'in', values));
      }
      const assignees = filters.user_assigned_id;
      if (assignees?.length) {
        const ids = assignees.filter((v): v is number => v !== null);
        const either: Expression<SqlBool>[] = [];
        if (ids.length) either.push(eb('t.user_assigned_id', 'in', ids));
        if (ids.length < assignees.length) either.push(eb('t.user_assigned_id', 'is', null));
        c.push(eb.or(either));
      }
      if (range.min !== null) c.push(eb('t.id', '>=', range.min));
      if (range.max !== null) c.push(eb('t.id', '<=', range.max));
      if (search.kind === 'id') c.push(eb('t.id', '=', search.id));
      if (search.kind === 'words') {
        const text =
          database.dialect === 'postgres'
            ? sql<SqlBool>`t.search_doc @@ to_tsquery('simple', ${tsqueryWords(search.words)})`
            : sql<SqlBool>`t.id in (select rowid from tickets_fts where tickets_fts match ${fts5Body({ ...search, id: null })})`;
        c.push(search.id === null ? text : eb.or([text, eb('t.id', '=', search.id)]));
      }
      return eb.and(c);
    };

  const rowQuery = (spec: ListSpec, stages: TicketStage[] | null, range: IdRange) =>
    fromTickets().where(rowConditions(spec, stages, range));

  /** Where a keyset page resumes: after this sort value and id. */
  type Cursor = { value: string | number; id: number };

  /** One page of ids of the row query, in the sort order, from an offset or after a cursor. */
  async function rowIds(
    spec: ListSpec,
    stages: TicketStage[] | null,
    range: IdRange,
    limit: number,
    at: { offset: number } | { after: Cursor | null },
  ): Promise<{ id: number; value: string | number }[]> {
    const column = sortColumns[spec.sort.by];
    const { dir } = spec.sort;
    let q = rowQuery(spec, stages, range).select(['t.id', sql<string | number>`t.${sql.ref(column)}`.as('value')]);
    if ('after' in at && at.after) {
      const { value, id } = at.after;
      const op = sql.raw(dir === 'desc' ? '<' : '>');
      q =
        column === 'id'
          ? q.where('t.id', dir === 'desc' ? '<' : '>', id)
          : q.where(sql<SqlBool>`(t.${sql.ref(column)}, t.id) ${op} (${value}, ${id})`);
    }
    q = column === 'id' ? q.orderBy('t.id', dir) : q.orderBy(`t.${column}`, dir).orderBy('t.id', dir);
    q = q.limit(limit);
    if ('offset' in at && at.offset > 0) q = q.offset(at.offset);
    return q.execute();
  }

  /** Counts the row query up to the cap. */
  async function rowCount(spec: ListSpec, stages: TicketStage[] | null, range: IdRange) {
    const { n } = await db
      .selectFrom(
        rowQuery(spec, stages, range)
          .select(sql.lit(1).as('one'))
          .limit(TICKET_COUNT_CAP + 1)
          .as('capped'),
      )
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  const rowidRange = (range: IdRange) =>
    sql.join(
      [
        range.min === null ? sql`1 = 1` : sql`rowid >= ${range.min}`,
        range.max === null ? sql`1 = 1` : sql`rowid <= ${range.max}`,
      ],
      sql` and `,
    );

  /** SQLite: one page of ids straight from the FTS5 index, in id order. */
  async function ftsIds(
    match: string,
    range: IdRange,
    dir: 'asc' | 'desc',
    limit: number,
    at: { offset: number } | { afterId: number | null },
  ): Promise<number[]> {
    const after =
      'afterId' in at && at.afterId !== null
        ? sql` and rowid ${sql.raw(dir === 'desc' ? '<' : '>')} ${at.afterId}`
        : sql``;
    const offset = 'offset' in at ? at.offset : 0;
    const { rows } = await sql<{ id: number }>`
      select rowid as id from tickets_fts where tickets_fts match ${match} and ${rowidRange(range)}${after}
      order by rowid ${sql.raw(dir)} limit ${sql.lit(limit)} offset ${sql.lit(offset)}`.execute(db);
    return rows.map((r) => r.id);
  }

  async function ftsCount(match: string, range: IdRange): Promise<number> {
    const {
      rows: [row],
    } = await sql<{ n: number }>`
      select count(*) as n from (select rowid from tickets_fts where tickets_fts match ${match} and ${rowidRange(range)}
      limit ${sql.lit(TICKET_COUNT_CAP + 1)})`.execute(db);
    return Number(row?.n ?? 0);
  }

  const capped = (n: number) => ({ total: Math.min(n, TICKET_COUNT_CAP), isLowerBound: n > TICKET_COUNT_CAP });

  /** How the spec is read: through the FTS5 index (SQLite, id order) or the rows. */
  function planOf(spec: ListSpec, stages: TicketStage[] | null) {
    const match = database.dialect === 'sqlite' && isIdOrder(spec.sort) ? ftsMatch(spec, stages) : null;
    return { match };
  }

  return {
    /**
     * One page of a filtered or sorted list. `exactTotal` gives the exact size from
     * the counters; it is used when no filter and no search apply.
     */
    async slice(spec: ListSpec, limit: number, offset: number, exactTotal: () => Promise<number>): Promise<IdSlice> {
      const stages = effectiveStages(spec);
      const range = stages && stages.length === 0 ? null : await idRangeOf(spec.filters);
      if (!range) return { ids: [], total: 0, isLowerBound: false };
      const isCounted = spec.search.kind === 'none' && !hasFilters(spec.filters);
      const { match } = planOf(spec, stages);
      if (match) {
        const [ids, total] = await Promise.all([
          ftsIds(match, range, spec.sort.dir, limit, { offset }),
          isCounted
            ? exactTotal().then((n) => ({ total: n, isLowerBound: false }))
            : ftsCount(match, range).then(capped),
        ]);
        return { ids, ...total };
      }
      const rows = await rowIds(spec, stages, range, limit, { offset });
      const total = isCounted
        ? { total: await exactTotal(), isLowerBound: false }
        : capped(
            // The FTS5 index counts a SQLite search with its filters without reading rows.
            database.dialect === 'sqlite' && (spec.search.kind !== 'none' || hasFilters(spec.filters))
              ? await ftsCountOrRows(spec, stages, range)
              : await rowCount(spec, stages, range),
          );
      return { ids: rows.map((r) => r.id), ...total };
    },

    /**
     * Every ticket row of the list in its order, in batches of `size` read by keyset (never
     * an offset, never the whole result at once): what the CSV export streams. Each batch is
     * one statement that reads the rows themselves, not a list of ids bound as parameters.
     */
    async *batches(spec: ListSpec, size: number): AsyncGenerator<Selectable<TicketsTable>[]> {
      const stages = effectiveStages(spec);
      const range = stages && stages.length === 0 ? null : await idRangeOf(spec.filters);
      if (!range) return;
      const { match } = planOf(spec, stages);
      const { dir } = spec.sort;
      if (match) {
        let afterId: number | null = null;
        for (;;) {
          const after: RawBuilder<unknown> =
            afterId === null ? sql`` : sql` and rowid ${sql.raw(dir === 'desc' ? '<' : '>')} ${afterId}`;
          const rows: Selectable<TicketsTable>[] = await fromTickets()
            .selectAll('t')
            .where(
              sql<SqlBool>`t.id in (select rowid from tickets_fts where tickets_fts match ${match} and ${rowidRange(range)}${after}
                order by rowid ${sql.raw(dir)} limit ${sql.lit(size)})`,
            )
            .orderBy('t.id', dir)
            .execute();
          if (rows.length > 0) yield rows;
          if (rows.length < size) return;
          afterId = rows[rows.length - 1]!.id;
        }
      }
      const column = sortColumns[spec.sort.by];
      let after: Cursor | null = null;
      for (;;) {
        let q = rowQuery(spec, stages, range).selectAll('t');
        if (after) {
          const { value, id } = after;
          const op = sql.raw(dir === 'desc' ? '<' : '>');
          q =
            column === 'id'
              ? q.where('t.id', dir === 'desc' ? '<' : '>', id)
              : q.where(sql<SqlBool>`(t.${sql.ref(column)}, t.id) ${op} (${value}, ${id})`);
        }
        q = column === 'id' ? q.orderBy('t.id', dir) : q.orderBy(`t.${column}`, dir).orderBy('t.id', dir);
        const rows = await q.limit(size).execute();
        if (rows.length > 0) yield rows;
        if (rows.length < size) return;
        const last = rows[rows.length - 1]!;
        after = { value: last[column] as string | number, id: last.id };
      }
    },
  };

  /** SQLite, sorted by another column: count through the index when there is something to match on. */
  async function ftsCountOrRows(spec: ListSpec, stages: TicketStage[] | null, range: IdRange) {
    const match = ftsMatch(spec, stages);
    return match ? ftsCount(match, range) : rowCount(spec, stages, range);
  }
}
export type TicketListQueries = ReturnType<typeof createTicketListQueries>;
