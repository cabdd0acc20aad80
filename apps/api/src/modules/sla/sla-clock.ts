import type { SlaState, TicketStage } from '@portal/contract';
import {
  addBusinessMinutes,
  businessMinutesBetween,
  compileCalendar,
  type CompiledCalendar,
} from '../../lib/business-time.ts';

/** A policy as the clock applies it: its calendar compiled. */
export interface SlaRule {
  id: number;
  name: string;
  priorityTypeId: number;
  /** Null: any area. */
  areaId: number | null;
  calendar: CompiledCalendar;
  firstResponseMinutes: number;
  resolutionMinutes: number;
}

/** The SLA columns of a ticket row. */
export interface TicketSla {
  sla_policy_id: number | null;
  first_response_due_at: string | null;
  resolution_due_at: string | null;
  sla_at_risk_at: string | null;
  first_responded_at: string | null;
  resolved_at: string | null;
  sla_paused_minutes: number;
  sla_paused_at: string | null;
  sla_state: SlaState;
}

/** What the clock needs of a ticket besides its SLA columns. */
export interface TicketClockFacts {
  createdAt: string;
  priorityTypeId: number;
  areaId: number;
  stage: TicketStage;
  pausesSla: boolean;
}

/** A ticket is at risk with less than this share of its resolution target left… */
const AT_RISK_SHARE = 0.2;
/** …or less than this many business minutes, whichever is larger. */
const AT_RISK_MIN_MINUTES = 60;

export const compileRuleCalendar = compileCalendar;

/** The most specific active policy: the priority's in the ticket's area, else the priority's for any area. */
export function ruleFor(rules: readonly SlaRule[], priorityTypeId: number, areaId: number): SlaRule | undefined {
  return (
    rules.find((r) => r.priorityTypeId === priorityTypeId && r.areaId === areaId) ??
    rules.find((r) => r.priorityTypeId === priorityTypeId && r.areaId === null)
  );
}

const iso = (ms: number) => new Date(ms).toISOString();
const ms = (text: string) => Date.parse(text);

/** Business minutes a ticket at risk has left at most. */
export const atRiskMinutes = (resolutionMinutes: number) =>
  Math.max(Math.ceil(resolutionMinutes * AT_RISK_SHARE), AT_RISK_MIN_MINUTES);

/**
 * The due dates and state of a ticket under `rule`, from its creation, its paused business
 * minutes (the due dates move by them), the pause under way, its first response and its
 * resolution, at `now`. The state: `met` or `breached` once resolved (by the resolution
 * instant); `paused` while paused; otherwise `breached` past the resolution due date, `at_risk`
 * past the at-risk instant, else `ok`.
 */
export function clockOf(
  rule: SlaRule | undefined,
  facts: {
    createdAt: string;
    pausedMinutes: number;
    pausedAt: string | null;
    respondedAt: string | null;
    resolvedAt: string | null;
  },
  now: number,
): TicketSla {
  const kept = {
    first_responded_at: facts.respondedAt,
    resolved_at: facts.resolvedAt,
    sla_paused_minutes: facts.pausedMinutes,
    sla_paused_at: facts.pausedAt,
  };
  if (!rule) {
    return {
      ...kept,
      sla_policy_id: null,
      first_response_due_at: null,
      resolution_due_at: null,
      sla_at_risk_at: null,
      sla_state: 'none',
    };
  }
  const created = ms(facts.createdAt);
  const shift = facts.pausedMinutes;
  const due = (minutes: number) => addBusinessMinutes(rule.calendar, created, minutes + shift);
  const resolutionDue = due(rule.resolutionMinutes);
  const atRisk = due(Math.max(0, rule.resolutionMinutes - atRiskMinutes(rule.resolutionMinutes)));
  const state: SlaState =
    facts.resolvedAt !== null
      ? ms(facts.resolvedAt) <= resolutionDue
        ? 'met'
        : 'breached'
      : facts.pausedAt !== null
        ? 'paused'
        : now >= resolutionDue
          ? 'breached'
          : now >= atRisk
            ? 'at_risk'
            : 'ok';
  return {
    ...kept,
    sla_policy_id: rule.id,
    first_response_due_at: iso(due(rule.firstResponseMinutes)),
    resolution_due_at: iso(resolutionDue),
    sla_at_risk_at: iso(atRisk),
    sla_state: state,
  };
}

/** The SLA of a ticket being created at `now`. */
export function slaOfNewTicket(rules: readonly SlaRule[], ticket: TicketClockFacts, now: number): TicketSla {
  const rule = ruleFor(rules, ticket.priorityTypeId, ticket.areaId);
  const isClosed = ticket.stage === 'closed';
  return clockOf(
    rule,
    {
      createdAt: ticket.createdAt,
      pausedMinutes: 0,
      pausedAt: ticket.pausesSla && !isClosed && rule ? iso(now) : null,
      respondedAt: null,
      resolvedAt: isClosed ? iso(now) : null,
    },
    now,
  );
}

/** What happened to a ticket's SLA in a change, for its timeline. */
export type SlaChange = 'sla_assigned' | 'sla_paused' | 'sla_resumed' | 'sla_recalculated' | 'sla_met' | 'sla_breached';

/**
 * A ticket's SLA after a change of its status, priority or area at `now`: a pause ends (its
 * business minutes are added, so both due dates move by them) or begins; entering a closed
 * stage resolves it, leaving one reopens it on the same clock (same creation, same paused
 * minutes); a new priority or area applies its policy from the creation on, keeping the paused
 * minutes. Also the timeline entries it calls for, in order.
 */
export function slaAfterChange(
  rules: readonly SlaRule[],
  before: TicketSla,
  was: TicketClockFacts,
  is: TicketClockFacts,
  now: number,
): { sla: TicketSla; changes: SlaChange[] } {
  const rule = ruleFor(rules, is.priorityTypeId, is.areaId);
  const oldRule = ruleFor(rules, was.priorityTypeId, was.areaId);
  const changes: SlaChange[] = [];
  let pausedMinutes = before.sla_paused_minutes;
  let pausedAt = before.sla_paused_at;
  let resolvedAt = before.resolved_at;
  const nowIso = iso(now);

  const shouldPause = is.pausesSla && is.stage !== 'closed';
  if (pausedAt !== null && !shouldPause) {
    // The pause is counted on the calendar it ran under.
    const calendar = (oldRule ?? rule)?.calendar;
    if (calendar) pausedMinutes += Math.max(0, businessMinutesBetween(calendar, ms(pausedAt), now));
    pausedAt = null;
    if (rule) changes.push('sla_resumed');
  } else if (pausedAt === null && shouldPause && rule) {
    pausedAt = nowIso;
    changes.push('sla_paused');
  }
  if (is.stage === 'closed' && resolvedAt === null) resolvedAt = nowIso;
  if (is.stage !== 'closed' && resolvedAt !== null) resolvedAt = null;

  const sla = clockOf(
    rule,
    {
      createdAt: is.createdAt,
      pausedMinutes,
      pausedAt,
      respondedAt: before.first_responded_at,
      resolvedAt,
    },
    now,
  );
  if (before.sla_policy_id === null && sla.sla_policy_id !== null) changes.unshift('sla_assigned');
  else if (
    before.sla_policy_id !== sla.sla_policy_id ||
    (before.resolved_at !== null && resolvedAt === null) ||
    (sla.sla_policy_id !== null && (was.priorityTypeId !== is.priorityTypeId || was.areaId !== is.areaId))
  ) {
    changes.push('sla_recalculated');
  }
  if (before.resolved_at === null && resolvedAt !== null && sla.sla_policy_id !== null) {
    changes.push(sla.sla_state === 'met' ? 'sla_met' : 'sla_breached');
  } else if (sla.sla_state === 'breached' && before.sla_state !== 'breached') {
    changes.push('sla_breached');
  }
  return { sla, changes };
}

/** The SLA once a ticket's first response (an activity by someone other than its creator) is recorded at `now`. */
export const withFirstResponse = (sla: TicketSla, now: number): TicketSla =>
  sla.first_responded_at === null ? { ...sla, first_responded_at: iso(now) } : sla;

/** A ticket's SLA as its page shows it. */
export interface SlaView {
  state: SlaState;
  policy: { id: number; name: string } | null;
  first_response_due_at: string | null;
  resolution_due_at: string | null;
  first_responded_at: string | null;
  resolved_at: string | null;
  paused_minutes: number;
  paused_since: string | null;
  business_minutes_left: number | null;
}

/**
 * The SLA of a ticket at `now`, from its stored columns: the state as it stands now (the stored
 * one may wait for the alert sweep), and the business minutes left until the resolution due date
 * (frozen while paused, negative once overdue).
 */
export function slaViewOf(rules: readonly SlaRule[], row: TicketSla, now: number): SlaView {
  const rule = rules.find((r) => r.id === row.sla_policy_id);
  const isRunning = row.sla_policy_id !== null && row.resolved_at === null && row.resolution_due_at !== null;
  let state = row.sla_state;
  let left: number | null = null;
  if (isRunning) {
    const due = ms(row.resolution_due_at!);
    state =
      row.sla_paused_at !== null
        ? 'paused'
        : now >= due
          ? 'breached'
          : row.sla_at_risk_at !== null && now >= ms(row.sla_at_risk_at)
            ? 'at_risk'
            : 'ok';
    if (rule) {
      const from = row.sla_paused_at !== null ? ms(row.sla_paused_at) : now;
      left = businessMinutesBetween(rule.calendar, from, due);
    }
  }
  return {
    state,
    policy: rule ? { id: rule.id, name: rule.name } : null,
    first_response_due_at: row.first_response_due_at,
    resolution_due_at: row.resolution_due_at,
    first_responded_at: row.first_responded_at,
    resolved_at: row.resolved_at,
    paused_minutes: row.sla_paused_minutes,
    paused_since: row.sla_paused_at,
    business_minutes_left: left,
  };
}
