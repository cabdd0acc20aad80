import { NOTIFICATION_TEXT } from '@portal/contract';
import type { Database } from '../../db/database.ts';
import { nextOpening } from '../../lib/business-time.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import {
  ALERT_LEVEL,
  createSlaAlertsRepository,
  type SlaThreshold,
  type SweptTicket,
} from './sla-alerts.repository.ts';
import type { SlaRepository } from './sla.repository.ts';

export interface SweepResult {
  /** False when another process held the sweep (PostgreSQL): this round did nothing. */
  ran: boolean;
  /** Stored states moved (ok → at_risk, ok or at_risk → breached). */
  moved: number;
  /** Alerts written for a threshold crossed. */
  scheduled: number;
  /** Alerts delivered (each to its recipients). */
  delivered: number;
}

interface SweepLog {
  error(object: object, message: string): void;
}

interface Deps {
  database: Database;
  sla: Pick<SlaRepository, 'catalog'>;
  notifications: Pick<NotificationsService, 'notifyMany' | 'ticketChanged'>;
  /** The injectable clock (services.ts `clock`). */
  now: () => number;
  /** Between two rounds in each process; 0: only `runOnce` sweeps. */
  intervalMs: number;
  log: SweepLog;
  /** Tickets (and alerts) each search of a round takes at most; the rest wait for the next round. */
  batchSize?: number;
}

const NOT_RUN: SweepResult = { ran: false, moved: 0, scheduled: 0, delivered: 0 };

/**
 * The SLA alert sweep. Each round, in one transaction held by one process at a time
 * (sla-alerts.repository.ts `lockAndSearch`, which also says why on PostgreSQL its commit need
 * not wait for its WAL to reach the disk):
 *
 * 1. stored states catch up with the clock where no write did it: `ok` → `at_risk` past the
 *    at-risk instant, `ok`/`at_risk` → `breached` past the due date (with `SLA vencido` on the
 *    timeline);
 * 2. each running ticket past a threshold it was never alerted for gets its one alert row
 *    (`sla_alerts`, primary key ticket + threshold) and its level raised (with the state's move
 *    when it moved here, on its own when a write moved it). A ticket past both thresholds gets
 *    only `Vencido`. The alert is due at the first instant the ticket's calendar is open, from
 *    now on: one found after hours waits for the next opening, one found in hours is written
 *    delivered;
 * 3. the alerts due are delivered once (`sent_at`): to the assignee, or with nobody assigned to
 *    the supervisors (`is_supervisor` roles) of the ticket's area, through `notifyMany` (the event
 *    `sla`: in the portal, by mail or both as each person chose). A ticket resolved while its
 *    alert waited is not alerted.
 *
 * Live lists hear of the tickets whose state moved once the round has committed.
 */
export function createSlaAlertSweep(deps: Deps) {
  const { database, notifications } = deps;
  const alerts = createSlaAlertsRepository(database);
  const batch = deps.batchSize ?? 500;

  async function sweep(): Promise<SweepResult> {
    const at = deps.now();
    const now = new Date(at).toISOString();
    // Read before the transaction: the catalogue is read on its own connection.
    const { rules } = await deps.sla.catalog();
    const touched = new Map<number, Set<number>>();
    const touch = (ticketId: number, ...users: (number | null)[]) => {
      const set = touched.get(ticketId) ?? new Set<number>();
      for (const u of users) if (u !== null) set.add(u);
      touched.set(ticketId, set);
    };
    const result = await database.db.transaction().execute(async (trx) => {
      const found = await alerts.lockAndSearch(now, batch, trx);
      if (!found) return NOT_RUN;
      // States: past the due date → breached (with its timeline entry), past the at-risk instant
      // only → at_risk. A ticket past both is only breached.
      const pastDueDate = new Set(found.staleDue.map((t) => t.id));
      const staleOk = found.staleOk.filter((t) => !pastDueDate.has(t.id));
      const moves = await alerts.moveStates(
        [
          ...found.staleDue.map((t) => ({ id: t.id, to: 'breached' as const, dueAt: t.resolution_due_at })),
          ...staleOk.map((t) => ({ id: t.id, to: 'at_risk' as const, dueAt: t.resolution_due_at })),
        ],
        now,
        trx,
      );
      const breachedNow = found.staleDue.filter((t) => moves.get(t.id) === 'breached');
      const atRiskNow = staleOk.filter((t) => moves.get(t.id) === 'at_risk');
      for (const t of [...breachedNow, ...atRiskNow]) touch(t.id, t.created_by, t.user_assigned_id);
      const moved = moves.size;

      // Alerts: one per ticket and threshold crossed, due when its calendar next opens. A state
      // the moves above set carries its level already; one a write set has it raised here.
      // Every alert found now is due at its calendar's next opening from now: one per policy.
      const openings = new Map<number | null, string>();
      const openingOf = (policyId: number | null) => {
        let opening = openings.get(policyId);
        if (opening === undefined) {
          const calendar = rules.find((r) => r.id === policyId)?.calendar;
          opening = new Date(calendar ? nextOpening(calendar, at) : at).toISOString();
          openings.set(policyId, opening);
        }
        return opening;
      };
      const notifyAt = (threshold: SlaThreshold) => (ticket: SweptTicket) => ({
        ticket,
        threshold,
        notifyAt: openingOf(ticket.sla_policy_id),
      });
      // Past its due date too: only `Vencido` (the breach search takes it, in this round or the next).
      const stillDue = (t: SweptTicket) => Date.parse(t.resolution_due_at) > at;
      // The searches read the tickets before the moves: one moved here to the threshold it was
      // found unalerted for has its level and its alert from the move.
      const pastDue = found.unalertedDue.filter((t) => moves.get(t.id) !== 'breached');
      const pastRisk = found.unalertedAtRisk.filter(stillDue).filter((t) => moves.get(t.id) !== 'at_risk');
      await alerts.raiseLevel(
        pastDue.map((t) => t.id),
        'breached',
        trx,
      );
      await alerts.raiseLevel(
        pastRisk.map((t) => t.id),
        'at_risk',
        trx,
      );
      const below = (threshold: SlaThreshold) => (t: SweptTicket) => t.sla_alerted < ALERT_LEVEL[threshold];
      // Written with the alerts due before them: those due now are delivered in this round.
      const { scheduled, due } = await alerts.scheduleAndClaim(
        [
          ...[...breachedNow.filter(below('breached')), ...pastDue].map(notifyAt('breached')),
          ...[...atRiskNow.filter(below('at_risk')).filter(stillDue), ...pastRisk].map(notifyAt('at_risk')),
        ],
        now,
        batch,
        trx,
      );

      // Delivery: each due alert once, to the assignee or the area's supervisors, by their channels.
      // A ticket resolved while its alert waited is not alerted (the alert stays marked).
      const delivering = due.filter((a) => a.resolved_at === null);
      const assignees = delivering.flatMap((a) => (a.user_assigned_id === null ? [] : [a.user_assigned_id]));
      const unassignedAreas = delivering.filter((a) => a.user_assigned_id === null).map((a) => a.area_id);
      const { people, supervisors } = await alerts.recipients(
        [...new Set(assignees)],
        [...new Set(unassignedAreas)],
        trx,
      );
      const notices = delivering.flatMap((a) =>
        (a.user_assigned_id !== null ? [a.user_assigned_id] : (supervisors.get(a.area_id) ?? [])).map(
          (recipientId) => ({
            recipientId,
            recipient: people.get(recipientId),
            actorId: null,
            ticketId: a.ticket_id,
            ticketName: a.name,
            event: 'sla' as const,
            message: a.threshold === 'breached' ? NOTIFICATION_TEXT.slaBreached : NOTIFICATION_TEXT.slaAtRisk,
            type: a.threshold === 'breached' ? ('error' as const) : ('warning' as const),
          }),
        ),
      );
      await notifications.notifyMany(notices, trx);
      for (const a of delivering) touch(a.ticket_id, a.created_by, a.user_assigned_id);
      return { ran: true, moved, scheduled, delivered: delivering.length };
    });
    for (const [ticketId, users] of touched) notifications.ticketChanged({ ticketId, userIds: [...users] });
    return result;
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<SweepResult> | undefined;
  let stopped = true;

  /** One round now; a round already under way in this process is joined, not doubled. */
  function runOnce(): Promise<SweepResult> {
    running ??= sweep().finally(() => {
      running = undefined;
    });
    return running;
  }

  function scheduleNext() {
    if (stopped || deps.intervalMs <= 0) return;
    timer = setTimeout(() => {
      void runOnce()
        .catch((err: unknown) => deps.log.error({ err }, 'SLA alert sweep failed'))
        .then(scheduleNext);
    }, deps.intervalMs);
    timer.unref();
  }

  return {
    runOnce,
    /** Sweeps every `intervalMs` until stopped. */
    start() {
      if (!stopped) return;
      stopped = false;
      scheduleNext();
    },
    /** Stops the rounds and waits for one under way. */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
    explain: alerts.explain,
  };
}
export type SlaAlertSweep = ReturnType<typeof createSlaAlertSweep>;
