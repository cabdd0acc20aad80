import {
  DEFAULT_TICKET_SORT,
  TICKET_COUNT_CAP,
  TICKET_FIELDS,
  ticketFilterFields,
  type TicketField,
  type TicketStage,
  type TTicket,
  type TTicketFilters,
  type TTicketListQuery,
  type TTicketSort,
} from '@portal/contract';
import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Selectable,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import type { Database } from '../../db/database.ts';
import { pageMeta } from '../../db/paging.ts';
import type { DB, TicketsTable } from '../../db/schema.ts';
import { COUNT_KIND, syncTicketIndex } from '../../db/ticket-derivations.ts';
import { TICKET_COLUMNS } from './ticket-columns.ts';
import { ticketOf, type TicketNamesRepository } from './ticket-names.repository.ts';
import { fts5Body, parseTicketSearch, pgTsquery, termsOf, type TicketSearch } from './ticket-search.ts';

/** Which tickets a list may show: all, or those the user created or is assigned to (DESIGN.md). */
export type TicketScope = { kind: 'all' } | { kind: 'mine'; userId: number };

/** Which tickets a list shows, and in what order: every list, page and export reads one. */
export interface TicketSelection {
  scope: TicketScope;
  /** The history tab: `current` = not in a closed stage, `old` = closed. */
  history?: 'current' | 'old';
  search: string;
  filters?: TTicketFilters;
  sort?: TTicketSort;
}

type Row = ExpressionBuilder<DB & { t: TicketsTable }, 't'>;

/**
 * One condition of a list: the tokens of the text index's attributes it is met by (any of
 * them; db/ticket-derivations.ts), or none when only the row can tell (a date range).
 */
interface Condition {
  tokens: string[] | null;
  row: (eb: Row) => Expression<SqlBool>;
}

/** A searched word starting more indexed words than this is read as a prefix instead. */
const MAX_PREFIX_TERMS = 32;

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

const fieldByColumn = (column: string) =>
  Object.values(TICKET_FIELDS as Record<string, TicketField>).find((f) => f.column === column)!;
const tokenOf = (column: string, value: number | string | null) => `${fieldByColumn(column).token}${value ?? 0}`;

/** A condition on a column: one of `values` (null: the column is null, token value 0). */
function anyOf(column: keyof TicketsTable, values: readonly (number | string | null)[]): Condition {
  const present = values.filter((v): v is number | string => v !== null);
  return {
    tokens: values.map((v) => tokenOf(column, v)),
    row: (eb) =>
      eb.or([
        ...(present.length ? [eb(`t.${column}`, 'in', present)] : []),
        ...(present.length < values.length ? [eb(`t.${column}`, 'is', null)] : []),
      ]),
  };
}

/** The list's scope, history tab and filters (one per filterable field of TICKET_FIELDS) as conditions. */
function conditionsOf(selection: TicketSelection): Condition[] {
  const { scope, history, filters = {} } = selection;
  const conditions: Condition[] = [];
  if (scope.kind === 'mine') {
    const me = scope.userId;
    conditions.push({
      tokens: [tokenOf('created_by', me), tokenOf('user_assigned_id', me)],
      row: (eb) => eb.or([eb('t.created_by', '=', me), eb('t.user_assigned_id', '=', me)]),
    });
  }
  if (history) conditions.push(anyOf('stage', history === 'current' ? ['open', 'started'] : ['closed']));
  const values = filters as Record<string, readonly (number | string | null)[] | string | undefined>;
  for (const key of ticketFilterFields) {
    const field: TicketField = TICKET_FIELDS[key];
    const column = field.column as keyof TicketsTable;
    if (field.kind === 'dates') {
      const [from, to] = [values[`${key}_from`] as string | undefined, values[`${key}_to`] as string | undefined];
      if (from) conditions.push({ tokens: null, row: (eb) => eb(`t.${column}`, '>=', `${from}T00:00:00.000Z`) });
      if (to) conditions.push({ tokens: null, row: (eb) => eb(`t.${column}`, '<', nextDay(to)) });
      continue;
    }
    const wanted = values[field.column] as (number | string | null)[] | undefined;
    if (wanted?.length) conditions.push(anyOf(column, wanted));
  }
  return conditions;
}

/** Whether a list has a filter or a search: its total is then counted, not read from the counters. */
const isCounted = (selection: TicketSelection) =>
  selection.search.trim() !== '' ||
  Object.values(selection.filters ?? {}).some((v) => v !== undefined && (!Array.isArray(v) || v.length > 0));

/**
 * Every ticket list, page, total and export, read by one query built step by step from the
 * list's scope, history tab, filters (TICKET_FIELDS), search and sort:
 *
 * - the conditions the text index holds as attribute tokens (all of them but a date range),
 *   and the searched words, are one query of that index (SQLite: FTS5 `tickets_fts`;
 *   PostgreSQL: `search_doc` and its GIN index), so it intersects them all; a date range is
 *   a condition on the row;
 * - the total is exact from the counters (`ticket_counts`) without filter or search;
 *   otherwise the matches are counted up to TICKET_COUNT_CAP (one more tells "más de"), so
 *   the same request on the same data always answers the same total;
 * - the page is the query in the sort's order (then the id) with an offset, its ids first,
 *   then those rows with their names.
 */
export function createTicketListRepository(database: Database, names: TicketNamesRepository) {
  const { db, dialect } = database;

  /** The indexed words a searched word starts, or null when more than MAX_PREFIX_TERMS. */
  async function wordsStartingWith(word: string): Promise<string[] | null> {
    const rows = await db
      .selectFrom('ticket_words')
      .select('word')
      .where('word', '>=', word)
      .where('word', '<', `${word}\u{10FFFF}`)
      .limit(MAX_PREFIX_TERMS + 1)
      .execute();
    return rows.length > MAX_PREFIX_TERMS ? null : rows.map((r) => r.word);
  }

  /**
   * The search as the index reads it: each word becomes the whole indexed words it starts
   * (`ticket_words`); a word that starts none leaves only the ticket number (or nothing) to
   * find. SQLite's pending index rows are written first (syncTicketIndex), as lists read it.
   */
  async function resolvedSearch(text: string): Promise<TicketSearch | null> {
    await syncTicketIndex(db, dialect);
    const search = parseTicketSearch(text);
    if (search.kind !== 'words') return search;
    const terms = await Promise.all(search.words.map(async (word) => ({ word, terms: await wordsStartingWith(word) })));
    if (terms.some((w) => w.terms?.length === 0)) return search.id === null ? null : { kind: 'id', id: search.id };
    return search.words.length === 0 ? null : { ...search, terms };
  }

  /**
   * The list's tickets as one query (`t` the ticket row; on SQLite `f` the FTS5 row when the
   * index is read), and the id to order by: FTS5 gives its rows in rowid order only when
   * ordered by its own rowid.
   */
  function ticketsQuery(selection: TicketSelection, search: TicketSearch) {
    const conditions = conditionsOf(selection);
    const groups = conditions.flatMap((c) => (c.tokens ? [c.tokens] : []));
    const rowOnly = conditions.filter((c) => c.tokens === null);
    const words = search.kind === 'words' ? search : null;
    const readsIndex = groups.length > 0 || words !== null;
    const isSqliteIndex = dialect === 'sqlite' && readsIndex;
    const plain = db.selectFrom('tickets as t');
    // On SQLite the index's rows come first, each joined to its ticket by rowid.
    const query = (
      isSqliteIndex
        ? (db
            .withTables<{ tickets_fts: { rowid: number } }>()
            .selectFrom('tickets_fts as f')
            .innerJoin('tickets as t', 't.id', 'f.rowid')
            .where(sql<SqlBool>`tickets_fts match ${ftsMatch(groups, words)}`) as unknown as typeof plain)
        : plain
    )
      .$if(dialect === 'postgres' && readsIndex, (q) => q.where(pgMatch(groups, words)))
      .$if(search.kind === 'id', (q) => q.where('t.id', '=', search.kind === 'id' ? search.id : 0))
      .where((eb) => eb.and(rowOnly.map((c) => c.row(eb as unknown as Row))));
    return { query, id: sql.ref<number>(isSqliteIndex ? 'f.rowid' : 't.id') };
  }

  /** SQLite: the FTS5 query of the words and the attribute groups, all required. */
  function ftsMatch(groups: string[][], words: Extract<TicketSearch, { kind: 'words' }> | null): string {
    return [...(words ? [fts5Body(words)] : []), ...groups.map((tokens) => `{attrs} : (${tokens.join(' OR ')})`)].join(
      ' AND ',
    );
  }

  /** PostgreSQL: `search_doc` against the words and the attribute groups; a lone number also finds its ticket. */
  function pgMatch(groups: string[][], words: Extract<TicketSearch, { kind: 'words' }> | null) {
    const all = sql<SqlBool>`t.search_doc @@ ${pgTsquery(words ? termsOf(words) : [], groups)}::tsquery`;
    if (words?.id == null) return all;
    const attrs = groups.length > 0 ? sql<SqlBool>` and t.search_doc @@ ${pgTsquery([], groups)}::tsquery` : sql``;
    return sql<SqlBool>`(${all} or (t.id = ${words.id}${attrs}))`;
  }

  /** The list in its sort's order: the sort column, then the id. */
  function inOrder(selection: TicketSelection, search: TicketSearch) {
    const { query, id } = ticketsQuery(selection, search);
    const { by, dir } = selection.sort ?? DEFAULT_TICKET_SORT;
    const column = TICKET_FIELDS[by].sortColumn as keyof TicketsTable;
    const terms = column === 'id' ? [id] : [sql.ref(`t.${column}`), id];
    const ordered = <O>(q: SelectQueryBuilder<DB & { t: TicketsTable }, 't', O>) =>
      terms.reduce((o, term) => o.orderBy(term, dir), q);
    return { query, ordered, id, column, dir };
  }

  /** The exact size of a list without filter or search, from the counters. */
  async function countedTotal(selection: TicketSelection): Promise<number> {
    const { scope, history } = selection;
    const stages: TicketStage[] | null =
      history === 'current' ? ['open', 'started'] : history === 'old' ? ['closed'] : null;
    const row = await db
      .selectFrom('ticket_counts')
      .select(
        sql<number | string | null>`sum(case when kind = ${sql.lit(COUNT_KIND.self)} then -n else n end)`.as('total'),
      )
      .where(
        'kind',
        'in',
        scope.kind === 'all' ? [COUNT_KIND.all] : [COUNT_KIND.created, COUNT_KIND.assigned, COUNT_KIND.self],
      )
      .where('user_id', '=', scope.kind === 'all' ? 0 : scope.userId)
      .$if(stages !== null, (q) => q.where('stage', 'in', stages!))
      .executeTakeFirstOrThrow();
    return Number(row.total ?? 0);
  }

  /** The matches counted up to the cap: a bound of the data, never of the clock. */
  async function cappedTotal(selection: TicketSelection, search: TicketSearch) {
    const { n } = await db
      .selectFrom(
        ticketsQuery(selection, search)
          .query.select(sql.lit(1).as('one'))
          .limit(TICKET_COUNT_CAP + 1)
          .as('capped'),
      )
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return { total: Math.min(Number(n), TICKET_COUNT_CAP), isLowerBound: Number(n) > TICKET_COUNT_CAP };
  }

  async function pageIds(selection: TicketSelection, search: TicketSearch, limit: number, offset: number) {
    const { query, ordered } = inOrder(selection, search);
    const rows = await ordered(query.select('t.id')).limit(limit).offset(offset).execute();
    return rows.map((r) => r.id);
  }

  /** Ticket rows with their names (ticket-names.repository.ts), in their order. */
  async function withNames(rows: Selectable<TicketsTable>[]): Promise<TTicket[]> {
    const named = await names.of(rows);
    return rows.map((r, i) => ticketOf(r, named[i]!));
  }

  /** The tickets of these ids with their names, in the order of the ids. */
  async function detailsOf(ids: number[]): Promise<TTicket[]> {
    if (ids.length === 0) return [];
    const rows = await db.selectFrom('tickets as t').select(TICKET_COLUMNS).where('t.id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return withNames(ids.flatMap((id) => byId.get(id) ?? []));
  }

  return {
    /** One page of a list and its total (exact, or TICKET_COUNT_CAP and `total_is_lower_bound`). */
    async list(selection: TicketSelection, { page, per_page }: Pick<TTicketListQuery, 'page' | 'per_page'>) {
      const offset = (page - 1) * per_page;
      const search = await resolvedSearch(selection.search);
      if (!search) return { data: [], meta: pageMeta(0, { page, per_page }) };
      const [ids, total] = await Promise.all([
        pageIds(selection, search, per_page, offset),
        isCounted(selection)
          ? cappedTotal(selection, search)
          : countedTotal(selection).then((n) => ({ total: n, isLowerBound: false })),
      ]);
      const meta = pageMeta(total.total, { page, per_page });
      return {
        data: await detailsOf(ids),
        meta: total.isLowerBound ? { ...meta, total_is_lower_bound: true } : meta,
      };
    },

    /** The ids of a list's first tickets in its order. */
    async firstIds(selection: TicketSelection, limit: number): Promise<number[]> {
      const search = await resolvedSearch(selection.search);
      return search ? pageIds(selection, search, limit, 0) : [];
    },

    /**
     * Every ticket of the list with its names, in its order, in batches of `size` read by
     * keyset (`(column, id)` after the last one; never an offset, never the whole result at
     * once): what the CSV export streams.
     */
    async *exportBatches(selection: TicketSelection, size: number): AsyncGenerator<TTicket[]> {
      const search = await resolvedSearch(selection.search);
      if (!search) return;
      const { query, ordered, id, column, dir } = inOrder(selection, search);
      const after = sql.raw(dir === 'desc' ? '<' : '>');
      let last: { value: unknown; id: number } | null = null;
      for (;;) {
        const cursor: typeof last = last;
        const q = query
          .select(TICKET_COLUMNS)
          .$if(cursor !== null, (q) =>
            q.where(
              column === 'id'
                ? sql<SqlBool>`${id} ${after} ${cursor!.id}`
                : sql<SqlBool>`(t.${sql.ref(column)}, ${id}) ${after} (${cursor!.value}, ${cursor!.id})`,
            ),
          );
        const rows: Selectable<TicketsTable>[] = await ordered(q).limit(size).execute();
        if (rows.length > 0) yield await withNames(rows);
        if (rows.length < size) return;
        const end: Selectable<TicketsTable> = rows[rows.length - 1]!;
        last = { value: end[column], id: end.id };
      }
    },
  };
}
export type TicketListRepository = ReturnType<typeof createTicketListRepository>;
