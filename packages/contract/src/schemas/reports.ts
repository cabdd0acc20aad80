import { z } from 'zod';
import { ZDataResponse } from './common.ts';

/** The dashboard's default range: the last 12 weeks, today included. */
export const REPORT_DEFAULT_DAYS = 84;
/** The longest range one summary covers (a year, leap day included): range figures cost in proportion to the closures in it. */
export const REPORT_MAX_DAYS = 366;

const DAY_MS = 86_400_000;
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `YYYY-MM-DD` names a real calendar day. */
export const isCalendarDay = (value: string) =>
  dayPattern.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

/** Days from `from` to `to`, both included (1 when they are the same day). */
export const daysInRange = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** The day `days` after (or before, when negative) `day`. */
export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

const ZDay = (label: string) =>
  z
    .string({ error: `La fecha ${label} debe ser texto.` })
    .refine(isCalendarDay, `La fecha ${label} debe ser una fecha válida con el formato AAAA-MM-DD.`);

/** An optional id filter of the query string; an empty value (`area_id=`) means no filter. */
const ZOptionalId = z.preprocess(
  (v) => (v === '' || v === null ? undefined : typeof v === 'number' ? String(v) : v),
  z
    .string({ error: 'Debe ser un identificador válido.' })
    .regex(/^[1-9]\d{0,9}$/, 'Debe ser un identificador válido.')
    .transform(Number)
    .refine((id) => id <= 2_147_483_647, 'Debe ser un identificador válido.')
    .optional(),
);

/**
 * `GET /api/reports/summary`: the range of days (UTC, both included; default the last
 * 12 weeks up to today) and optional area and project filters.
 */
export const ZReportSummaryQuery = z
  .object({
    from: ZDay('inicial').optional(),
    to: ZDay('final').optional(),
    area_id: ZOptionalId,
    project_id: ZOptionalId,
  })
  .superRefine((q, ctx) => {
    if (!q.from || !q.to) return;
    if (q.from > q.to) {
      ctx.addIssue({
        code: 'custom',
        path: ['from'],
        message: 'La fecha inicial debe ser anterior o igual a la fecha final.',
      });
    } else if (daysInRange(q.from, q.to) > REPORT_MAX_DAYS) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `El rango no puede superar ${REPORT_MAX_DAYS.toLocaleString('es-MX')} días.`,
      });
    }
  });
export type TReportSummaryQuery = z.input<typeof ZReportSummaryQuery>;

/** A count per catalogue record (area, project, priority). */
export const ZReportCount = z.object({ id: z.number(), name: z.string(), count: z.number() });
export type TReportCount = z.infer<typeof ZReportCount>;

/**
 * Every figure of the dashboard. "Now" figures count the tickets as they are; range
 * figures count by day (UTC) inside `from`..`to`. A ticket is closed in the range when it
 * is closed now and its last move into a closed stage falls in the range; its time to
 * close is from its creation to that move. Filters apply to the tickets' current area
 * and project; per-agent figures go to the ticket's current assignee.
 */
export const ZReportSummary = z.object({
  from: z.string(),
  to: z.string(),
  area_id: z.number().nullable(),
  project_id: z.number().nullable(),
  totals: z.object({
    /** Tickets in stage open now. */
    open_now: z.number(),
    /** Tickets in stage started now. */
    started_now: z.number(),
    /** Tickets not closed and assigned to nobody. */
    unassigned_now: z.number(),
    created: z.number(),
    closed: z.number(),
    /** Median seconds from creation to closing of the tickets closed in the range; null when none. */
    median_close_seconds: z.number().nullable(),
    /** Tickets not resolved whose SLA is at risk now (`Por vencer`). */
    sla_at_risk_now: z.number(),
    /** Tickets not resolved whose resolution due date has passed (`Vencidos`). */
    sla_breached_now: z.number(),
  }),
  /**
   * SLA outcomes per week (same weeks as `weekly`), each on the day it was decided: a
   * resolution met on the day it was resolved, breached on the day it fell due; a first
   * response likewise, once the response happened.
   */
  sla_weekly: z.array(
    z.object({
      week_start: z.string(),
      resolution_met: z.number(),
      resolution_breached: z.number(),
      response_met: z.number(),
      response_breached: z.number(),
    }),
  ),
  /** Weeks from Monday to Sunday cut to the range: `week_start` is the Monday, or `from` for the first; `days` in the range. */
  weekly: z.array(z.object({ week_start: z.string(), days: z.number(), created: z.number(), closed: z.number() })),
  /** Tickets not closed, by stage (open, started). */
  backlog_by_stage: z.array(z.object({ stage: z.enum(['open', 'started']), count: z.number() })),
  /** Tickets not closed, by priority, every priority listed. */
  backlog_by_priority: z.array(ZReportCount),
  /** Tickets not closed, by area, most first (areas without any omitted). */
  open_by_area: z.array(ZReportCount),
  /** Tickets not closed, by project, most first (projects without any omitted). */
  open_by_project: z.array(ZReportCount),
  /** Every user with tickets assigned now or closed in the range, by name. */
  agents: z.array(
    z.object({
      user_id: z.number(),
      name: z.string(),
      assigned_now: z.number(),
      closed: z.number(),
      median_close_seconds: z.number().nullable(),
    }),
  ),
});
export type TReportSummary = z.infer<typeof ZReportSummary>;

export const ZReportSummaryResponse = ZDataResponse(ZReportSummary);
export type TReportSummaryResponse = z.infer<typeof ZReportSummaryResponse>;
