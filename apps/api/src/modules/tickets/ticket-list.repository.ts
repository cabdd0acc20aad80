import {
  DEFAULT_TICKET_SORT,
  slaStates,
  TICKET_COUNT_CAP,
  TICKET_FIELDS,
  ticketFilterFields,
  tokenValue,
  type FoundReference,
  type TicketField,
  type TicketStage,
  type TTicket,
  type TTicketFilters,
  type TTicketListQuery,
  type TTicketSort,
} from '@portal/contract';
import { CompiledQuery, sql, type RawBuilder, type Selectable, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/database.ts';
import { pageMeta } from '../../db/paging.ts';
import { executePrepared } from '../../db/prepared.ts';
import type { DB, TicketsTable } from '../../db/schema.ts';
import { ATTR_BIT_WORDS, COUNT_KIND, ftsRows, PG_ATTR_MARK, syncTicketIndex } from '../../db/ticket-derivations.ts';
import { TICKET_COLUMNS } from './ticket-columns.ts';
import { ticketOf, type TicketNamesRepository } from './ticket-names.repository.ts';
import { fts5Body, parseTicketSearch, pgPrefixLexeme, pgTsquery, termsOf, type TicketSearch } from './ticket-search.ts';

/** Which tickets a list may show: all, or those the user created or is assigned to. */
export type TicketScope = { kind: 'all' } | { kind: 'mine'; userId: number };

/** Which tickets a list shows, and in what order: every list, page and export reads one. */
export interface TicketSelection {
  scope: TicketScope;
  /** The history tab: `current` = not in a closed stage, `old` = closed. */
  history?: 'current' | 'old';
  search: string;
  filters?: TTicketFilters;
  sort?: TTicketSort;
  /** Only the tickets changed since this instant (a Kanban column of a closed status). */
  updatedSince?: string;
}

/** A ticket's row as lists read it (TICKET_COLUMNS). */
type TicketRow = Selectable<TicketsTable>;

/** Where a keyset page starts: after the ticket of this id, whose sort column holds `value`. */
export interface TicketCursor {
  value: string | number;
  id: number;
}

/**
 * A search with its words resolved to indexed words, and whether SQLite's index queue held
 * tickets when the list began: only then must the index's reads also match queued rows.
 */
type ResolvedSearch = TicketSearch & { hasQueued: boolean };

/** A column of the ticket's row (`t`) or of its SLA clock columns (`w`, `ticket_sla_watch`), as a condition reads it. */
type Col = (column: keyof TicketsTable, table?: 't' | 'w') => RawBuilder<unknown>;

/**
 * One condition of a list: the attribute tokens it is met by (any of them; db/ticket-derivations.ts;
 * isInTextIndex tells where), or none when only the row can tell (a date range); and as a
 * condition on the row `t`, where `col` names a column.
 */
interface Condition {
  tokens: string[] | null;
  row: (col: Col) => RawBuilder<SqlBool>;
  /** A condition on the SLA state, which `ticket_sla_watch` (`w`) holds indexed (ticketsQuery). */
  readsWatch?: boolean;
  /** 'Por vencer o vencidos': a walk by a due date reads it from the partial index itself (atRiskWalkOf). */
  isAtRisk?: boolean;
}

/** The states of 'Por vencer o vencidos', as the partial indexes of `ticket_sla_watch` write them. */
const AT_RISK_STATES = sql<SqlBool>`w.sla_state in ('at_risk', 'breached')`;

/** The SLA states a list asks for, in the contract's order. */
const wantedSlaStates = (selection: TicketSelection) => {
  const wanted: readonly string[] = selection.filters?.sla_state ?? [];
  return slaStates.filter((state) => wanted.includes(state));
};

/** Whether the states are exactly 'Por vencer o vencidos'. */
const isAtRiskStates = (states: readonly string[]) => states.join() === 'at_risk,breached';

/** PostgreSQL: how many of a list's tickets one block of 65,536 ids holds (`ticket_attr_blocks`). */
type BlockCount = { block: number; n: number };

/**
 * PostgreSQL: a total counted from the bitmaps, with the lexeme groups it ANDed and its count per
 * block; `numbered`, the ticket a search of its number finds without it holding the word (it is
 * in the total, not in the bitmaps).
 */
type BitmapTotal = { groups: string[][]; blocks: BlockCount[]; numbered?: number | null };

/** How a search tells a logistics reference (modules/references): the references it is, and whether a ticket carries one. */
export interface TicketReferenceLookup {
  searched(text: string): Promise<FoundReference[]>;
  anyTicketWith(refs: readonly FoundReference[]): Promise<boolean>;
}

/**
 * PostgreSQL, a list counted from the counters, sorted by id: its page's walk of the newest
 * tickets reads COUNTED_WALK_SPREAD times the ids an even spread of the list's tickets puts
 * before the end of the page (a power of two, at least COUNTED_WALK_LEAST: one plan each), and
 * is tried only when that is at most COUNTED_WALK_ROWS, about what reading the page from the
 * bitmaps costs instead. Where the newest tickets are not the list's (others wrote them, or they
 * are open and the list is closed), it gives up early.
 */
const COUNTED_WALK_ROWS = 1_024;
const COUNTED_WALK_SPREAD = 4;
const COUNTED_WALK_LEAST = 256;

/**
 * The columns the conditions of a list counted from the counters read (countedSets): PostgreSQL's
 * `tickets_walk_idx` holds them beside the id, so the walk reads that index, not the tickets'
 * rows (but on pages a vacuum has not yet marked all-visible).
 */
const COUNTED_COLUMNS = ['id', 'created_by', 'user_assigned_id', 'stage', 'status_id'] as const;

/**
 * The highest ticket id: about how many ids a walk of a whole sort index reads. The totals read
 * it in their own statement (an index's last entry), so the page need not ask again.
 */
const HIGHEST_ID = sql<number | string | null>`(select max(id) from tickets)`.as('last');

/** The most rows a walk of a sort index is expected to read for a page; a farther page is gathered. */
const WALK_ROWS = 20_000;

/**
 * An id as an integer literal: better-sqlite3 binds a JS number as a REAL, and FTS5 ignores a
 * `rowid` condition on a REAL.
 */
const idLiteral = (id: number) => sql.lit(Math.trunc(id));

/**
 * SQLite: the most tokens a total counted from the attribute bitmaps joins (countByBits), and
 * how many chunks of 1,024 ids its first statement counts (each next one as many as the
 * matches so far say the cap needs, at most twice as many in all): a list of common tickets
 * is over the cap at once.
 */
const BITS_MAX_TOKENS = 8;
const BITS_FIRST_CHUNKS = 64;

/** SQLite: how many chunks' rows of each token countByBits reads to choose where its join starts. */
const BITS_FEW_CHUNKS = 256;

/** A searched word starting more indexed words than this is read as a prefix instead. */
const MAX_PREFIX_TERMS = 32;

/** Compares two ids (or blocks of ids) in `dir` order. */
const inOrder = (dir: 'asc' | 'desc') => (a: number, b: number) => (dir === 'desc' ? b - a : a - b);

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

const fieldByColumn = (column: string) =>
  Object.values(TICKET_FIELDS as Record<string, TicketField>).find((f) => f.column === column)!;
const tokenOf = (column: string, value: number | string | null) => `${fieldByColumn(column).token}${tokenValue(value)}`;

/** A condition on a column: one of `values` (null: the column is null, token value 0). */
function anyOf(column: keyof TicketsTable, values: readonly (number | string | null)[]): Condition {
  const present = values.filter((v): v is number | string => v !== null);
  const list = sql.join(present.map((v) => sql`${v}`));
  return {
    tokens: values.map((v) => tokenOf(column, v)),
    row: (col) =>
      present.length === values.length
        ? sql`${col(column)} in (${list})`
        : present.length === 0
          ? sql`${col(column)} is null`
          : sql`(${col(column)} in (${list}) or ${col(column)} is null)`,
  };
}

/** Every one of the conditions, on the row. */
const allOnRow = (conditions: Condition[], col: Col) =>
  sql<SqlBool>`${sql.join(
    conditions.map((c) => c.row(col)),
    sql` and `,
  )}`;

/** The list's stages: its history tab's, narrowed by a stage filter. */
function stagesOf({ history, filters }: TicketSelection): TicketStage[] | null {
  const tab: TicketStage[] | null = history === 'current' ? ['open', 'started'] : history === 'old' ? ['closed'] : null;
  const wanted = filters?.stage?.length ? filters.stage : null;
  return tab && wanted ? tab.filter((s) => wanted.includes(s)) : (tab ?? wanted);
}

/** The list's scope, stages and filters (one per filterable field of TICKET_FIELDS) as conditions. */
function conditionsOf(selection: TicketSelection): Condition[] {
  const { scope, filters = {} } = selection;
  const conditions: Condition[] = [];
  if (scope.kind === 'mine') {
    const me = scope.userId;
    conditions.push({
      tokens: [tokenOf('created_by', me), tokenOf('user_assigned_id', me)],
      row: (col) => sql`(${col('created_by')} = ${me} or ${col('user_assigned_id')} = ${me})`,
    });
  }
  const stages = stagesOf(selection);
  if (stages) conditions.push(anyOf('stage', stages));
  const since = selection.updatedSince;
  if (since) conditions.push({ tokens: null, row: (col) => sql`${col('updated_at')} >= ${since}` });
  const values = filters as Record<string, readonly (number | string | null)[] | string | undefined>;
  for (const key of ticketFilterFields) {
    const field: TicketField = TICKET_FIELDS[key];
    const column = field.column as keyof TicketsTable;
    if (field.kind === 'stages') continue;
    if (field.kind === 'dates') {
      const [from, to] = [values[`${key}_from`] as string | undefined, values[`${key}_to`] as string | undefined];
      if (from) conditions.push({ tokens: null, row: (col) => sql`${col(column)} >= ${`${from}T00:00:00.000Z`}` });
      if (to) conditions.push({ tokens: null, row: (col) => sql`${col(column)} < ${nextDay(to)}` });
      continue;
    }
    const wanted = values[field.column] as (number | string | null)[] | undefined;
    if (!wanted?.length) continue;
    if (field.kind === 'sla-states') {
      // A token like any other (isInTextIndex); on the row, from `ticket_sla_watch`, the SLA
      // clock columns with their indexes (by state, and 'Por vencer o vencidos' by each due date).
      // Literals: states the contract checked, in the contract's order.
      const states = wantedSlaStates(selection);
      const list = sql.join(states.map((state) => sql.lit(state)));
      conditions.push({
        tokens: states.map((state) => tokenOf(column, state)),
        readsWatch: true,
        isAtRisk: isAtRiskStates(states),
        row: (col) => sql`${col(column, 'w')} in (${list})`,
      });
      continue;
    }
    conditions.push(anyOf(column, wanted));
  }
  return conditions;
}

/**
 * The counted sets (`ticket_counts`) whose sum is the list's size, when its conditions are
 * ones the counters keep: scope, stages and statuses, or in Tickets Generales one creator or
 * assignee filter alone; null otherwise (a search, any other filter: the matches are counted).
 */
function countedSets(selection: TicketSelection): { kinds: number[]; users: number[] } | null {
  const { created_by, user_assigned_id, stage: _stage, status_id: _status, ...others } = selection.filters ?? {};
  const isSet = (v: unknown) => v !== undefined && (!Array.isArray(v) || v.length > 0);
  if (selection.search.trim() !== '' || selection.updatedSince || Object.values(others).some(isSet)) return null;
  const { scope } = selection;
  if (scope.kind === 'mine') {
    if (isSet(created_by) || isSet(user_assigned_id)) return null;
    return { kinds: [COUNT_KIND.created, COUNT_KIND.assigned, COUNT_KIND.self], users: [scope.userId] };
  }
  if (isSet(created_by) && isSet(user_assigned_id)) return null;
  if (isSet(created_by)) return { kinds: [COUNT_KIND.created], users: [...new Set(created_by)] };
  if (isSet(user_assigned_id))
    return { kinds: [COUNT_KIND.assigned], users: [...new Set(user_assigned_id!.map((v) => v ?? 0))] };
  return { kinds: [COUNT_KIND.all], users: [0] };
}

/**
 * Every ticket list, page, total and export, read by one query built step by step from the
 * list's scope, history tab, filters (TICKET_FIELDS), search and sort:
 *
 * - the conditions the text index holds as attribute tokens (all of them but a date range,
 *   and on PostgreSQL the SLA state), and the searched words, are one query of that index
 *   (SQLite: FTS5 `tickets_fts`; PostgreSQL: `search_doc` and its GIN index), so it
 *   intersects them all; the others are conditions on the row;
 * - the total is exact from the counters (`ticket_counts`) when they hold the list's
 *   conditions (countedSets); otherwise the matches are counted, and told up to
 *   TICKET_COUNT_CAP ("más de" beyond): on PostgreSQL, one word that more tickets than the cap
 *   hold over it uncounted (oneCommonWordCount), a list without a date range whose words are all
 *   common from the bitmaps of its tokens and words (countByBitmaps), one whose common words
 *   alone give more matches than the cap as over it (a prefix of thousands of words: the text
 *   index would read every match's row); on SQLite, a list of several conditions without
 *   words or dates from the bitmaps of its tokens (countByBits); any other up to the cap and
 *   one more; a bound of the data, so the same request on the same data always answers the
 *   same total;
 * - the page is that query in the sort's order (then the id) with an offset: its ids, and
 *   the rows of those ids (on PostgreSQL by the same statement), then their names. Sorted
 *   by a column, a list of more matches than the cap reads the column's index in order
 *   instead and filters it (the matches are dense).
 *   On PostgreSQL, a list counted from the bitmaps sorted by id takes the page's ids from the
 *   bitmaps of the blocks that hold it (idsByBitmaps); one counted from the counters walks the
 *   newest ids a bounded way, else takes them from the bitmaps too (countedPage).
 */
export function createTicketListRepository(
  database: Database,
  names: TicketNamesRepository,
  references?: TicketReferenceLookup,
) {
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
   * find. SQLite's queued index rows are written first, a bounded step of them (syncTicketIndex;
   * `ftsRows` matches the rest on their rows), as lists read the index.
   * Null when the list can show nothing (no such word, or a stage filter outside its tab).
   */
  async function resolvedSearch(selection: TicketSelection): Promise<ResolvedSearch | null> {
    const hasQueued = await syncTicketIndex(db, dialect, true);
    if (stagesOf(selection)?.length === 0) return null;
    const search = parseTicketSearch(selection.search);
    if (search.kind === 'words' && references) {
      // A reference typed whole, carried by some ticket: exactly those tickets, before any word match.
      const refs = await references.searched(selection.search);
      if (refs.length > 0 && (await references.anyTicketWith(refs))) return { kind: 'reference', refs, hasQueued };
    }
    if (search.kind !== 'words') return { ...search, hasQueued };
    const terms = await Promise.all(search.words.map(async (word) => ({ word, terms: await wordsStartingWith(word) })));
    if (terms.some((w) => w.terms?.length === 0))
      return search.id === null ? null : { kind: 'id', id: search.id, hasQueued };
    return search.words.length === 0 ? null : { ...search, terms, hasQueued };
  }

  /**
   * The list's tickets as one query, `t` the ticket row. Read through the text index, the
   * conditions it holds (isInTextIndex) and the words are one query of it (SQLite:
   * FTS5 `f`, joined to `t` only when a column is needed; PostgreSQL: `search_doc`);
   * `walk` puts every condition on the row instead, so the sort column's `(column, id)`
   * index is read in order and filtered (on SQLite `+t.col` keeps the conditions off other
   * indexes). `id` is the id to order by: FTS5 answers in rowid order only by its own rowid.
   */
  function ticketsQuery(selection: TicketSelection, search: ResolvedSearch, { walk = false, needsRow = true } = {}) {
    const conditions = conditionsOf(selection);
    const words = search.kind === 'words' ? search : null;
    // A recent window (the Kanban's closed columns) is narrower than any attribute: its rows are
    // read through `(status_id, updated_at)` rather than every posting of the status.
    const viaIndex = !walk && (words !== null || (!selection.updatedSince && conditions.some(isInTextIndex)));
    const groups = viaIndex ? conditions.filter(isInTextIndex).map((c) => c.tokens!) : [];
    const onRow = viaIndex ? conditions.filter((c) => !isInTextIndex(c)) : conditions;
    const isFts = dialect === 'sqlite' && viaIndex;
    const joinsRow = !isFts || needsRow || onRow.length > 0;
    const atRisk = walk ? atRiskWalkOf(selection) : null;
    // Off the text index, the SLA states are read from `ticket_sla_watch` (its index by state;
    // walked by a due date, 'Por vencer o vencidos' through a partial index in that order), each
    // ticket's row joined by its id when a condition or the page needs it: PostgreSQL starts
    // from whichever side holds fewer rows (a rare state, or rare attributes).
    const onWatch = atRisk !== null || (!walk && onRow.some((c) => c.readsWatch));
    const joinsTicket = !onWatch || needsRow || viaIndex || onRow.some((c) => !c.readsWatch);
    // Read through `(status_id, updated_at)`, a recent window's few rows are filtered: no other
    // column's index is worth intersecting with them (PostgreSQL would read the whole of a
    // user's postings to AND them), so those columns are written as no index matches them. That
    // index also holds the creator, the assignee and the priority (migration 0056): filtered by
    // those alone, the window is read from the index without the tickets' rows.
    const isWindow = !viaIndex && selection.updatedSince !== undefined;
    const col: Col = (column, table = 't') => {
      const name = `${table === 'w' && onWatch ? 'w' : 't'}.${column}`;
      if (isWindow && column !== 'status_id' && column !== 'updated_at') {
        return sql.raw(dialect === 'sqlite' ? `+${name}` : `coalesce(${name}, ${name})`);
      }
      return sql.raw(walk && dialect === 'sqlite' ? `+${name}` : name);
    };
    const id = sql.ref<number>(onWatch ? 'w.ticket_id' : isFts ? 'f.rowid' : 't.id');
    const { column } = sortOf(selection);
    const sort = sql.ref(`${atRisk ? 'w' : 't'}.${column}`);
    const fts = db.selectFrom(sql<{ rowid: number }>`${ftsRows(ftsMatch(groups, words), search.hasQueued)}`.as('f'));
    const hint = atRisk && dialect === 'sqlite' ? sql.raw(`indexed by ${atRisk}`) : sql``;
    const rows = onWatch
      ? db.selectFrom(
          (joinsTicket
            ? sql`ticket_sla_watch as w ${hint} join tickets as t on t.id = w.ticket_id`
            : sql`ticket_sla_watch as w`) as unknown as 'tickets as t',
        )
      : db.selectFrom('tickets as t');
    // Walked from `ticket_sla_watch`, 'Por vencer o vencidos' is the partial index's own predicate.
    const onRowConditions = atRisk ? onRow.filter((c) => !c.isAtRisk) : onRow;
    const query = (isFts
      ? joinsRow
        ? fts.innerJoin('tickets as t', 't.id', 'f.rowid')
        : fts
      : rows) as unknown as SelectQueryBuilder<DB & { t: TicketsTable }, 't', object>;
    return {
      id,
      sort,
      query: query
        .$if(atRisk !== null, (q) => q.where(AT_RISK_STATES))
        .$if(dialect === 'postgres' && viaIndex, (q) => q.where(pgMatch(groups, words)))
        .$if(search.kind === 'id', (q) =>
          q.where(sql<SqlBool>`${id} = ${idLiteral(search.kind === 'id' ? search.id : 0)}`),
        )
        .$if(search.kind === 'reference', (q) =>
          q.where(
            sql<SqlBool>`${id} in (select r.ticket_id from ticket_references r
              where ${sql.join(
                (search.kind === 'reference' ? search.refs : []).map(
                  (r) => sql`(r.type_id = ${r.type_id} and r.value = ${r.value})`,
                ),
                sql` or `,
              )})`,
          ),
        )
        .$if(onRowConditions.length > 0, (q) => q.where(allOnRow(onRowConditions, col))),
    };
  }

  /**
   * The partial index of `ticket_sla_watch` that holds a walk's order, when the list is 'Por
   * vencer o vencidos' sorted by a due date: the walk reads the copy in that index's order and
   * joins each ticket's row. Without statistics SQLite prefers looking the states up in the
   * index by state and sorting every match (hundreds of thousands), so its walk names the
   * index (PostgreSQL picks it by itself); the walk carries the index's predicate
   * (AT_RISK_STATES), so the index is always usable.
   */
  function atRiskWalkOf(selection: TicketSelection): string | null {
    if (!isAtRiskStates(wantedSlaStates(selection))) return null;
    const { column } = sortOf(selection);
    return column === 'resolution_due_sort'
      ? 'ticket_sla_watch_risk_resolution_due_idx'
      : column === 'first_response_due_sort'
        ? 'ticket_sla_watch_risk_first_response_due_idx'
        : null;
  }

  /**
   * Whether the text index holds a condition's tokens. PostgreSQL's `search_doc` holds no SLA
   * state: the sweep moves it, and a lexeme changed would rewrite every index of the ticket's
   * row; its token is in the attribute bitmaps only, for the totals (migration 0046).
   */
  const isInTextIndex = (c: Condition) => c.tokens !== null && (dialect === 'sqlite' || !c.readsWatch);

  /** SQLite: the FTS5 query of the words and the attribute groups, all required. */
  function ftsMatch(groups: string[][], words: Extract<TicketSearch, { kind: 'words' }> | null): string {
    const attrs = groups.map((tokens) => `{attrs} : (${tokens.join(' OR ')})`);
    return [...(words ? [fts5Body(words)] : []), ...attrs].join(' AND ');
  }

  /** PostgreSQL: `search_doc` against the words and the attribute groups; a lone number also finds its ticket. */
  function pgMatch(groups: string[][], words: Extract<TicketSearch, { kind: 'words' }> | null) {
    const all = sql<SqlBool>`t.search_doc @@ ${pgTsquery(words ? termsOf(words) : [], groups)}::tsquery`;
    if (words?.id == null) return all;
    const attrs = groups.length > 0 ? sql<SqlBool>` and t.search_doc @@ ${pgTsquery([], groups)}::tsquery` : sql``;
    return sql<SqlBool>`(${all} or (t.id = ${words.id}${attrs}))`;
  }

  /** The highest ticket id, read on its own (totalOf reads it with the total where it can). */
  const lastId = async () => Number((await db.selectNoFrom(HIGHEST_ID).executeTakeFirst())?.last ?? 0);

  /** The list's sort: its column, then the id. */
  const sortOf = (selection: TicketSelection) => {
    const { by, dir } = selection.sort ?? DEFAULT_TICKET_SORT;
    return { column: TICKET_FIELDS[by].sortColumn as keyof TicketsTable, dir };
  };

  /**
   * Orders a query of `ticketsQuery` by the sort. `isFar`: the page lies far into the matches'
   * order, so PostgreSQL must not walk an index in that order (a rare match would be looked
   * for through most of the table): the terms are wrapped (`coalesce(x, x)`, which no index
   * matches), and the matches are sorted.
   */
  function ordered<O>(
    q: SelectQueryBuilder<DB & { t: TicketsTable }, 't', O>,
    selection: TicketSelection,
    { id, sort }: { id: RawBuilder<unknown>; sort: RawBuilder<unknown> },
    isFar = false,
  ) {
    const { column, dir } = sortOf(selection);
    const terms = column === 'id' ? [id] : [sort, id];
    const wrap = (term: RawBuilder<unknown>) =>
      isFar && dialect === 'postgres' ? sql`coalesce(${term}, ${term})` : term;
    return terms.reduce((o, term) => o.orderBy(wrap(term), dir), q);
  }

  /**
   * PostgreSQL: the tickets that carry, for each group, one of its lexemes (attribute tokens,
   * common words), as bitmaps per block and shard of ids (`ticket_attr_blocks`): each group's
   * bitmaps (OR of its lexemes'), joined on the block and shard, and ANDed (`bits`). `blocks`
   * limits them to those blocks.
   */
  function bitmapsOf(groups: string[][], blocks?: number[]) {
    const inBlocks = blocks ? sql` and block in (${sql.join(blocks)})` : sql``;
    const groupBits = (lexemes: string[]) =>
      lexemes.length === 1
        ? sql`(select block, shard, bits from ticket_attr_blocks where token = ${lexemes[0]}${inBlocks})`
        : sql`(select block, shard, bit_or(bits) as bits from ticket_attr_blocks
               where token in (${sql.join(lexemes)})${inBlocks} group by block, shard)`;
    const names = groups.map((_, i) => sql.raw(`g${i}`));
    const from = groups.slice(1).reduce(
      (q, lexemes, i) =>
        sql`${q} join ${groupBits(lexemes)} as ${names[i + 1]}
            on ${names[i + 1]}.block = g0.block and ${names[i + 1]}.shard = g0.shard`,
      sql`${groupBits(groups[0]!)} as g0`,
    );
    return {
      from,
      bits: sql.join(
        names.map((n) => sql`${n}.bits`),
        sql` & `,
      ),
    };
  }

  /** PostgreSQL: how many tickets of each block of ids the groups' bitmaps hold (bitmapsOf); blocks of none left out. */
  async function countByBitmaps(groups: string[][]): Promise<BlockCount[]> {
    const { from, bits } = bitmapsOf(groups);
    const { rows } = await sql<{ block: number; n: number | string }>`select g0.block, sum(bit_count(${bits})) as n
      from ${from} group by g0.block`.execute(db);
    return rows.map((r) => ({ block: r.block, n: Number(r.n) })).filter((b) => b.n > 0);
  }

  /**
   * PostgreSQL: a page of ids in id order, from the bitmaps its total was counted from: the
   * counts per block tell which blocks hold the page, and only those are read and decoded
   * (ticket `id` is bit (id >> 3) & 8191 from the left of the row of block id >> 16 and shard
   * id & 7). However sparse the matches, no ticket row is read that is not on the page.
   */
  async function idsByBitmaps(
    { groups, blocks, numbered = null }: BitmapTotal,
    dir: 'asc' | 'desc',
    limit: number,
    offset: number,
  ): Promise<number[]> {
    if (numbered !== null) {
      // The numbered ticket goes in its place among the bitmaps' ids: with the id before the
      // page's, that id tells whether it lies before the page (which then starts one id earlier).
      const before = offset > 0 ? 1 : 0;
      const held = await idsByBitmaps({ groups, blocks }, dir, limit + before, offset - before);
      if (before === 1 && (held.length === 0 || inOrder(dir)(numbered, held[0]!) < 0)) return held.slice(0, limit);
      return [...held.slice(before), numbered].sort(inOrder(dir)).slice(0, limit);
    }
    let skip = offset;
    const read: number[] = [];
    let held = 0;
    for (const { block, n } of [...blocks].sort((a, b) => inOrder(dir)(a.block, b.block))) {
      if (held - skip >= limit) break;
      if (read.length === 0 && skip >= n) {
        skip -= n;
      } else {
        read.push(block);
        held += n;
      }
    }
    return (await idsInBlocks(groups, read, dir, skip + limit)).slice(skip, skip + limit);
  }

  /**
   * PostgreSQL: the first `count` ids the groups' bitmaps hold in these blocks (bitmapsOf), in
   * `dir` order. A block's shards interleave its ids (shard = id & 7), so each block's bits are
   * marked in one flag per id and read back in order, up to the count: no sort of every id.
   */
  async function idsInBlocks(groups: string[][], blocks: number[], dir: 'asc' | 'desc', count: number) {
    if (blocks.length === 0) return [];
    const { from, bits } = bitmapsOf(groups, blocks);
    const { rows } = await sql<{ block: number; shard: number; bits: string }>`select g0.block, g0.shard,
      (${bits})::text as bits from ${from}`.execute(db);
    const ids: number[] = [];
    const held = new Uint8Array(65_536);
    for (const block of [...blocks].sort(inOrder(dir))) {
      held.fill(0);
      for (const row of rows) {
        if (row.block !== block) continue;
        for (let i = row.bits.indexOf('1'); i !== -1; i = row.bits.indexOf('1', i + 1)) held[i * 8 + row.shard] = 1;
      }
      const [start, end, step] = dir === 'desc' ? [65_535, -1, -1] : [0, 65_536, 1];
      for (let i = start; i !== end && ids.length < count; i += step) if (held[i]) ids.push(block * 65_536 + i);
      if (ids.length >= count) break;
    }
    return ids;
  }

  /**
   * PostgreSQL: the lexeme groups a list is counted by from the bitmaps (countByBitmaps), each
   * met by one of its lexemes: every condition's tokens, and for each searched word the words it
   * starts that have bitmaps (`ticket_bitmap_words`, the common words), or its prefix lexeme when
   * it starts too many words to list. `isExact` when those are all the words it starts (or the
   * prefix lexeme has bitmaps): the bitmaps then count the matches, but one: `numbered`, the
   * ticket of a lone number searched, when it meets the list's conditions without holding the
   * word (the search finds that ticket too). Otherwise (a prefix of more than three characters
   * that starts too many words to list, a word few tickets hold) they count some of them: a
   * lower bound. Null when some part has none: a date range, a word no common word starts.
   */
  async function bitmapGroups(
    search: ResolvedSearch,
    conditions: Condition[],
  ): Promise<{ groups: string[][]; isExact: boolean; numbered: number | null } | null> {
    if (conditions.some((c) => c.tokens === null)) return null;
    const attrs = conditions.map((c) => c.tokens!.map((token) => `${PG_ATTR_MARK}${token}`));
    if (search.kind === 'none') return { groups: attrs, isExact: true, numbered: null };
    if (search.kind !== 'words' || !search.terms) return null;
    const words = await Promise.all(
      search.terms.map(async ({ word, terms }) => {
        const listed = db.selectFrom('ticket_bitmap_words').select('word');
        const prefix = terms === null ? pgPrefixLexeme(word) : null;
        const rows = await (
          prefix !== null
            ? listed.where('word', '=', prefix)
            : terms === null
              ? listed.where('word', '>=', word).where('word', '<', `${word}\u{10FFFF}`)
              : listed.where('word', 'in', terms)
        ).execute();
        const isAll = prefix !== null ? rows.length === 1 : terms !== null && rows.length === terms.length;
        return { common: rows.map((r) => r.word), isAll };
      }),
    );
    if (words.some((w) => w.common.length === 0)) return null;
    const isExact = words.every((w) => w.isAll);
    const numbered =
      isExact && search.id !== null && (await isNumberedOnly(search, search.id, conditions)) ? search.id : null;
    return { groups: [...words.map((w) => w.common), ...attrs], isExact, numbered };
  }

  /** PostgreSQL: whether ticket `id` meets the conditions but holds none of the words a search of its number asks for. */
  async function isNumberedOnly(search: Extract<TicketSearch, { kind: 'words' }>, id: number, conditions: Condition[]) {
    const col: Col = (column) => sql.ref(`t.${column}`);
    const row = await db
      .selectFrom('tickets as t')
      .select('t.id')
      .where('t.id', '=', id)
      .where(sql<SqlBool>`not (t.search_doc @@ ${pgTsquery(termsOf(search), [])}::tsquery)`)
      .$if(conditions.length > 0, (q) => q.where(allOnRow(conditions, col)))
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * PostgreSQL: when the search is one word of which some whole word it starts is held by more
   * tickets than the cap (`ticket_word_counts`), how many tickets hold the commonest of those
   * words (at least as many match): the matches are more than the cap, without counting them
   * (the text index reads a word's postings whole before any limit applies). Null otherwise.
   */
  async function oneCommonWordCount(search: ResolvedSearch): Promise<number | null> {
    const terms = search.kind === 'words' && search.terms?.length === 1 ? search.terms[0]!.terms : null;
    if (!terms) return null;
    const common = await db
      .selectFrom('ticket_word_counts')
      .select((eb) => eb.fn.sum<number | string>('n').as('n'))
      .where('word', 'in', terms)
      .groupBy('word')
      .having((eb) => eb.fn.sum('n'), '>', TICKET_COUNT_CAP)
      .orderBy('n', 'desc')
      .limit(1)
      .executeTakeFirst();
    return common ? Number(common.n) : null;
  }

  /**
   * SQLite: how many tickets meet every condition, counted from the attribute bitmaps
   * (`ticket_attr_bits`, migration 0054): for each chunk of 1,024 ids, the rows of the
   * conditions' tokens are joined on the chunk, a condition's tokens ORed and the conditions
   * ANDed word by word, and the bits counted. FTS5 would read every posting of each token
   * before an AND of common tokens finds its sparse matches; these read one row per token and
   * chunk. Chunks are counted in steps from the newest (where open tickets are), and the count
   * stops past the cap (always at the same chunk for the same data). Null when the text index
   * is the cheaper way: a single condition (the index stops at the cap), a condition without
   * tokens (a date range), too many tokens to join, or no condition of one token alone to start
   * the join from.
   */
  async function countByBits(conditions: Condition[]): Promise<{ n: number; highest: number } | null> {
    if (conditions.length < 2 || conditions.some((c) => c.tokens === null)) return null;
    const groups = conditions.map((c) => [...new Set(c.tokens!)]);
    const alone = groups.filter((g) => g.length === 1).map(([token]) => token!);
    if (alone.length === 0 || groups.flat().length > BITS_MAX_TOKENS) return null;
    // The join starts from the token alone in fewest chunks (an SLA state, a small queue): the
    // others are looked up in its chunks only. Rows are counted up to a bound, enough to tell.
    // The same statement reads the highest id, where the steps start (so tickets written
    // meanwhile move no step's chunks).
    const { rows: sizes } = await sql<Record<string, number | string | null>>`select ${sql.join(
      alone.map(
        (token, i) => sql`(select count(*) from (select 1 from ticket_attr_bits where token = ${token}
          limit ${sql.lit(BITS_FEW_CHUNKS)})) as ${sql.raw(`n${i}`)}`,
      ),
    )}, ${HIGHEST_ID}`.execute(db);
    const highest = Number(sizes[0]?.last ?? 0);
    const rowsOf = (i: number) => Number(sizes[0]![`n${i}`]);
    let start = 0;
    for (let i = 1; i < alone.length; i++) if (rowsOf(i) < rowsOf(start)) start = i;
    const first = alone[start]!;
    const joins: RawBuilder<unknown>[] = [];
    const terms = groups
      .filter((g) => g.length > 1 || g[0] !== first)
      .map((tokens) => {
        // A token alone must have a row in the chunk; one of several may not. `cross join` keeps
        // SQLite's join order: every other token is looked up in the first one's chunks.
        const names = tokens.map((token) => {
          const name = sql.raw(`b${joins.length + 1}`);
          joins.push(
            sql`${sql.raw(tokens.length === 1 ? 'cross join' : 'left join')} ticket_attr_bits ${name}
            on ${name}.token = ${token} and ${name}.chunk = b0.chunk`,
          );
          return name;
        });
        return (word: string) =>
          names.length === 1
            ? sql`${names[0]}.${sql.raw(word)}`
            : sql`(${sql.join(
                names.map((n) => sql`coalesce(${n}.${sql.raw(word)}, 0)`),
                sql` | `,
              )})`;
      });
    const words = ATTR_BIT_WORDS.map(
      (word) => sql`${sql.join([sql`b0.${sql.raw(word)}`, ...terms.map((term) => term(word))], sql` & `)}`,
    );
    // Compiled once: each step binds its own chunks, the last two parameters, counted back from
    // the highest id's.
    const query = sql<{ n: number | null }>`select sum(portal_bit_count(${sql.join(words)})) as n
      from ticket_attr_bits b0 ${sql.join(joins, sql` `)}
      where b0.token = ${first} and b0.chunk > ${0} and b0.chunk <= ${0}`.compile(db);
    let n = 0;
    for (let top = highest >> 10, step = BITS_FIRST_CHUNKS; ;) {
      const parameters = [...query.parameters.slice(0, -2), top - step, top];
      const { rows } = await db.executeQuery(CompiledQuery.raw(query.sql, parameters) as typeof query);
      n += Number(rows[0]?.n ?? 0);
      top -= step;
      if (n > TICKET_COUNT_CAP || top < 0) return { n, highest };
      // Next, as many chunks as the matches so far say the cap needs, a tenth more, but at most
      // as many as counted so far (the matches may thin out towards the oldest).
      const counted = (highest >> 10) - top;
      step = Math.max(
        BITS_FIRST_CHUNKS,
        Math.min(counted, Math.ceil(((TICKET_COUNT_CAP + 1 - n) * counted * 1.1) / Math.max(n, 1))),
      );
    }
  }

  /**
   * The list's total: exact from the counters (`isCounted`) when they hold its conditions, else
   * counted up to the cap; with the highest id (`highest`) where its statement can read it.
   */
  async function totalOf(
    selection: TicketSelection,
    search: ResolvedSearch,
  ): Promise<{
    total: number;
    isLowerBound: boolean;
    isCounted?: boolean;
    matches?: number;
    bitmaps?: BitmapTotal;
    highest?: number;
  }> {
    const sets = countedSets(selection);
    if (sets) {
      const stages = stagesOf(selection);
      const statuses = selection.filters?.status_id ?? [];
      // Its plan is the counters' key whatever the values: prepared, so planned once per connection.
      const counters = db
        .selectFrom('ticket_counts')
        .select(
          sql<number | string | null>`sum(case when kind = ${sql.lit(COUNT_KIND.self)} then -n else n end)`.as('n'),
        )
        .where('kind', 'in', sets.kinds)
        .where('user_id', 'in', sets.users)
        .$if(stages !== null, (q) => q.where('stage', 'in', stages!))
        .$if(statuses.length > 0, (q) => q.where('status_id', 'in', statuses))
        .select(HIGHEST_ID);
      const [row] = (await executePrepared(db, counters)).rows;
      return { total: Number(row?.n ?? 0), isLowerBound: false, isCounted: true, highest: Number(row?.last ?? 0) };
    }
    // A bound of the data, never of the clock: the same request on the same data counts the same.
    const conditions = conditionsOf(selection);
    const wordCount = dialect === 'postgres' && conditions.length === 0 ? await oneCommonWordCount(search) : null;
    if (wordCount !== null) return { total: TICKET_COUNT_CAP, isLowerBound: true, matches: wordCount };
    const counted = dialect === 'postgres' ? await bitmapGroups(search, conditions) : null;
    if (counted?.groups.length) {
      const { groups, isExact, numbered } = counted;
      const blocks = await countByBitmaps(groups);
      const n = blocks.reduce((sum, b) => sum + b.n, numbered === null ? 0 : 1);
      const isOverCap = n > TICKET_COUNT_CAP;
      if (isExact || isOverCap) {
        const bitmaps = isExact ? { groups, blocks, numbered } : undefined;
        return { total: Math.min(n, TICKET_COUNT_CAP), isLowerBound: isOverCap, matches: n, bitmaps };
      }
    }
    const bits = dialect === 'sqlite' && search.kind === 'none' ? await countByBits(conditions) : null;
    if (bits) {
      const isOverCap = bits.n > TICKET_COUNT_CAP;
      return {
        total: Math.min(bits.n, TICKET_COUNT_CAP),
        isLowerBound: isOverCap,
        matches: bits.n,
        highest: bits.highest,
      };
    }
    const { query } = ticketsQuery(selection, search, { needsRow: false });
    const { n, last } = await db
      .selectFrom(
        query
          .select(sql.lit(1).as('one'))
          .limit(TICKET_COUNT_CAP + 1)
          .as('capped'),
      )
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .select(HIGHEST_ID)
      .executeTakeFirstOrThrow();
    const isLowerBound = Number(n) > TICKET_COUNT_CAP;
    return { total: Math.min(Number(n), TICKET_COUNT_CAP), isLowerBound, highest: Number(last ?? 0) };
  }

  /**
   * The query of the page's ids, in order. The matches counted say how far into the sort order
   * the page lies (`offset + limit` pages of matches among the ids). Within WALK_ROWS the
   * order's own index is read and filtered: sorted by a column, its `(column, id)` index with
   * every condition on the row (a search stays with the text index). Farther, the matches are
   * read through the text index and sorted. Unknown `matches` (null) reads the order's index.
   * `highestId`: lastId, read once for the page (pageOf).
   */
  async function pageIdsQuery(
    selection: TicketSelection,
    search: ResolvedSearch,
    matches: number | null,
    limit: number,
    offset: number,
    highestId: () => Promise<number>,
  ) {
    const isColumnSort = sortOf(selection).column !== 'id';
    // Walking the at-risk index with no other condition reads the page's rows and no others.
    const conditions = conditionsOf(selection);
    const isOnlyAtRisk = conditions.length === 1 && atRiskWalkOf(selection) !== null;
    // Every ticket matches: the order's index skips to the page at any depth (nothing to gather).
    const isEverything = conditions.length === 0 && search.kind === 'none';
    // More matches than the count reads: their density is unknown (at least the cap's), and
    // gathering them all to sort would read at least that many; the first page walks the order.
    const isFirstOfMany = offset === 0 && matches !== null && matches > TICKET_COUNT_CAP;
    const isNear =
      matches === null ||
      isEverything ||
      isFirstOfMany ||
      isOnlyAtRisk ||
      (matches > 0 && ((offset + limit) * (await highestId())) / matches <= WALK_ROWS);
    // A search (words, a reference) reads its few matches and sorts them, rather than walk an order.
    const walk = isNear && isColumnSort && search.kind !== 'words' && search.kind !== 'reference';
    const { query, id, sort } = ticketsQuery(selection, search, { walk, needsRow: isColumnSort });
    return ordered(query.select(id.as('id')), selection, { id, sort }, !isNear)
      .limit(limit)
      .offset(offset);
  }

  /**
   * PostgreSQL: the rows of the page in id order of a list counted from the counters, of
   * `total` tickets. The walk of the ids (`tickets_walk_idx`, which holds the columns the
   * conditions read) passes over about `lastId / total` tickets for each of the list's, and
   * every ticket of others between two of its own: where others wrote the newest tickets, all
   * of those. So the walk is bounded (COUNTED_WALK_ROWS), about what the bitmaps of the list's
   * tokens cost (which hold exactly its tickets): a page it does not fill comes from them, at
   * most twice what either alone costs; a list too sparse for an even spread to fill the page
   * within the bound comes from them at once. From the bitmaps, the first block of ids in the
   * page's order is read first, and when it does not hold the page the blocks are counted to
   * find those that do (idsByBitmaps).
   */
  async function countedPage(
    selection: TicketSelection,
    search: ResolvedSearch,
    total: number,
    limit: number,
    offset: number,
    highestId: () => Promise<number>,
  ): Promise<TicketRow[]> {
    if (offset >= total) return [];
    const { dir } = sortOf(selection);
    const conditions = conditionsOf(selection);
    const expected = Math.ceil(((offset + limit) * (await highestId())) / total);
    const bound = 2 ** Math.ceil(Math.log2(Math.max(COUNTED_WALK_LEAST, expected * COUNTED_WALK_SPREAD)));
    if (bound <= COUNTED_WALK_ROWS) {
      const walked = db.selectFrom('tickets').select(COUNTED_COLUMNS).orderBy('id', dir).limit(sql.lit(bound)).as('t');
      // The walk's plan is the index's whatever the values: prepared (the bound a literal,
      // so the one plan kept knows how far the walk goes).
      const rows = await rowsIn(
        selection,
        db
          .selectFrom(walked)
          .select('t.id')
          .where(allOnRow(conditions, (column) => sql.ref(`t.${column}`)))
          .orderBy('t.id', dir)
          .limit(limit)
          .offset(offset),
        true,
      );
      if (rows.length === Math.min(limit, total - offset)) return rows;
    }
    // Every condition of a counted list is one of its tokens (countedSets): it has bitmaps.
    const { groups } = (await bitmapGroups(search, conditions))!;
    const first = await idsInBlocks(groups, [dir === 'desc' ? (await highestId()) >> 16 : 0], dir, offset + limit);
    if (first.length >= Math.min(offset + limit, total)) return rowsOf(first.slice(offset, offset + limit));
    return rowsOf(await idsByBitmaps({ groups, blocks: await countByBitmaps(groups) }, dir, limit, offset));
  }

  /**
   * The list's total and the rows of a page: in id order from the bitmaps it was counted from, or
   * for a list counted from the counters on PostgreSQL by countedPage; else the rows of
   * pageIdsQuery's ids (rowsIn). The highest id is read at most once for both, with the total
   * where its statement reads it.
   */
  async function pageOf(selection: TicketSelection, search: ResolvedSearch, limit: number, offset: number) {
    const counted = await totalOf(selection, search);
    let highest = counted.highest === undefined ? undefined : Promise.resolve(counted.highest);
    const highestId = () => (highest ??= lastId());
    // How many tickets match, or at least match when the total is a lower bound: the counted
    // number when known, else the cap and one more (the page's depth among them is guessed
    // from it, so a common word's real count keeps its far pages on the walk of the order).
    const { total, isLowerBound, isCounted, bitmaps, matches = isLowerBound ? total + 1 : total } = counted;
    const { column, dir } = sortOf(selection);
    const isById = column === 'id';
    const rows =
      isById && bitmaps
        ? await rowsOf(await idsByBitmaps(bitmaps, dir, limit, offset))
        : isById && isCounted && dialect === 'postgres' && conditionsOf(selection).length > 0
          ? await countedPage(selection, search, total, limit, offset, highestId)
          : await rowsIn(selection, await pageIdsQuery(selection, search, matches, limit, offset, highestId));
    return { total, isLowerBound, rows };
  }

  /** Ticket rows with their names (ticket-names.repository.ts), in their order. */
  async function withNames(rows: TicketRow[]): Promise<TTicket[]> {
    const named = await names.of(rows);
    return rows.map((r, i) => ticketOf(r, named[i]!));
  }

  /** The ticket rows of these ids, in the order of the ids. */
  async function rowsOf(ids: number[]): Promise<TicketRow[]> {
    if (ids.length === 0) return [];
    const rows = await db.selectFrom('tickets as t').select(TICKET_COLUMNS).where('t.id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * The ticket rows of the ids a query selects (a page's, at most a page of them), in the list's
   * order. On PostgreSQL the ids and their rows are one statement, one round trip: the order is
   * the page query's own (the sort column, then the id), applied again to its few rows; SQLite,
   * with no round trip to save, reads the ids and then their rows, which costs it less.
   * `isPrepared`: the statement's plan does not depend on its values (executePrepared).
   */
  async function rowsIn(
    selection: TicketSelection,
    ids: SelectQueryBuilder<DB, never, { id: unknown }>,
    isPrepared = false,
  ): Promise<TicketRow[]> {
    if (dialect === 'sqlite') return rowsOf((await ids.execute()).map((r) => Number(r.id)));
    const { column, dir } = sortOf(selection);
    const query = db
      .selectFrom('tickets as t')
      .select(TICKET_COLUMNS)
      .where('t.id', 'in', ids as never)
      .$if(column !== 'id', (q) => q.orderBy(sql.ref(`t.${column}`), dir))
      .orderBy('t.id', dir);
    return isPrepared ? (await executePrepared(db, query)).rows : query.execute();
  }

  /** The tickets of these ids with their names, in the order of the ids. */
  const detailsOf = async (ids: number[]): Promise<TTicket[]> => withNames(await rowsOf(ids));

  /**
   * Up to `limit` rows of the list after `after` in its order. Sorted by a column, the read goes
   * on along that column's index from the cursor, rather than sorting every match again.
   */
  async function keysetRows(
    selection: TicketSelection,
    search: ResolvedSearch,
    after: TicketCursor | null,
    limit: number,
  ): Promise<TicketRow[]> {
    const { column, dir } = sortOf(selection);
    const { query, id, sort } = ticketsQuery(selection, search, {
      walk: column !== 'id' && search.kind !== 'words' && search.kind !== 'reference',
    });
    const past = sql.raw(dir === 'desc' ? '<' : '>');
    const q = query
      .select(TICKET_COLUMNS)
      .$if(after !== null, (q) =>
        q.where(
          column === 'id'
            ? sql<SqlBool>`${id} ${past} ${idLiteral(after!.id)}`
            : sql<SqlBool>`(${sort}, ${id}) ${past} (${after!.value}, ${idLiteral(after!.id)})`,
        ),
      );
    return ordered(q, selection, { id, sort }).limit(limit).execute();
  }

  return {
    /** One page of a list and its total (exact, or TICKET_COUNT_CAP and `total_is_lower_bound`). */
    async list(selection: TicketSelection, { page, per_page }: Pick<TTicketListQuery, 'page' | 'per_page'>) {
      const search = await resolvedSearch(selection);
      if (!search) return { data: [], meta: pageMeta(0, { page, per_page }) };
      const { total, isLowerBound, rows } = await pageOf(selection, search, per_page, (page - 1) * per_page);
      const meta = pageMeta(total, { page, per_page });
      return { data: await withNames(rows), meta: isLowerBound ? { ...meta, total_is_lower_bound: true } : meta };
    },

    /** A list's total alone, as its page would give it (exact, or TICKET_COUNT_CAP and a lower bound): a saved view's badge, a Kanban column's. */
    async count(selection: TicketSelection): Promise<{ total: number; isLowerBound: boolean }> {
      const search = await resolvedSearch(selection);
      if (!search) return { total: 0, isLowerBound: false };
      const { total, isLowerBound } = await totalOf(selection, search);
      return { total, isLowerBound };
    },

    /** The tickets of these ids with their names, in the order of the ids. */
    detailsOf,

    /** A list's first tickets in its order, with their names. */
    async first(selection: TicketSelection, limit: number): Promise<TTicket[]> {
      const search = await resolvedSearch(selection);
      return search ? withNames((await pageOf(selection, search, limit, 0)).rows) : [];
    },

    /**
     * Up to `limit` tickets of the list after `after` in its order (the first ones without it),
     * with their names: a keyset page (`(column, id)` past the cursor, never an offset), so a
     * ticket that moves meanwhile neither repeats another nor hides one that stays.
     */
    async keysetPage(selection: TicketSelection, after: TicketCursor | null, limit: number) {
      const search = await resolvedSearch(selection);
      if (!search) return [];
      return withNames(await keysetRows(selection, search, after, limit));
    },

    /**
     * Every ticket of the list with its names, in its order, in batches of `size` read by
     * keyset (`(column, id)` after the last one; never an offset, never the whole result at
     * once): what the CSV export streams.
     */
    async *exportBatches(selection: TicketSelection, size: number): AsyncGenerator<TTicket[]> {
      const search = await resolvedSearch(selection);
      if (!search) return;
      const { column } = sortOf(selection);
      let last: TicketCursor | null = null;
      for (;;) {
        const rows = await keysetRows(selection, search, last, size);
        if (rows.length > 0) yield await withNames(rows);
        if (rows.length < size) return;
        const end: TicketRow = rows[rows.length - 1]!;
        last = { value: end[column] as string | number, id: end.id };
      }
    },
  };
}
export type TicketListRepository = ReturnType<typeof createTicketListRepository>;
