import { TICKET_COUNT_CAP } from '@portal/contract';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { COUNT_KIND } from '../../db/ticket-derivations.ts';
import { pgTsquery, termsOf, type TicketSearch } from './ticket-search.ts';

/** How many of the newest (or oldest) tickets of the range are read in id order before the text index. */
export const NEWEST_WINDOW = 2_000;

/**
 * Before a total past the cap is claimed from the newest tickets, the whole range is sampled:
 * this many stretches of consecutive ids, evenly spread, each STRETCH_IDS long.
 */
const SAMPLE_STRETCHES = 200;
const STRETCH_IDS = 10;

export interface PgSearchSpec {
  search: Extract<TicketSearch, { kind: 'words' }>;
  /** The scope, stages and filters as attribute groups (ticket-list.repository.ts `attrGroups`). */
  attrs: string[][];
  /** The id range of a created-date filter. */
  range: { min: number | null; max: number | null };
  /** The list's order: by this column, then by id. */
  sort: { column: 'id' | 'name' | 'priority_type_id' | 'status_id' | 'project_id' | 'updated_at'; dir: 'asc' | 'desc' };
}

export interface PgSearchSlice {
  ids: number[] | null;
  total: number;
  isLowerBound: boolean;
}

const capped = (n: number) =>
  n > TICKET_COUNT_CAP ? { total: TICKET_COUNT_CAP, isLowerBound: true } : { total: n, isLowerBound: false };

/**
 * A PostgreSQL ticket search, answered by `search_doc` alone: the words
 * (each as the whole indexed words it starts) and the list's scope, stages and filters
 * (attribute lexemes, db/ticket-derivations.ts) are one tsquery, so the GIN index
 * intersects them all and the heap is read only for tickets that match everything.
 *
 * GIN has no order, so two readings are chosen between (ARCHITECTURE.md, "Tickets at scale"):
 * 1. the newest NEWEST_WINDOW tickets of the range, in id order, each checked against the
 *    query (a few hundred heap pages, hot): a common match fills the page there, and the
 *    share of matches, times the tickets of the range (`ticket_counts`, not the id span:
 *    ids have gaps), tells whether the total may clearly pass TICKET_COUNT_CAP. The newest
 *    tickets alone would say so of a burst (fifty new tickets about one flood, out of a
 *    million), so the range is then sampled evenly (SAMPLE_STRETCHES) and must say so too;
 * 2. otherwise the match is rare: one bitmap scan of the index (forced by `SET LOCAL`)
 *    reads the matching rows up to the cap, giving both the count and the page. Only
 *    when those pass the cap, yet the page was not in the window, the page walks the
 *    primary key in order (a match at least one ticket in a hundred then).
 * In another order than id the window only estimates; the bitmap scan sorts its matches
 * by that column, and past the cap the caller walks the column's index.
 */
export function createPostgresSearch(db: Kysely<DB>) {
  /** The search as a condition on `tickets`. */
  function conditionOf(spec: PgSearchSpec): RawBuilder<SqlBool> {
    const { search, attrs, range } = spec;
    const words = sql<SqlBool>`search_doc @@ ${pgTsquery(termsOf(search), attrs)}::tsquery`;
    const attrsOnly = attrs.length > 0 ? sql<SqlBool>` and search_doc @@ ${pgTsquery([], attrs)}::tsquery` : sql``;
    const text = search.id === null ? words : sql<SqlBool>`(${words} or (id = ${search.id}${attrsOnly}))`;
    const bounds = [
      ...(range.min === null ? [] : [sql<SqlBool>`id >= ${range.min}`]),
      ...(range.max === null ? [] : [sql<SqlBool>`id <= ${range.max}`]),
    ];
    return sql.join([...bounds, text], sql` and `) as RawBuilder<SqlBool>;
  }

  const inRange = (spec: PgSearchSpec) =>
    sql.join(
      [
        spec.range.min === null ? sql`true` : sql`id >= ${spec.range.min}`,
        spec.range.max === null ? sql`true` : sql`id <= ${spec.range.max}`,
      ],
      sql` and `,
    );

  /** Runs queries under planner settings of this transaction only. */
  const withSettings = <T>(settings: string[], run: (trx: Kysely<DB>) => Promise<T>) =>
    db.transaction().execute(async (trx) => {
      await sql`select ${sql.join(settings.map((s) => sql`set_config(${s}, 'off', true)`))}`.execute(trx);
      return run(trx);
    });

  /** The share of the range's tickets that match, from SAMPLE_STRETCHES stretches of ids spread evenly over it. */
  async function sampledShare(condition: RawBuilder<SqlBool>, min: number, span: number): Promise<number> {
    const step = Math.max(STRETCH_IDS, Math.floor(span / SAMPLE_STRETCHES));
    // The `limit` tells the planner how little each stretch reads: without it the guess is a
    // million rows and JIT compiles the query (50 ms instead of 1 ms at a million tickets).
    const {
      rows: [sample],
    } = await sql<{ hits: number | string; n: number | string }>`
      select count(*) filter (where ${condition}) as hits, count(*) as n
      from generate_series(0, ${sql.lit(SAMPLE_STRETCHES - 1)}) k,
        lateral (select id, search_doc from tickets
                 where id >= ${sql.lit(min)} + k * ${sql.lit(step)}
                   and id < ${sql.lit(min)} + k * ${sql.lit(step)} + ${sql.lit(STRETCH_IDS)}
                 limit ${sql.lit(STRETCH_IDS)}) t`.execute(db);
    const n = Number(sample?.n ?? 0);
    return n === 0 ? 0 : Number(sample?.hits ?? 0) / n;
  }

  return {
    /**
     * One page and the total of the search, in the order of `sort` (`id`, or another
     * column then id). `ids` is null when the page is the caller's to read by walking
     * the index of that column (the matches are then past the cap, so dense).
     */
    async slice(spec: PgSearchSpec, limit: number, offset: number): Promise<PgSearchSlice> {
      if (spec.search.words.length === 0) return { ids: [], total: 0, isLowerBound: false };
      const { column, dir: direction } = spec.sort;
      const byId = column === 'id';
      const dir = sql.raw(direction);
      const condition = conditionOf(spec);
      const {
        rows: [window],
      } = await sql<{
        ids: number[];
        n: number | string;
        tickets: number | string;
        span: number;
        rangeMin: number;
        rangeSpan: number;
      }>`
        select coalesce(array_agg(w.id order by w.id ${dir}) filter (where w.hit), '{}') as ids, count(*) as n,
          (select coalesce(sum(c.n), 0) from ticket_counts c where c.kind = ${COUNT_KIND.all}) as tickets,
          (select max(id) - min(id) + 1 from tickets) as span,
          (select min(id) from tickets where ${inRange(spec)}) as "rangeMin",
          (select max(id) - min(id) + 1 from tickets where ${inRange(spec)}) as "rangeSpan"
        from (select id, ${condition} as hit from tickets where ${inRange(spec)}
              order by id ${dir} limit ${sql.lit(NEWEST_WINDOW)}) w`.execute(db);
      const hits = window?.ids ?? [];
      const read = Number(window?.n ?? 0);
      const whole = read < NEWEST_WINDOW;
      if (whole && byId) return { ids: hits.slice(offset, offset + limit), ...capped(hits.length) };

      // The window's share of matches, over the tickets of the range (the counters know how many
      // tickets there are; a date range holds its share of the ids).
      const inRangeTickets = (Number(window?.tickets ?? 0) * (window?.rangeSpan ?? 0)) / Math.max(1, window?.span ?? 1);
      const filled = byId && hits.length >= offset + limit;
      const isPastCap = (share: number) => share * inRangeTickets >= 2 * TICKET_COUNT_CAP;
      if (
        isPastCap(whole ? 0 : hits.length / read) &&
        (filled || !byId) &&
        isPastCap(await sampledShare(condition, window?.rangeMin ?? 0, window?.rangeSpan ?? 0))
      ) {
        return { ids: byId ? hits.slice(offset, offset + limit) : null, ...capped(Infinity) };
      }

      const {
        rows: [matched],
      } = await withSettings(['enable_indexscan', 'enable_indexonlyscan', 'enable_seqscan'], (trx) =>
        sql<{ n: number | string; ids: number[] | null }>`
          select count(*) as n,
            (array_agg(m.id order by ${byId ? sql`` : sql`m.v ${dir}, `}m.id ${dir}))[${offset + 1}:${offset + limit}] as ids
          from (select id, ${sql.ref(column)} as v from tickets where ${condition}
                limit ${sql.lit(TICKET_COUNT_CAP + 1)}) m`.execute(trx),
      );
      const n = Number(matched?.n ?? 0);
      if (n <= TICKET_COUNT_CAP) return { ids: matched?.ids ?? [], total: n, isLowerBound: false };
      if (!byId) return { ids: null, ...capped(n) };
      if (filled) return { ids: hits.slice(offset, offset + limit), ...capped(n) };
      const { rows } = await withSettings(['enable_bitmapscan', 'enable_seqscan'], (trx) =>
        sql<{ id: number }>`select id from tickets where ${condition}
          order by id ${dir} limit ${sql.lit(limit)} offset ${sql.lit(offset)}`.execute(trx),
      );
      return { ids: rows.map((r) => r.id), ...capped(n) };
    },
  };
}
export type PostgresSearch = ReturnType<typeof createPostgresSearch>;
