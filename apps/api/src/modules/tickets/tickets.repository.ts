import {
  DEFAULT_TICKET_SORT,
  RECORD_STATUS,
  TICKET_COUNT_CAP,
  type TAssignableUsersQuery,
  type TicketStage,
  type TTicket,
  type TTicketFilters,
  type TTicketListQuery,
  type TTicketSort,
} from '@portal/contract';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { likePattern, nowIso, type Database } from '../../db/database.ts';
import { countRows, pageMeta, paginate } from '../../db/paging.ts';
import type { DB, TicketsTable } from '../../db/schema.ts';
import { COUNT_KIND, createTicketIndexSync, ftsRows, syncTicketIndex } from '../../db/ticket-derivations.ts';
import { eventRow } from './ticket-events.repository.ts';
import { fts5Body, parseTicketSearch, type TicketSearch } from './ticket-search.ts';
import { createPostgresSearch } from './ticket-search.repository.ts';
import { attrGroups, createTicketListQueries, hasFilters, isIdOrder, type ListSpec } from './ticket-list.repository.ts';
import { activeUsers, selectUserSummary, toUserSummary } from '../users/user-summaries.ts';
import type { TicketNames, TicketNamesRepository } from './ticket-names.repository.ts';
import { TICKET_COLUMNS } from './ticket-columns.ts';

/** Which tickets a list shows: all, or those the user created or is assigned to (DESIGN.md). */
export type TicketScope = { kind: 'all' } | { kind: 'mine'; userId: number };

export interface TicketFilter {
  scope: TicketScope;
  search: string;
  /** `current` = not in a closed stage, `old` = closed (ticket history). */
  history?: 'current' | 'old';
  /** The list's filters and sort (issue 12); without them, all its tickets newest first. */
  filters?: TTicketFilters;
  sort?: TTicketSort;
}

/** What the ticket form writes. */
export type TicketValues = Pick<
  TicketsTable,
  'name' | 'description' | 'area_id' | 'project_id' | 'category_id' | 'priority_type_id' | 'difficulty_id' | 'status_id'
>;

const fromTickets = (db: Kysely<DB>) => db.selectFrom('tickets as t');

type TicketsQuery = ReturnType<typeof fromTickets>;

type TicketColumn = 'priority_type_id' | 'project_id' | 'area_id' | 'category_id' | 'difficulty_id';

const stagesOf = (history: TicketFilter['history']): TicketStage[] | null =>
  history === 'current' ? ['open', 'started'] : history === 'old' ? ['closed'] : null;

/** The stage of a status, read in the statement that writes the ticket. */
const stageOfStatus = (statusId: number) =>
  sql<TicketStage>`(select s.stage from ticket_statuses s where s.id = ${statusId})`;

/** No created-date range. */
const ANY_ID = { min: null, max: null };
const NEWEST_FIRST = { column: 'id', dir: 'desc' } as const;

/**
 * Up to this offset a page without search, filter or scope reads its rows whole in one
 * statement; deeper, it skips ids only (an index-only scan on PostgreSQL) and then reads ten rows.
 */
const DIRECT_MAX_OFFSET = 1_000;

/** A searched word starting more indexed words than this is read as a prefix instead. */
const MAX_PREFIX_TERMS = 32;

/** A count read up to the cap (one more row tells whether it stopped there). */
const capped = (n: number) =>
  n > TICKET_COUNT_CAP ? { total: TICKET_COUNT_CAP, isLowerBound: true } : { total: n, isLowerBound: false };

interface Slice {
  ids: number[];
  total: number;
  /** The total stopped counting at the cap: there are more. */
  isLowerBound: boolean;
}

/** A ticket as the API shows it (SPEC §3, read side): its row and the names it refers to. */
const ticketOf = (r: Omit<Selectable<TicketsTable>, 'stage'>, names: TicketNames): TTicket => ({
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
  priorities: { name: names.priority },
  status_tickets: names.status,
  projects: { name: names.project },
  areas: { name: names.area },
  categories: { name: names.category },
  difficulties: { name: names.difficulty },
  users: { id: r.created_by, name: names.creator },
  assigned_to: r.user_assigned_id === null ? null : { id: r.user_assigned_id, name: names.assignee },
});

/** The catalogue of each value a ticket refers to. */
const referenceTables: [keyof TicketValues, keyof DB][] = [
  ['area_id', 'areas'],
  ['project_id', 'projects'],
  ['category_id', 'categories'],
  ['priority_type_id', 'priority_types'],
  ['difficulty_id', 'difficulties'],
  ['status_id', 'ticket_statuses'],
];

type ReferenceField = keyof TicketValues;

/** What `references` finds: the fields without an active row, and the names of the rows found. */
export interface TicketReferences {
  missing: ReferenceField[];
  names: Record<ReferenceField | 'created_by', string>;
}

interface ReferenceRow {
  field: ReferenceField | 'created_by';
  name: string;
  status_id: number;
}

/**
 * One query for the catalogue rows a ticket's values refer to (and the user `creatorId`,
 * as field `created_by`): field, name and status of each row found.
 */
function referencesQuery(values: TicketValues, creatorId?: number) {
  const branches = referenceTables.map(
    ([field, table]) =>
      sql`select ${sql.lit(field)} as field, name, status_id from ${sql.table(table)} where id = ${Number(values[field])}`,
  );
  if (creatorId !== undefined) {
    branches.push(
      sql`select 'created_by' as field, name || ' ' || last_name as name, status_id from users where id = ${creatorId}`,
    );
  }
  return sql<ReferenceRow>`${sql.join(branches, sql` union all `)}`;
}

const referencesOf = (rows: ReferenceRow[]): TicketReferences => {
  const active = new Set(rows.filter((r) => Number(r.status_id) === RECORD_STATUS.active).map((r) => r.field));
  return {
    missing: referenceTables.map(([field]) => field).filter((f) => !active.has(f)),
    names: Object.fromEntries(rows.map((r) => [r.field, r.name])) as TicketReferences['names'],
  };
};

export function createTicketsRepository(database: Database, names: TicketNamesRepository) {
  const { db } = database;
  const indexSync = createTicketIndexSync(database);
  const listQueries = createTicketListQueries(database);
  const postgresSearch = createPostgresSearch(db);

  const specOf = (filter: TicketFilter, search: TicketSearch): ListSpec => ({
    scope: filter.scope,
    stages: stagesOf(filter.history),
    search,
    filters: filter.filters ?? {},
    sort: filter.sort ?? DEFAULT_TICKET_SORT,
  });

  /** The list's scope and stage as attribute tokens of the text index. */
  const attrsOf = (filter: TicketFilter) => attrGroups({ scope: filter.scope, filters: {} }, stagesOf(filter.history));

  /** The plain lists (newest first, no filter) keep their own paths below; the rest go to ticket-list.repository.ts. */
  const isPlain = (filter: TicketFilter) => {
    const sort = filter.sort ?? DEFAULT_TICKET_SORT;
    return !hasFilters(filter.filters ?? {}) && isIdOrder(sort) && sort.dir === 'desc';
  };

  type TicketsExpressions = ExpressionBuilder<DB & { t: TicketsTable }, 't'>;

  /** The list's stage as a condition on the tickets row `t`. */
  const stageOf = (filter: TicketFilter) => (eb: TicketsExpressions) => {
    const stages = stagesOf(filter.history);
    if (!stages) return eb.and([]);
    // `<> 'closed'` is the predicate of the partial index tickets_current_idx.
    return filter.history === 'current' ? eb('t.stage', '<>', 'closed') : eb('t.stage', 'in', stages);
  };

  /** The list's scope and stage as conditions on the tickets row `t`. */
  const scopeAndStage = (filter: TicketFilter) => (eb: TicketsExpressions) => {
    const conditions: Expression<SqlBool>[] = [stageOf(filter)(eb)];
    const { scope } = filter;
    if (scope.kind === 'mine') {
      conditions.push(eb.or([eb('t.created_by', '=', scope.userId), eb('t.user_assigned_id', '=', scope.userId)]));
    }
    return eb.and(conditions);
  };

  /**
   * A page without a search, newest first. Mis Tickets merges the newest ids of
   * "created by" and "assigned to", each read in order from its own index, so
   * neither set is read whole nor sorted.
   */
  async function unsearchedIds(filter: TicketFilter, limit: number, offset: number): Promise<number[]> {
    const { scope } = filter;
    if (scope.kind === 'all') {
      // Ids only: a deep page skips its offset in the id index (index-only on PostgreSQL), not in the rows.
      return (await allScopePage(filter, limit, offset).select('t.id').execute()).map((r) => r.id);
    }
    const newestOf = (column: 't.created_by' | 't.user_assigned_id') =>
      db.selectFrom(
        fromTickets(db)
          .select('t.id')
          .where(column, '=', scope.userId)
          .where(stageOf(filter))
          .orderBy('t.id', 'desc')
          .limit(offset + limit)
          .as('newest'),
      );
    const rows = await newestOf('t.created_by')
      .select('newest.id')
      .union(newestOf('t.user_assigned_id').select('newest.id'))
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => r.id);
  }

  /** A page of every ticket (in a stage), newest first, in the id order. */
  const allScopePage = (filter: TicketFilter, limit: number, offset: number) =>
    fromTickets(db).where(scopeAndStage(filter)).orderBy('t.id', 'desc').limit(limit).offset(offset);

  /** The exact size of a list without a search, from the maintained counters. */
  async function countedTotal(filter: TicketFilter): Promise<number> {
    const { scope } = filter;
    const stages = stagesOf(filter.history);
    const row = await db
      .selectFrom('ticket_counts')
      .select(
        sql<number | string | null>`sum(case when kind = ${sql.lit(COUNT_KIND.self)} then -n else n end)`.as('total'),
      )
      .$if(scope.kind === 'all', (q) => q.where('kind', '=', COUNT_KIND.all).where('user_id', '=', 0))
      .$if(scope.kind === 'mine', (q) =>
        q
          .where('kind', 'in', [COUNT_KIND.created, COUNT_KIND.assigned, COUNT_KIND.self])
          .where('user_id', '=', scope.kind === 'mine' ? scope.userId : 0),
      )
      .$if(stages !== null, (q) => q.where('stage', 'in', stages!))
      .executeTakeFirstOrThrow();
    return Number(row.total ?? 0);
  }

  /** Counts the rows of a query up to the cap, reading no further. */
  const countUpToCap = async (query: TicketsQuery): Promise<Pick<Slice, 'total' | 'isLowerBound'>> => {
    const { n } = await db
      .selectFrom(
        query
          .select(sql.lit(1).as('one'))
          .limit(TICKET_COUNT_CAP + 1)
          .as('capped'),
      )
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return capped(Number(n));
  };

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
   * The search as the indexes will read it: each word becomes the whole indexed
   * words it starts (`ticket_words`, both dialects); a word that starts none leaves
   * only the ticket number (or nothing) to find. Pending index rows are written first, a
   * bounded step of them (syncTicketIndex, SQLite; `ftsRows` matches the rest), as filters
   * read the index too.
   */
  async function resolvedSearch(search: TicketSearch): Promise<TicketSearch> {
    await syncTicketIndex(db, database.dialect, true);
    if (search.kind !== 'words') return search;
    const terms = await Promise.all(search.words.map(async (word) => ({ word, terms: await wordsStartingWith(word) })));
    if (terms.some((w) => w.terms?.length === 0)) {
      return search.id === null ? { kind: 'words', words: [], id: null } : { kind: 'id', id: search.id };
    }
    return { ...search, terms };
  }

  /**
   * SQLite: the FTS5 index answers the whole search, its scope and stage included
   * (they are tokens of the `attrs` column), in id order and without reading tickets.
   */
  async function sqliteSearch(
    filter: TicketFilter,
    search: Extract<TicketSearch, { kind: 'words' }>,
    limit: number,
    offset: number,
  ): Promise<Slice> {
    const parts = [fts5Body(search)];
    for (const tokens of attrsOf(filter)) parts.push(`{attrs} : (${tokens.join(' OR ')})`);
    const match = parts.join(' AND ');
    const { rows } = await sql<{ id: number }>`
      select rowid as id from ${ftsRows(match)}
      order by rowid desc limit ${sql.lit(limit)} offset ${sql.lit(offset)}`.execute(db);
    const {
      rows: [count],
    } = await sql<{ n: number }>`
      select count(*) as n from (select rowid from ${ftsRows(match)}
      limit ${sql.lit(TICKET_COUNT_CAP + 1)})`.execute(db);
    const n = Number(count?.n ?? 0);
    return { ids: rows.map((r) => r.id), ...capped(n) };
  }

  /** An exact `#id`: conditions on the tickets row, no text index needed. */
  async function idSearch(filter: TicketFilter, id: number, limit: number, offset: number): Promise<Slice> {
    const query = fromTickets(db).where(scopeAndStage(filter)).where('t.id', '=', id);
    const rows = await query.select('t.id').orderBy('t.id', 'desc').limit(limit).offset(offset).execute();
    return { ids: rows.map((r) => r.id), ...(await countUpToCap(query)) };
  }

  /** A search that can find nothing: no word in the text, or a word no indexed word starts. */
  const isNothing = (search: TicketSearch) => search.kind === 'words' && search.words.length === 0;

  async function searchedSlice(filter: TicketFilter, search: TicketSearch, limit: number, offset: number) {
    if (search.kind === 'id') return idSearch(filter, search.id, limit, offset);
    if (search.kind === 'none') throw new Error('searchedSlice needs a search');
    return database.dialect === 'sqlite'
      ? sqliteSearch(filter, search, limit, offset)
      : postgresSearch
          .slice({ search, attrs: attrsOf(filter), range: ANY_ID, sort: NEWEST_FIRST }, limit, offset)
          .then((found) => ({ ...found, ids: found.ids ?? [] }));
  }

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
        ...TICKET_COLUMNS,
        nameOf('priority_types', 'priority_type_id').$asScalar().$notNull().as('priority_name'),
        status().select('x.name').$asScalar().$notNull().as('status_name'),
        nameOf('projects', 'project_id').$asScalar().$notNull().as('project_name'),
        nameOf('areas', 'area_id').$asScalar().$notNull().as('area_name'),
        nameOf('categories', 'category_id').$asScalar().$notNull().as('category_name'),
        nameOf('difficulties', 'difficulty_id').$asScalar().$notNull().as('difficulty_name'),
        userName('t.created_by').$asScalar().$notNull().as('creator_name'),
        userName('t.user_assigned_id').as('assignee_name'),
      ];
    });

  type DetailRow = Awaited<ReturnType<ReturnType<typeof withDetails>['executeTakeFirstOrThrow']>>;

  const toTicket = (r: DetailRow): TTicket =>
    ticketOf(r, {
      priority: r.priority_name,
      status: { name: r.status_name, stage: r.stage },
      project: r.project_name,
      area: r.area_name,
      category: r.category_name,
      difficulty: r.difficulty_name,
      creator: r.creator_name,
      assignee: r.assignee_name ?? '',
    });

  /** Ticket rows with their names (ticket-names.repository.ts), in their order. */
  async function withNames(rows: Selectable<TicketsTable>[]): Promise<TTicket[]> {
    const named = await names.of(rows);
    return rows.map((r, i) => ticketOf(r, named[i]!));
  }

  /** The tickets of these ids with their details, in the order of the ids. */
  async function detailsOf(ids: number[]): Promise<TTicket[]> {
    if (ids.length === 0) return [];
    const rows = await fromTickets(db).select(TICKET_COLUMNS).where('t.id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return withNames(ids.flatMap((id) => byId.get(id) ?? []));
  }

  return {
    /**
     * One page, newest first, in two steps: the page's ids (and its total), then
     * those rows only (the first pages of a plain list, in one). Without a search the total comes from the
     * counters; with one it is counted up to TICKET_COUNT_CAP and then flagged
     * as a lower bound (ARCHITECTURE.md, "Tickets at scale"). Filters and sorts
     * other than newest first: ticket-list.repository.ts.
     */
    async list(filter: TicketFilter, { page, per_page }: Pick<TTicketListQuery, 'page' | 'per_page'>) {
      const offset = (page - 1) * per_page;
      const parsed = parseTicketSearch(filter.search);
      if (isPlain(filter) && parsed.kind === 'none' && filter.scope.kind === 'all' && offset <= DIRECT_MAX_OFFSET) {
        // The plainest page: its rows in one statement, its total from the counters beside it.
        const [rows, total] = await Promise.all([
          allScopePage(filter, per_page, offset).select(TICKET_COLUMNS).execute(),
          countedTotal(filter),
        ]);
        return { data: await withNames(rows), meta: pageMeta(total, { page, per_page }) };
      }
      // Filtered lists and searches read the text index (SQLite: FTS5 `attrs`): brought up to date first.
      const search = await resolvedSearch(parsed);
      const slice: Slice = isNothing(search)
        ? { ids: [], total: 0, isLowerBound: false }
        : !isPlain(filter)
          ? await listQueries.slice(specOf(filter, search), per_page, offset)
          : search.kind === 'none'
            ? {
                ids: await unsearchedIds(filter, per_page, offset),
                total: await countedTotal(filter),
                isLowerBound: false,
              }
            : await searchedSlice(filter, search, per_page, offset);
      const data = await detailsOf(slice.ids);
      const meta = pageMeta(slice.total, { page, per_page });
      return { data, meta: slice.isLowerBound ? { ...meta, total_is_lower_bound: true } : meta };
    },

    /** Every ticket of the list with its details, in its order, in batches of `size` (the CSV export). */
    async *exportBatches(filter: TicketFilter, size: number): AsyncGenerator<TTicket[]> {
      const search = await resolvedSearch(parseTicketSearch(filter.search));
      if (isNothing(search)) return;
      for await (const rows of listQueries.batches(specOf(filter, search), size)) yield await withNames(rows);
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

    /**
     * Writes a new ticket and its 'created' event if every catalogue value it refers to is
     * active, and returns it as the API shows it, with the names read with the references
     * (no read-back); otherwise returns the fields at fault and writes nothing. PostgreSQL
     * does it all in one statement (its own transaction: one round trip); SQLite reads the
     * references, then writes both rows in one transaction.
     */
    async create(
      values: TicketValues,
      createdBy: number,
    ): Promise<{ ticket: TTicket } | { missing: ReferenceField[] }> {
      const now = nowIso();
      const event = eventRow({ ticketId: 0, userId: createdBy, kind: 'created' }, now);
      let row: Selectable<TicketsTable> | undefined;
      let references: TicketReferences;
      if (database.dialect === 'postgres') {
        const v = (field: keyof TicketValues) => sql`${Number(values[field])}::int`;
        const { rows } = await sql<Selectable<TicketsTable> & { refs: ReferenceRow[] }>`
          with r as (${referencesQuery(values, createdBy)}),
          t as (
            insert into tickets (name, description, area_id, project_id, category_id, priority_type_id,
              difficulty_id, status_id, stage, created_by, user_assigned_id, created_at, updated_at)
            select ${values.name}::text, ${values.description}::text, ${v('area_id')}, ${v('project_id')},
              ${v('category_id')}, ${v('priority_type_id')}, ${v('difficulty_id')}, ${v('status_id')},
              ${stageOfStatus(values.status_id)}, ${createdBy}::int, null, ${now}::timestamptz, ${now}::timestamptz
            where (select count(*) from r where r.field <> 'created_by' and r.status_id = ${RECORD_STATUS.active})
              = ${referenceTables.length}
            returning *
          ),
          e as (
            insert into ticket_events (ticket_id, user_id, kind, created_at)
            select t.id, ${event.user_id}::int, ${event.kind}::text, ${now}::timestamptz from t
          )
          select (select json_agg(r) from r) as refs, t.* from (select 1) as one left join t on true`.execute(db);
        const [result] = rows;
        references = referencesOf(result?.refs ?? []);
        row = result?.id === null || result?.id === undefined ? undefined : result;
      } else {
        references = referencesOf(
          await referencesQuery(values, createdBy)
            .execute(db)
            .then((r) => r.rows),
        );
        if (references.missing.length > 0) return { missing: references.missing };
        row = await db.transaction().execute(async (trx) => {
          const inserted = await trx
            .insertInto('tickets')
            .values({
              ...values,
              stage: stageOfStatus(values.status_id),
              created_by: createdBy,
              user_assigned_id: null,
              created_at: now,
              updated_at: now,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('ticket_events')
            .values({ ...event, ticket_id: inserted.id })
            .execute();
          return inserted;
        });
        indexSync.queued();
      }
      if (!row) return { missing: references.missing };
      const { names } = references;
      return {
        ticket: ticketOf(row, {
          priority: names.priority_type_id,
          status: { name: names.status_id, stage: row.stage },
          project: names.project_id,
          area: names.area_id,
          category: names.category_id,
          difficulty: names.difficulty_id,
          creator: names.created_by,
          assignee: '',
        }),
      };
    },

    async update(id: number, values: TicketValues, trx: Kysely<DB> = db): Promise<void> {
      await trx
        .updateTable('tickets')
        .set({ ...values, stage: stageOfStatus(values.status_id), updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
      indexSync.queued();
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
      indexSync.queued();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The fields whose catalogue row is missing or inactive, and the names of the others. */
    async references(values: TicketValues): Promise<TicketReferences> {
      return referencesOf(
        await referencesQuery(values)
          .execute(db)
          .then((r) => r.rows),
      );
    },

    /** The caller's newest tickets, for the profile card. */
    async lastOf(userId: number, limit: number) {
      const ids = await unsearchedIds({ scope: { kind: 'mine', userId }, search: '' }, limit, 0);
      if (ids.length === 0) return [];
      const rows = await withDetails(fromTickets(db)).where('t.id', 'in', ids).orderBy('t.id', 'desc').execute();
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        description: r.description,
        created_at: r.created_at,
        priorities: { name: r.priority_name },
        difficulties: { name: r.difficulty_name },
        status_tickets: { name: r.status_name, stage: r.stage },
      }));
    },

    /** Active users a ticket can be assigned to, by name, paginated. */
    async assignableUsers({ search, ...paging }: TAssignableUsersQuery) {
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

    /** A user's full name as the lists show it, for the timeline. */
    async userName(id: number | null, trx: Kysely<DB> = db): Promise<string | null> {
      if (id === null) return null;
      const row = await trx
        .selectFrom('users as u')
        .select(sql<string>`u.name || ' ' || u.last_name`.as('full_name'))
        .where('u.id', '=', id)
        .executeTakeFirst();
      return row?.full_name ?? null;
    },

    /** Brings the text index up to the last writes now and stops syncing it (the app closes). */
    closeIndexSync: () => indexSync.close(),

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
