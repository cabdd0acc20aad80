import type { TicketStage } from '@portal/contract';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { COUNT_KIND } from '../../db/ticket-derivations.ts';

export interface ReportFilter {
  /** First and last day (`YYYY-MM-DD`, UTC), both included. */
  from: string;
  to: string;
  areaId: number | null;
  projectId: number | null;
}

export interface UserClosures {
  closed: number;
  /** Seconds; null without closures. */
  median: number | null;
}
export interface Closures extends UserClosures {
  perUser: Map<number, UserClosures>;
}

/** The median of the values (the mean of the two middle ones for an even count); sorts them in place. */
function medianOf(values: Float64Array): number | null {
  if (values.length === 0) return null;
  values.sort();
  const mid = (values.length - 1) >> 1;
  return values.length % 2 === 1 ? values[mid]! : (values[mid]! + values[mid + 1]!) / 2;
}

type Filtered =
  | 'ticket_report_now'
  | 'ticket_report_backlog'
  | 'ticket_report_daily'
  | 'ticket_closures'
  | 'ticket_report_sla_daily'
  | 'ticket_report_sla_now';

/** SLA outcomes of one day. */
export interface SlaDay {
  day: string;
  resolution_met: number;
  resolution_breached: number;
  response_met: number;
  response_breached: number;
}

/** Reads the dashboard's maintained figures (db/ticket-report-derivations.ts); never the tickets. */
export function createReportsRepository(database: Database) {
  const { db } = database;

  const byFilter =
    ({ areaId, projectId }: ReportFilter) =>
    <T extends Filtered>(eb: ExpressionBuilder<DB, T>) => {
      const e = eb as unknown as ExpressionBuilder<DB, 'ticket_closures'>;
      return e.and([
        ...(areaId === null ? [] : [e('area_id', '=', areaId)]),
        ...(projectId === null ? [] : [e('project_id', '=', projectId)]),
      ]);
    };

  /** The instants bounding a range of days: [from 00:00, to + 1 day 00:00) UTC, as ISO text. */
  const bounds = (filter: ReportFilter) => {
    const end = new Date(Date.parse(`${filter.to}T00:00:00.000Z`) + 86_400_000).toISOString();
    return { start: `${filter.from}T00:00:00.000Z`, end };
  };

  /** The range's closures (from the covering index of `closed_at`). */
  const closuresOf = (filter: ReportFilter) => {
    const { start, end } = bounds(filter);
    return db
      .selectFrom('ticket_closures')
      .where('closed_at', '>=', start)
      .where('closed_at', '<', end)
      .where(byFilter(filter));
  };
  return {
    /** Tickets not closed, per area, project, stage and priority (summed over shards). */
    backlog: (filter: ReportFilter) =>
      db
        .selectFrom('ticket_report_backlog')
        .where(byFilter(filter))
        .groupBy(['area_id', 'project_id', 'stage', 'priority_type_id'])
        .select((eb) => ['area_id', 'project_id', 'stage', 'priority_type_id', eb.fn.sum<number | string>('n').as('n')])
        .execute()
        .then((rows) => rows.map((r) => ({ ...r, stage: r.stage as TicketStage, n: Number(r.n) }))),

    /**
     * Tickets not closed per assignee (0: nobody). Without an area or project, the lists'
     * counters hold it (`ticket_counts`, a few rows per user) rather than every area, project
     * and priority of each user.
     */
    backlogPerUser: (filter: ReportFilter) =>
      (filter.areaId === null && filter.projectId === null
        ? db
            .selectFrom('ticket_counts')
            .where('kind', '=', COUNT_KIND.assigned)
            .where('stage', '<>', 'closed')
            .groupBy('user_id')
            .select((eb) => ['user_id', eb.fn.sum<number | string>('n').as('n')])
        : db
            .selectFrom('ticket_report_now')
            .where(byFilter(filter))
            .groupBy('user_id')
            .select((eb) => ['user_id', eb.fn.sum<number | string>('n').as('n')])
      )
        .execute()
        .then((rows) => rows.map((r) => ({ user_id: r.user_id, n: Number(r.n) }))),

    /** Created and closed per day of the range (days without either omitted). */
    daily: (filter: ReportFilter) =>
      db
        .selectFrom('ticket_report_daily')
        .where('day', '>=', filter.from)
        .where('day', '<=', filter.to)
        .where(byFilter(filter))
        .groupBy('day')
        .select((eb) => [
          'day',
          eb.fn.sum<number | string>('created').as('created'),
          eb.fn.sum<number | string>('closed').as('closed'),
        ])
        .execute()
        .then((rows) => rows.map((r) => ({ day: r.day, created: Number(r.created), closed: Number(r.closed) }))),

    /**
     * The range's closures per user (0: nobody) and in all, each with its median seconds to
     * close. PostgreSQL sorts them itself (an ordered-set aggregate per grouping set); SQLite,
     * which has none, hands over the (user, seconds) pairs, sorted here as typed arrays.
     */
    async closures(filter: ReportFilter): Promise<Closures> {
      if (database.dialect === 'postgres') {
        const rows = await closuresOf(filter)
          .select([
            'user_id',
            sql<number>`count(*)`.as('closed'),
            sql<number>`percentile_cont(0.5) within group (order by seconds)`.as('median'),
          ])
          .groupBy(sql`grouping sets ((user_id), ())`)
          .execute();
        const perUser = new Map<number, UserClosures>();
        let all: UserClosures = { closed: 0, median: null };
        for (const r of rows) {
          const figures = { closed: Number(r.closed), median: r.median === null ? null : Number(r.median) };
          if (r.user_id === null) all = figures;
          else perUser.set(r.user_id, figures);
        }
        return { perUser, ...all };
      }
      const rows = await closuresOf(filter).select(['user_id', 'seconds']).execute();
      const counts = new Map<number, number>();
      for (const r of rows) counts.set(r.user_id, (counts.get(r.user_id) ?? 0) + 1);
      const values = new Map([...counts].map(([user, n]) => [user, { array: new Float64Array(n), filled: 0 }]));
      const all = new Float64Array(rows.length);
      rows.forEach((r, i) => {
        const v = values.get(r.user_id)!;
        v.array[v.filled++] = r.seconds;
        all[i] = r.seconds;
      });
      return {
        perUser: new Map([...values].map(([user, v]) => [user, { closed: v.filled, median: medianOf(v.array) }])),
        closed: rows.length,
        median: medianOf(all),
      };
    },

    /** Tickets not resolved at risk and overdue now. */
    async slaNow(filter: ReportFilter): Promise<{ at_risk: number; breached: number }> {
      const rows = await db
        .selectFrom('ticket_report_sla_now')
        .where(byFilter(filter))
        .groupBy('sla_state')
        .select((eb) => ['sla_state', eb.fn.sum<number | string>('n').as('n')])
        .execute();
      const of = (state: string) => Number(rows.find((r) => r.sla_state === state)?.n ?? 0);
      return { at_risk: of('at_risk'), breached: of('breached') };
    },

    /** SLA outcomes per decision day of the range (days without any omitted). */
    slaDaily: (filter: ReportFilter): Promise<SlaDay[]> =>
      db
        .selectFrom('ticket_report_sla_daily')
        .where('day', '>=', filter.from)
        .where('day', '<=', filter.to)
        .where(byFilter(filter))
        .groupBy('day')
        .select((eb) => [
          'day',
          eb.fn.sum<number | string>('resolution_met').as('resolution_met'),
          eb.fn.sum<number | string>('resolution_breached').as('resolution_breached'),
          eb.fn.sum<number | string>('response_met').as('response_met'),
          eb.fn.sum<number | string>('response_breached').as('response_breached'),
        ])
        .execute()
        .then((rows) =>
          rows.map((r) => ({
            day: r.day,
            resolution_met: Number(r.resolution_met),
            resolution_breached: Number(r.resolution_breached),
            response_met: Number(r.response_met),
            response_breached: Number(r.response_breached),
          })),
        ),

    /** Id and name of the records of a catalogue, the given ones or all. */
    names: (table: 'areas' | 'projects' | 'priority_types', ids?: number[]) =>
      ids && ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom(table)
            .select(['id', 'name', 'status_id'])
            .$if(ids !== undefined, (q) => q.where('id', 'in', ids!))
            .orderBy('id')
            .execute(),

    userNames: (ids: number[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('users')
            .select(['id', 'name', 'last_name', 'second_last_name'])
            .where('id', 'in', ids)
            .execute(),

    exists: async (table: 'areas' | 'projects', id: number) =>
      (await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined,
  };
}
export type ReportsRepository = ReturnType<typeof createReportsRepository>;
