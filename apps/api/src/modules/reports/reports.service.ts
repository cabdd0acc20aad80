import {
  REPORT_DEFAULT_DAYS,
  REPORT_MAX_DAYS,
  addDays,
  daysInRange,
  type TReportCount,
  type TReportSummary,
} from '@portal/contract';
import { validationFailed } from '../../lib/http-error.ts';
import type { ReportFilter, ReportsRepository, SlaDay } from './reports.repository.ts';

export interface SummaryQuery {
  from?: string | undefined;
  to?: string | undefined;
  area_id?: number | undefined;
  project_id?: number | undefined;
}

const todayUtc = () => new Date().toISOString().slice(0, 10);

/** Monday of the week of a day (UTC). */
const mondayOf = (day: string) => addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));

/** The range asked for, the last 12 weeks up to today by default. */
function rangeOf(query: SummaryQuery, today: string): { from: string; to: string } {
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  const from = query.from ?? addDays(to, -(REPORT_DEFAULT_DAYS - 1));
  if (from > to) throw validationFailed({ from: ['La fecha inicial debe ser anterior o igual a la fecha final.'] });
  if (daysInRange(from, to) > REPORT_MAX_DAYS) {
    throw validationFailed({ to: [`El rango no puede superar ${REPORT_MAX_DAYS.toLocaleString('es-MX')} días.`] });
  }
  return { from, to };
}

/** Weekly created and closed, Monday to Sunday, cut to the range. */
function weeksOf(from: string, to: string, daily: { day: string; created: number; closed: number }[]) {
  const byDay = new Map(daily.map((d) => [d.day, d]));
  const weeks: TReportSummary['weekly'] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const monday = mondayOf(day);
    let week = weeks.at(-1);
    if (!week || (monday > week.week_start && day === monday)) {
      week = { week_start: day, days: 0, created: 0, closed: 0 };
      weeks.push(week);
    }
    week.days += 1;
    week.created += byDay.get(day)?.created ?? 0;
    week.closed += byDay.get(day)?.closed ?? 0;
  }
  return weeks;
}

/** SLA outcomes per week, on the same weeks as `weeksOf`. */
function slaWeeksOf(from: string, to: string, daily: SlaDay[]) {
  const byDay = new Map(daily.map((d) => [d.day, d]));
  const weeks: TReportSummary['sla_weekly'] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    let week = weeks.at(-1);
    if (!week || (mondayOf(day) > week.week_start && day === mondayOf(day))) {
      week = { week_start: day, resolution_met: 0, resolution_breached: 0, response_met: 0, response_breached: 0 };
      weeks.push(week);
    }
    const d = byDay.get(day);
    if (!d) continue;
    week.resolution_met += d.resolution_met;
    week.resolution_breached += d.resolution_breached;
    week.response_met += d.response_met;
    week.response_breached += d.response_breached;
  }
  return weeks;
}

const fullName = (u: { name: string; last_name: string; second_last_name: string | null }) =>
  [u.name, u.last_name, u.second_last_name].filter(Boolean).join(' ');

/** Counts per id as named records, most first, then by name. */
function ranked(counts: Map<number, number>, names: { id: number; name: string }[]): TReportCount[] {
  const nameOf = new Map(names.map((n) => [n.id, n.name]));
  return [...counts]
    .filter(([, count]) => count > 0)
    .map(([id, count]) => ({ id, name: nameOf.get(id) ?? `#${id}`, count }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, 'es'));
}

function add(map: Map<number, number>, key: number, n: number) {
  map.set(key, (map.get(key) ?? 0) + n);
}

export function createReportsService({ reports }: { reports: ReportsRepository }) {
  return {
    /** Every figure of the dashboard (contract: ZReportSummary). */
    async summary(query: SummaryQuery, today = todayUtc()): Promise<TReportSummary> {
      const { from, to } = rangeOf(query, today);
      const filter: ReportFilter = { from, to, areaId: query.area_id ?? null, projectId: query.project_id ?? null };
      const [areaExists, projectExists] = await Promise.all([
        filter.areaId === null || reports.exists('areas', filter.areaId),
        filter.projectId === null || reports.exists('projects', filter.projectId),
      ]);
      if (!areaExists || !projectExists) {
        throw validationFailed({
          ...(areaExists ? {} : { area_id: ['El área no existe.'] }),
          ...(projectExists ? {} : { project_id: ['El proyecto no existe.'] }),
        });
      }

      const [backlog, perUser, daily, closures, priorities, slaNow, slaDaily] = await Promise.all([
        reports.backlog(filter),
        reports.backlogPerUser(filter),
        reports.daily(filter),
        reports.closures(filter),
        reports.names('priority_types'),
        reports.slaNow(filter),
        reports.slaDaily(filter),
      ]);

      const stages = new Map<string, number>();
      const byPriority = new Map<number, number>();
      const byArea = new Map<number, number>();
      const byProject = new Map<number, number>();
      for (const row of backlog) {
        stages.set(row.stage, (stages.get(row.stage) ?? 0) + row.n);
        add(byPriority, row.priority_type_id, row.n);
        add(byArea, row.area_id, row.n);
        add(byProject, row.project_id, row.n);
      }

      const assigned = new Map(perUser.map((u) => [u.user_id, u.n]));
      const closed = closures.perUser;
      const agentIds = [...new Set([...assigned.keys(), ...closed.keys()])].filter(
        (id) => id !== 0 && ((assigned.get(id) ?? 0) > 0 || (closed.get(id)?.closed ?? 0) > 0),
      );
      const [areas, projects, users] = await Promise.all([
        reports.names('areas', [...byArea.keys()]),
        reports.names('projects', [...byProject.keys()]),
        reports.userNames(agentIds),
      ]);

      return {
        from,
        to,
        area_id: filter.areaId,
        project_id: filter.projectId,
        totals: {
          open_now: stages.get('open') ?? 0,
          started_now: stages.get('started') ?? 0,
          unassigned_now: assigned.get(0) ?? 0,
          created: daily.reduce((sum, d) => sum + d.created, 0),
          closed: daily.reduce((sum, d) => sum + d.closed, 0),
          median_close_seconds: closures.median,
          sla_at_risk_now: slaNow.at_risk,
          sla_breached_now: slaNow.breached,
        },
        weekly: weeksOf(from, to, daily),
        sla_weekly: slaWeeksOf(from, to, slaDaily),
        backlog_by_stage: [
          { stage: 'open', count: stages.get('open') ?? 0 },
          { stage: 'started', count: stages.get('started') ?? 0 },
        ],
        backlog_by_priority: priorities
          .filter((p) => p.status_id === 1 || (byPriority.get(p.id) ?? 0) > 0)
          .map((p) => ({ id: p.id, name: p.name, count: byPriority.get(p.id) ?? 0 })),
        open_by_area: ranked(byArea, areas),
        open_by_project: ranked(byProject, projects),
        agents: users
          .map((u) => ({
            user_id: u.id,
            name: fullName(u),
            assigned_now: assigned.get(u.id) ?? 0,
            closed: closed.get(u.id)?.closed ?? 0,
            median_close_seconds: closed.get(u.id)?.median ?? null,
          }))
          .sort((a, b) => a.name.localeCompare(b.name, 'es') || a.user_id - b.user_id),
      };
    },
  };
}
export type ReportsService = ReturnType<typeof createReportsService>;
