import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * The alert sweep's four partial indexes of `ticket_sla_watch` become two: one by the at-risk
 * instant, one by the resolution due date, each holding the tickets of both searches that walk
 * that instant (a state still to move, or a threshold still to alert). Every new ticket is in all
 * four, so a creation wrote an entry, and a page to the log, into each; now into two. The
 * searches read each index with its whole predicate, then their own condition on the rows found.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await runStatements(db, [
    `create index ticket_sla_watch_risk_idx on ticket_sla_watch (sla_at_risk_at)
      where sla_state = 'ok' or (sla_alerted = 0 and resolved_at is null and sla_paused_at is null)`,
    `create index ticket_sla_watch_breach_idx on ticket_sla_watch (resolution_due_at)
      where sla_state in ('ok', 'at_risk') or (sla_alerted < 2 and resolved_at is null and sla_paused_at is null)`,
    `drop index ticket_sla_watch_risk_sweep_idx`,
    `drop index ticket_sla_watch_risk_alert_idx`,
    `drop index ticket_sla_watch_breach_sweep_idx`,
    `drop index ticket_sla_watch_breach_alert_idx`,
  ]);
}
