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
import { ATTR, COUNT_KIND, ftsRows } from '../../db/ticket-derivations.ts';
import { fts5Body, pgTsquery, termsOf, type TicketSearch } from './ticket-search.ts';
import { createPostgresSearch } from './ticket-search.repository.ts';
import { TICKET_COLUMNS } from './ticket-columns.ts';

/**
 * The ticket lists with filters and sorts (issue 12), beside the plain lists of
 * tickets.repository.ts. One planner serves every combination of filters and sort
 * (ARCHITECTURE.md, "Daily work on tickets", filters and sorts):
 *
 * - the total is exact from the maintained counters (`ticket_counts`) when the filters are
 *   ones they count (stage; creator alone or assignee alone); otherwise it is counted in id
 *   windows, newest first, through the filter indexes (SQLite: the FTS5 `attrs` tokens;
 *   PostgreSQL: the `(column, id)` b-trees), up to TICKET_COUNT_CAP and within a time budget.
 *   Counting that stops early reports what it counted as a lower bound, after checking that
 *   one more match exists;
 * - the counted windows give the density of the matches. A page the density says is near
 *   the start of the sort order is read by walking the sort's `(column, id)` index and
 *   filtering a bounded number of rows ("walk"); otherwise, or when the walk comes up short,
 *   the matches are fetched through the filter indexes and sorted ("gather");
 * - on SQLite in id order (ID and 'Creado') the FTS5 index alone answers the page, in order.
 * - a PostgreSQL search is answered by its text index, filters included
 *   (ticket-search.repository.ts); a page of many matches in another order walks that
 *   column's index.
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

/**
 * The scope, stages and filters as attribute tokens of the text index (db/ticket-derivations.ts
 * `ATTR`): one group per condition, each group met by any of its tokens.
 */
export function attrGroups(spec: Pick<ListSpec, 'scope' | 'filters'>, stages: TicketStage[] | null): string[][] {
  const groups: string[][] = [];
  const { scope, filters } = spec;
  if (scope.kind === 'mine') groups.push([`${ATTR.createdBy}${scope.userId}`, `${ATTR.assignee}${scope.userId}`]);
  if (stages) groups.push(stages.map((s) => `${ATTR.stage}${s}`));
  for (const [key, prefix] of idFilters) {
    const values = filters[key];
    if (values?.length) groups.push(values.map((v) => `${prefix}${v}`));
  }
  const assignees = filters.user_assigned_id;
  if (assignees?.length) groups.push(assignees.map((v) => `${ATTR.assignee}${v ?? 0}`));
  return groups;
}

type SortableColumn = 'id' | 'name' | 'priority_type_id' | 'status_id' | 'project_id' | 'updated_at';

/** The sorts by a catalogue id, with the catalogue and the FTS5 token prefix of its values. */
interface CatalogueSort {
  table: 'priority_types' | 'ticket_statuses' | 'projects';
  token: string;
}
const catalogueSorts: Partial<Record<SortableColumn, CatalogueSort>> = {
  priority_type_id: { table: 'priority_types', token: ATTR.priority },
  status_id: { table: 'ticket_statuses', token: ATTR.status },
  project_id: { table: 'projects', token: ATTR.project },
};

/** What a walk reads of each ticket to test it: its id and the filtered columns. */
const walkColumns = [
  'id',
  'stage',
  'status_id',
  'priority_type_id',
  'project_id',
  'area_id',
  'category_id',
  'difficulty_id',
  'created_by',
  'user_assigned_id',
] as const;

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

/** How long counting may take before it settles for a lower bound (ms). */
export const COUNT_BUDGET_MS = 4;
/** The first id window counted; each next one is twice as wide. */
const FIRST_WINDOW = 20_000;
/** The most tickets a walk of the sort order reads for one page; a page further away is gathered. */
export const WALK_ROWS = 20_000;

/** Matches few enough to fetch and sort whole when a walk would read too far. */
const GATHER_ROWS = 20_000;

/** The planner's knobs: tests force each branch (and a zero budget) to compare them with a recount. */
export interface ListPlanOptions {
  countBudgetMs?: number;
  firstWindow?: number;
  walkRows?: number;
  force?: 'walk' | 'gather';
}

/** A list as it will be read: its stages, its date range as ids, and (SQLite) its FTS5 query. */
interface Plan {
  spec: ListSpec;
  stages: TicketStage[] | null;
  range: IdRange;
  match: string | null;
}

/** A total, and the density of the matches over the ids (what plans the page). */
interface Total {
  total: number;
  isLowerBound: boolean;
  density: number;
}

export function createTicketListQueries(database: Database, options: ListPlanOptions = {}) {
  const { db } = database;
  const postgresSearch = createPostgresSearch(db);
  const { countBudgetMs = COUNT_BUDGET_MS, firstWindow = FIRST_WINDOW, walkRows = WALK_ROWS, force } = options;
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
    const { search } = spec;
    if (search.kind === 'words') {
      parts.push(fts5Body(search));
    } else if (search.kind === 'id') {
      parts.push(`{attrs} : ${ATTR.id}${search.id}`);
    }
    for (const tokens of attrGroups(spec, stages)) parts.push(`{attrs} : (${tokens.join(' OR ')})`);
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
            ? sql<SqlBool>`t.search_doc @@ ${pgTsquery(termsOf(search), [])}::tsquery`
            : sql<SqlBool>`t.id in (select rowid from ${ftsRows(fts5Body({ ...search, id: null }))})`;
        c.push(search.id === null ? text : eb.or([text, eb('t.id', '=', search.id)]));
      }
      return eb.and(c);
    };

  const rowQuery = (spec: ListSpec, stages: TicketStage[] | null, range: IdRange, q: Kysely<DB> = db) =>
    fromTickets(q).where(rowConditions(spec, stages, range));

  /** Where a keyset batch resumes: after this sort value and id. */
  type Cursor = { value: string | number; id: number };

  /** Counts the row query within [lo, hi] up to `limit` (SQLite: through the FTS5 index when there is a match). */
  async function countIn(plan: Plan, lo: number, hi: number, limit: number, q: Kysely<DB> = db): Promise<number> {
    const window: IdRange = {
      min: plan.range.min === null ? lo : Math.max(lo, plan.range.min),
      max: plan.range.max === null ? hi : Math.min(hi, plan.range.max),
    };
    if (plan.match !== null) {
      const {
        rows: [row],
      } = await sql<{ n: number }>`
        select count(*) as n from (select rowid from ${ftsRows(plan.match)}
        where ${rowidRange(window)} limit ${sql.lit(limit)})`.execute(db);
      return Number(row?.n ?? 0);
    }
    const ids = database.dialect === 'postgres' ? indexedIds(plan, window) : null;
    if (ids) {
      const rows =
        plan.spec.search.kind === 'none'
          ? ids
          : sql`select t.id from tickets t where t.id in (${ids}) and t.id >= ${window.min} and t.id <= ${window.max}
              and ${unindexed(plan)}`;
      const {
        rows: [row],
      } = await sql<{ n: number | string }>`select count(*) as n from (${rows} limit ${sql.lit(limit)}) c`.execute(q);
      return Number(row?.n ?? 0);
    }
    const { n } = await q
      .selectFrom(rowQuery(plan.spec, plan.stages, window, q).select(sql.lit(1).as('one')).limit(limit).as('capped'))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /**
   * Whether one match lies in [lo, hi], read lazily from the newest: FTS5 on SQLite; on
   * PostgreSQL the id index with the conditions on the row.
   */
  async function existsIn(plan: Plan, lo: number, hi: number, q: Kysely<DB> = db): Promise<boolean> {
    if (plan.match !== null || database.dialect !== 'postgres') return (await countIn(plan, lo, hi, 1, q)) > 0;
    const window: IdRange = {
      min: plan.range.min === null ? lo : Math.max(lo, plan.range.min),
      max: plan.range.max === null ? hi : Math.min(hi, plan.range.max),
    };
    const row = await rowQuery(plan.spec, plan.stages, window, q)
      .select('t.id')
      .orderBy('t.id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * PostgreSQL: the ids in [lo, hi] of every filter that has a `(column, id)` index (scope,
   * stage, status, priority, project, area, category, difficulty, creator, assignee): index-only
   * range scans joined on the id, so counting a window costs the index entries of its filters
   * in it and never reads a ticket row. Run inside `mergeJoined`. Null when no such filter applies.
   */
  function indexedIds(plan: Plan, window: IdRange): RawBuilder<unknown> | null {
    const { spec, stages } = plan;
    const inWindow = sql`id >= ${window.min} and id <= ${window.max}`;
    const branch = (condition: RawBuilder<unknown>) => sql`select id from tickets where ${condition} and ${inWindow}`;
    const list = (values: readonly (number | string)[]) => sql.join(values.map((v) => sql`${v}`));
    const branches: RawBuilder<unknown>[] = [];
    if (spec.scope.kind === 'mine') {
      const me = spec.scope.userId;
      branches.push(sql`(${branch(sql`created_by = ${me}`)} union ${branch(sql`user_assigned_id = ${me}`)})`);
    }
    if (stages) branches.push(branch(sql`stage in (${list(stages)})`));
    for (const [key, , column] of idFilters) {
      const values = spec.filters[key];
      if (values?.length) branches.push(branch(sql`${sql.ref(column)} in (${list(values)})`));
    }
    const assignees = spec.filters.user_assigned_id;
    if (assignees?.length) {
      const ids = assignees.filter((v): v is number => v !== null);
      const parts = [
        ...(ids.length ? [branch(sql`user_assigned_id in (${list(ids)})`)] : []),
        ...(ids.length < assignees.length ? [branch(sql`user_assigned_id is null`)] : []),
      ];
      branches.push(parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` union `)})`);
    }
    if (branches.length === 0) return null;
    // Each branch comes in id order (its `(column, id)` index), so a merge join walks them side
    // by side; mergeJoined rules out the hash and nested-loop joins stale statistics could pick
    // (seconds). A hashed INTERSECT costs four times as much: 13.8 ms against 3.3 ms for a
    // 40,000-id window of three filters at a million tickets.
    const [first, ...rest] = branches;
    return sql`select b0.id from (${first}) b0 ${sql.join(
      rest.map((b, i) => sql`join (${b}) ${sql.raw(`b${i + 1}`)} on ${sql.raw(`b${i + 1}`)}.id = b0.id`),
      sql` `,
    )}`;
  }

  /**
   * Runs `read` where PostgreSQL may join only by merging (what indexedIds is written for);
   * on SQLite as it is.
   */
  async function mergeJoined<T>(read: (q: Kysely<DB>) => Promise<T>): Promise<T> {
    if (database.dialect !== 'postgres') return read(db);
    return db.transaction().execute(async (trx) => {
      await sql`set local enable_hashjoin = off`.execute(trx);
      await sql`set local enable_nestloop = off`.execute(trx);
      return read(trx);
    });
  }

  /** What the indexed ids leave to check on the row: the search (PostgreSQL; its own index). */
  function unindexed(plan: Plan): RawBuilder<unknown> {
    const { search } = plan.spec;
    if (search.kind === 'none') return sql`true`;
    if (search.kind === 'id') return sql`t.id = ${search.id}`;
    const text = sql`t.search_doc @@ ${pgTsquery(termsOf(search), [])}::tsquery`;
    return search.id === null ? text : sql`(${text} or t.id = ${search.id})`;
  }

  /** The lowest and highest ticket id of the date range; null when there is no ticket. Two seeks of the id index. */
  async function idBounds(range: IdRange): Promise<{ lo: number; hi: number } | null> {
    const end = (dir: 'asc' | 'desc') =>
      fromTickets()
        .select('t.id')
        .$if(range.min !== null, (q) => q.where('t.id', '>=', range.min!))
        .$if(range.max !== null, (q) => q.where('t.id', '<=', range.max!))
        .orderBy('t.id', dir)
        .limit(1)
        .executeTakeFirst();
    const [lo, hi] = await Promise.all([end('asc'), end('desc')]);
    return lo && hi ? { lo: lo.id, hi: hi.id } : null;
  }

  /**
   * The matches counted in id windows, newest first, each twice as wide as the one before:
   * up to the cap (then "more than TICKET_COUNT_CAP"), or until the next window would end
   * past the time budget, judged by the last one (then "more than what was counted", once
   * one more match is known to exist). Also the
   * density of the matches over the ids it covered, which plans the page.
   */
  function windowedCount(plan: Plan, bounds: { lo: number; hi: number }): Promise<Total> {
    return mergeJoined(async (q) => {
      const started = performance.now();
      let counted = 0;
      let hi = bounds.hi;
      let width = firstWindow;
      for (;;) {
        const lo = Math.max(bounds.lo, hi - width + 1);
        const windowStarted = performance.now();
        counted += await countIn(plan, lo, hi, TICKET_COUNT_CAP + 1 - counted, q);
        const now = performance.now();
        const density = counted / (bounds.hi - lo + 1);
        if (counted > TICKET_COUNT_CAP) return { ...capped(counted), density };
        if (lo <= bounds.lo) return { total: counted, isLowerBound: false, density };
        hi = lo - 1;
        width *= 2;
        // The next window is twice as wide: stop now if it would end past the budget.
        const nextEnds = now - started + 2 * (now - windowStarted);
        if (width > 2 * firstWindow && nextEnds > countBudgetMs) {
          const more = await existsIn(plan, bounds.lo, hi, q);
          return { total: counted, isLowerBound: more, density };
        }
      }
    });
  }

  /** The counted sets (`ticket_counts`) whose sum is the list's exact size; null when a filter is not counted there. */
  function countedSets(spec: ListSpec): { kinds: number[]; users: number[] } | null {
    const { created_by, user_assigned_id } = spec.filters;
    const others = { ...spec.filters, stage: undefined, created_by: undefined, user_assigned_id: undefined };
    if (spec.search.kind !== 'none' || hasFilters(others)) return null;
    const creators = created_by?.length ? [...new Set(created_by)] : null;
    const assignees = user_assigned_id?.length ? [...new Set(user_assigned_id.map((v) => v ?? 0))] : null;
    const { scope } = spec;
    if (creators && assignees) return null;
    if (scope.kind === 'all') {
      if (creators) return { kinds: [COUNT_KIND.created], users: creators };
      if (assignees) return { kinds: [COUNT_KIND.assigned], users: assignees };
      return { kinds: [COUNT_KIND.all], users: [0] };
    }
    // Within Mis Tickets a creator or an assignee filter is counted only when it is the user.
    const only = (ids: number[] | null) => ids !== null && ids.length === 1 && ids[0] === scope.userId;
    if (creators) return only(creators) ? { kinds: [COUNT_KIND.created], users: creators } : null;
    if (assignees) return only(assignees) ? { kinds: [COUNT_KIND.assigned], users: assignees } : null;
    return { kinds: [COUNT_KIND.created, COUNT_KIND.assigned, COUNT_KIND.self], users: [scope.userId] };
  }

  /** The exact size of counted sets in these stages (the "self" set is subtracted: Mis Tickets counts it once). */
  async function countedTotal(sets: { kinds: number[]; users: number[] }, stages: TicketStage[] | null) {
    const row = await db
      .selectFrom('ticket_counts')
      .select(
        sql<number | string | null>`sum(case when kind = ${sql.lit(COUNT_KIND.self)} then -n else n end)`.as('total'),
      )
      .where('kind', 'in', sets.kinds)
      .where('user_id', 'in', sets.users)
      .$if(stages !== null, (q) => q.where('stage', 'in', stages!))
      .executeTakeFirstOrThrow();
    return Number(row.total ?? 0);
  }

  /**
   * The id range as FTS5 rowid bounds, written as integer literals: FTS5 seeks its doclists
   * to a literal bound, while a bound parameter (better-sqlite3 binds a JS number as a REAL)
   * made a 20,000-id window cost 60 ms instead of 1 ms at a million tickets.
   */
  const rowidRange = (range: IdRange) =>
    sql.join(
      [
        range.min === null ? sql`1 = 1` : sql`rowid >= ${sql.lit(Math.trunc(range.min))}`,
        range.max === null ? sql`1 = 1` : sql`rowid <= ${sql.lit(Math.trunc(range.max))}`,
      ],
      sql` and `,
    );

  /** SQLite: one page of ids straight from the FTS5 index, in id order. */
  async function ftsIds(match: string, range: IdRange, dir: 'asc' | 'desc', limit: number, offset: number) {
    const { rows } = await sql<{ id: number }>`
      select rowid as id from ${ftsRows(match)} where ${rowidRange(range)}
      order by rowid ${sql.raw(dir)} limit ${sql.lit(limit)} offset ${sql.lit(offset)}`.execute(db);
    return rows.map((r) => r.id);
  }

  const capped = (n: number) => ({ total: Math.min(n, TICKET_COUNT_CAP), isLowerBound: n > TICKET_COUNT_CAP });

  /** Whether anything narrows the list (scope, stage, filter, search). */
  const narrows = (spec: ListSpec, stages: TicketStage[] | null) =>
    spec.scope.kind === 'mine' || stages !== null || spec.search.kind !== 'none' || hasFilters(spec.filters);

  /** "walk": the sort order's first `rows` tickets (its `(column, id)` index), filtered: the first `need` matches among them. */
  async function walkIds(plan: Plan, rows: number, need: number): Promise<number[]> {
    const { spec, stages, range } = plan;
    const column = sortColumns[spec.sort.by];
    const { dir } = spec.sort;
    const textSearch = database.dialect === 'postgres' && spec.search.kind === 'words';
    let inner = db
      .selectFrom('tickets')
      .select([...new Set([...walkColumns, column])])
      .$if(textSearch, (q) => q.select(sql<string>`search_doc`.as('search_doc')))
      .$if(range.min !== null, (q) => q.where('id', '>=', range.min!))
      .$if(range.max !== null, (q) => q.where('id', '<=', range.max!));
    inner = column === 'id' ? inner.orderBy('id', dir) : inner.orderBy(column, dir).orderBy('id', dir);
    let q = db
      .selectFrom(inner.limit(rows).as('t'))
      .where((eb) => rowConditions(spec, stages, range)(eb as unknown as Row))
      .select(['t.id']);
    q = column === 'id' ? q.orderBy('t.id', dir) : q.orderBy(`t.${column}`, dir).orderBy('t.id', dir);
    return (await q.limit(need).execute()).map((r) => r.id);
  }

  /** "gather": every match through the filter indexes (FTS5; PostgreSQL bitmap scans), sorted, then the page. */
  async function gatherIds(plan: Plan, limit: number, offset: number): Promise<number[]> {
    const { spec, stages, range, match } = plan;
    const column = sortColumns[spec.sort.by];
    const { dir } = spec.sort;
    if (match !== null) {
      const order =
        column === 'id' ? sql`t.id ${sql.raw(dir)}` : sql`t.${sql.ref(column)} ${sql.raw(dir)}, t.id ${sql.raw(dir)}`;
      const { rows } = await sql<{ id: number }>`
        select t.id from tickets t where t.id in (
          select rowid from ${ftsRows(match)} where ${rowidRange(range)})
        order by ${order} limit ${sql.lit(limit)} offset ${sql.lit(offset)}`.execute(db);
      return rows.map((r) => r.id);
    }
    const read = async (q: Kysely<DB>) => {
      let page = rowQuery(spec, stages, range, q).select('t.id');
      page = column === 'id' ? page.orderBy('t.id', dir) : page.orderBy(`t.${column}`, dir).orderBy('t.id', dir);
      return (await page.limit(limit).offset(offset).execute()).map((r) => r.id);
    };
    if (database.dialect !== 'postgres') return read(db);
    // Bitmap scans of the filter indexes, then a sort: never a walk of the sort index.
    return db.transaction().execute(async (trx) => {
      await sql`set local enable_indexscan = off`.execute(trx);
      await sql`set local enable_indexonlyscan = off`.execute(trx);
      return read(trx);
    });
  }

  /** How the spec is read: its stages, date range as ids, and FTS5 query (SQLite; null when nothing to match on). */
  function planOf(spec: ListSpec, stages: TicketStage[] | null, range: IdRange): Plan {
    const match = database.dialect === 'sqlite' ? ftsMatch(spec, stages) : null;
    return { spec, stages, range, match };
  }

  /**
   * The page: FTS5 in id order on SQLite; else a walk as far as twice what the density says
   * the page needs, unless that is beyond WALK_ROWS and the matches are few (GATHER_ROWS): then
   * a gather. A walk that comes up short tries again as far as its own density says (at most
   * twice more, and within 16 × WALK_ROWS while the matches are many), then gathers; one that
   * found nothing gathers at once when the matches are few.
   */
  async function pageIds(plan: Plan, total: Total, span: number, limit: number, offset: number): Promise<number[]> {
    const { spec, stages, match } = plan;
    if (!narrows(spec, stages)) return plainIds(plan, limit, offset);
    if (match !== null && isIdOrder(spec.sort) && force !== 'gather') {
      return ftsIds(match, plan.range, spec.sort.dir, limit, offset);
    }
    const catalogue = catalogueSorts[sortColumns[spec.sort.by]];
    if (match !== null && catalogue && force === undefined) return ftsByValue(plan, catalogue, limit, offset);
    const need = offset + limit;
    const gather = () => gatherIds(plan, limit, offset);
    if (force === 'gather' || (force === undefined && total.density === 0)) return gather();
    const matches = total.isLowerBound ? Math.max(total.total, total.density * span) : total.total;
    const most = matches <= GATHER_ROWS ? walkRows : 16 * walkRows;
    let reach = force === 'walk' ? Math.max(need, walkRows) : Math.max(need, Math.ceil((2 * need) / total.density));
    if (reach > most && force === undefined) return gather();
    for (let tries = 0; tries < 3; tries++) {
      const found = await walkIds(plan, reach, need);
      // A full page, or a walk past every ticket (the list ends within it).
      if (found.length >= need || reach >= span) return found.slice(offset);
      // Nothing where the density promised twice the page: the sort order and the filters are
      // correlated, and reading on would be a guess; few matches are cheaper gathered.
      if (found.length === 0 && matches <= GATHER_ROWS) break;
      const further = found.length > 0 ? Math.ceil((2 * need * reach) / found.length) : 4 * reach;
      if (further > most) break;
      reach = further;
    }
    return gather();
  }

  /**
   * SQLite, sorted by a catalogue column (priority, status, project): the `(column, id)` order
   * is the id order of each catalogue value in turn, so the page is the FTS5 query with the
   * value's token added, value after value, each read in rowid order only as far as the page
   * still needs: no ticket row is read.
   */
  async function ftsByValue(plan: Plan, catalogue: CatalogueSort, limit: number, offset: number): Promise<number[]> {
    const { dir } = plan.spec.sort;
    const values = await db.selectFrom(catalogue.table).select('id').orderBy('id', dir).execute();
    const need = offset + limit;
    const ids: number[] = [];
    for (const { id } of values) {
      const more = await ftsIds(
        `${plan.match} AND {attrs} : ${catalogue.token}${id}`,
        plan.range,
        dir,
        need - ids.length,
        0,
      );
      ids.push(...more);
      if (ids.length >= need) break;
    }
    return ids.slice(offset, need);
  }

  /** The whole table in the sort order (its index), from an offset: nothing to filter. */
  async function plainIds(plan: Plan, limit: number, offset: number): Promise<number[]> {
    const column = sortColumns[plan.spec.sort.by];
    const { dir } = plan.spec.sort;
    let q = rowQuery(plan.spec, plan.stages, plan.range).select('t.id');
    q = column === 'id' ? q.orderBy('t.id', dir) : q.orderBy(`t.${column}`, dir).orderBy('t.id', dir);
    return (await q.limit(limit).offset(offset).execute()).map((r) => r.id);
  }

  return {
    /** One page of a filtered or sorted list, with its total (exact, or a lower bound: see above). */
    async slice(spec: ListSpec, limit: number, offset: number): Promise<IdSlice> {
      const stages = effectiveStages(spec);
      const range = stages && stages.length === 0 ? null : await idRangeOf(spec.filters);
      if (!range) return { ids: [], total: 0, isLowerBound: false };
      if (database.dialect === 'postgres' && spec.search.kind === 'words') {
        // The text index answers the search with its filters (ticket-search.repository.ts); a page
        // of many matches in another order walks that column's index.
        const sort = { column: sortColumns[spec.sort.by], dir: spec.sort.dir };
        const found = await postgresSearch.slice(
          { search: spec.search, attrs: attrGroups(spec, stages), range, sort },
          limit,
          offset,
        );
        return { ...found, ids: found.ids ?? (await plainIds(planOf(spec, stages, range), limit, offset)) };
      }
      const bounds = await idBounds(range);
      if (!bounds) return { ids: [], total: 0, isLowerBound: false };
      const plan = planOf(spec, stages, range);
      const sets = countedSets(spec);
      const span = bounds.hi - bounds.lo + 1;
      const total: Total =
        sets && range.min === null && range.max === null
          ? await countedTotal(sets, stages).then((n) => ({ total: n, isLowerBound: false, density: n / span }))
          : await windowedCount(plan, bounds);
      const ids = await pageIds(plan, total, span, limit, offset);
      return { ids, total: total.total, isLowerBound: total.isLowerBound };
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
      const match = isIdOrder(spec.sort) ? planOf(spec, stages, range).match : null;
      const { dir } = spec.sort;
      if (match) {
        let afterId: number | null = null;
        for (;;) {
          const after: RawBuilder<unknown> =
            afterId === null ? sql`` : sql` and rowid ${sql.raw(dir === 'desc' ? '<' : '>')} ${afterId}`;
          const rows: Selectable<TicketsTable>[] = await fromTickets()
            .select(TICKET_COLUMNS)
            .where(
              sql<SqlBool>`t.id in (select rowid from ${ftsRows(match)} where ${rowidRange(range)}${after}
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
        let q = rowQuery(spec, stages, range).select(TICKET_COLUMNS);
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
}
export type TicketListQueries = ReturnType<typeof createTicketListQueries>;
