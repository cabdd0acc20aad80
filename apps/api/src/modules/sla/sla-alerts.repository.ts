import { RECORD_STATUS, type SlaState } from '@portal/contract';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

export type SlaThreshold = 'at_risk' | 'breached';

/** The alert level a threshold sets on the ticket (`tickets.sla_alerted`). */
export const ALERT_LEVEL: Record<SlaThreshold, number> = { at_risk: 1, breached: 2 };

/** A running ticket as the sweep reads it. */
export interface SweptTicket {
  id: number;
  sla_policy_id: number | null;
  sla_state: SlaState;
  sla_at_risk_at: string;
  resolution_due_at: string;
  sla_alerted: number;
  created_by: number;
  user_assigned_id: number | null;
}

/** An alert due for delivery, with what its recipients depend on. */
export interface DueAlert {
  ticket_id: number;
  threshold: SlaThreshold;
  user_assigned_id: number | null;
  area_id: number;
  resolved_at: string | null;
  created_by: number;
}

/** Any 64-bit key the portal's processes agree on: the sweep's PostgreSQL advisory lock. */
const SWEEP_LOCK_KEY = 7_320_321_032;

const sweptColumns = sql.raw(
  'id, sla_policy_id, sla_state, sla_at_risk_at, resolution_due_at, sla_alerted, created_by, user_assigned_id',
);
const dueColumns = sql.raw('a.ticket_id, a.threshold, t.user_assigned_id, t.area_id, t.resolved_at, t.created_by');

type Columns = RawBuilder<unknown>;

/** Names the index a search reads: SQLite is told (`indexed by`), PostgreSQL's planner finds it. */
type Hint = (index: string) => RawBuilder<unknown>;

/**
 * The sweep's searches. Each reads a partial index by its leading instant, with the index's
 * predicate written literally so both planners can use it (migrations 0019 and 0032). SQLite
 * is named the index: without statistics it may prefer `tickets_sla_state_due_idx` and sort every
 * `ok` ticket.
 */
const searches = {
  staleOk: (columns: Columns, now: string, limit: number, hint: Hint) =>
    sql<SweptTicket>`select ${columns} from tickets ${hint('tickets_sla_risk_sweep_idx')}
      where sla_state = 'ok' and sla_at_risk_at <= ${now} order by sla_at_risk_at limit ${limit}`,
  staleDue: (columns: Columns, now: string, limit: number, hint: Hint) =>
    sql<SweptTicket>`select ${columns} from tickets ${hint('tickets_sla_breach_sweep_idx')}
      where sla_state in ('ok', 'at_risk') and resolution_due_at <= ${now} order by resolution_due_at limit ${limit}`,
  unalertedAtRisk: (columns: Columns, now: string, limit: number, hint: Hint) =>
    sql<SweptTicket>`select ${columns} from tickets ${hint('tickets_sla_risk_alert_idx')}
      where sla_alerted = 0 and resolved_at is null and sla_paused_at is null and sla_at_risk_at <= ${now}
      order by sla_at_risk_at limit ${limit}`,
  unalertedDue: (columns: Columns, now: string, limit: number, hint: Hint) =>
    sql<SweptTicket>`select ${columns} from tickets ${hint('tickets_sla_breach_alert_idx')}
      where sla_alerted < 2 and resolved_at is null and sla_paused_at is null and resolution_due_at <= ${now}
      order by resolution_due_at limit ${limit}`,
  due: (columns: Columns, now: string, limit: number, hint: Hint) =>
    sql<DueAlert>`select ${columns} from sla_alerts a ${hint('sla_alerts_pending_idx')}
      join tickets t on t.id = a.ticket_id
      where a.sent_at is null and a.notify_at <= ${now} order by a.notify_at limit ${limit}`,
};
export type SlaSweepSearch = keyof typeof searches;

/**
 * The alert sweep's SQL: the tickets still `ok` past their at-risk instant, the ones `ok` or
 * `at_risk` past their due date, the running ones not alerted yet for a threshold they crossed,
 * and the pending alerts whose time has come; each search an index range, never a scan.
 */
export function createSlaAlertsRepository(database: Database) {
  const { dialect } = database;
  const rows = async <T>(query: RawBuilder<T>, trx: Kysely<DB>) => (await query.execute(trx)).rows;
  const hint: Hint = (index) => (dialect === 'postgres' ? sql`` : sql.raw(`indexed by ${index}`));

  return {
    /**
     * Takes the sweep for this transaction: on PostgreSQL one process at a time (a transaction
     * advisory lock, released at commit; a process that finds it taken skips this round). SQLite
     * serves one process, whose sweeps never overlap (sla-alerts.ts).
     */
    async tryLock(trx: Kysely<DB>): Promise<boolean> {
      if (dialect !== 'postgres') return true;
      const [row] = await rows(sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${SWEEP_LOCK_KEY}) as ok`, trx);
      return row?.ok === true;
    },

    /** Tickets stored `ok` whose at-risk instant has passed (index tickets_sla_risk_sweep_idx). */
    staleOk: (now: string, limit: number, trx: Kysely<DB>) =>
      rows(searches.staleOk(sweptColumns, now, limit, hint), trx),
    /** Tickets stored `ok` or `at_risk` whose resolution due date has passed (tickets_sla_breach_sweep_idx). */
    staleDue: (now: string, limit: number, trx: Kysely<DB>) =>
      rows(searches.staleDue(sweptColumns, now, limit, hint), trx),
    /** Running tickets past their at-risk instant with no alert yet (tickets_sla_risk_alert_idx). */
    unalertedAtRisk: (now: string, limit: number, trx: Kysely<DB>) =>
      rows(searches.unalertedAtRisk(sweptColumns, now, limit, hint), trx),
    /** Running tickets past their due date with no `Vencido` alert yet (tickets_sla_breach_alert_idx). */
    unalertedDue: (now: string, limit: number, trx: Kysely<DB>) =>
      rows(searches.unalertedDue(sweptColumns, now, limit, hint), trx),

    /**
     * Moves the tickets' stored state, those a writer did not move meanwhile, and raises their
     * alert level to the threshold the new state crosses, in the same write: a ticket row is
     * rewritten once per crossing, with every index it is in. The ids moved. One statement on
     * PostgreSQL (a round trip each); one per ticket on SQLite, in process, where an update by a
     * list of ids costs more than the same updates one by one.
     */
    async moveStates(ids: readonly number[], from: readonly SlaState[], to: SlaThreshold, trx: Kysely<DB>) {
      const level = ALERT_LEVEL[to];
      const move = (some: readonly number[]) =>
        rows(
          sql<{ id: number }>`update tickets
            set sla_state = ${to}, sla_alerted = case when sla_alerted < ${level} then ${level} else sla_alerted end
            where id in (${sql.join(some)}) and sla_state in (${sql.join(from)}) returning id`,
          trx,
        );
      if (ids.length === 0) return new Set<number>();
      if (dialect === 'postgres') return new Set((await move(ids)).map((r) => r.id));
      const moved = new Set<number>();
      for (const id of ids) if ((await move([id])).length > 0) moved.add(id);
      return moved;
    },

    /** The timeline's `SLA vencido` of each ticket, written by the portal itself (no user) at `at`. */
    async recordBreaches(tickets: readonly { id: number; dueAt: string }[], at: string, trx: Kysely<DB>) {
      if (tickets.length === 0) return;
      await trx
        .insertInto('ticket_events')
        .values(
          tickets.map((t) => ({
            ticket_id: t.id,
            user_id: null,
            kind: 'sla_breached',
            field: 'resolution_due_at',
            from_value: t.dueAt,
            to_value: t.dueAt,
            created_at: at,
          })),
        )
        .execute();
    },

    /**
     * Raises the tickets' alert level to a threshold they crossed in a write (a state moved by the
     * sweep raised it already), so the searches above pass them by.
     */
    async raiseLevel(ids: readonly number[], threshold: SlaThreshold, trx: Kysely<DB>): Promise<void> {
      if (ids.length === 0) return;
      const level = ALERT_LEVEL[threshold];
      await sql`update tickets set sla_alerted = ${level}
        where id in (${sql.join(ids)}) and sla_alerted < ${level}`.execute(trx);
    },

    /**
     * Each ticket's alert for its threshold, due at its `notifyAt`: written once (the primary
     * key). How many this call wrote.
     */
    async schedule(
      alerts: readonly { id: number; threshold: SlaThreshold; notifyAt: string }[],
      trx: Kysely<DB>,
    ): Promise<number> {
      if (alerts.length === 0) return 0;
      const inserted = await trx
        .insertInto('sla_alerts')
        .values(alerts.map((a) => ({ ticket_id: a.id, threshold: a.threshold, notify_at: a.notifyAt, sent_at: null })))
        .onConflict((oc) => oc.columns(['ticket_id', 'threshold']).doNothing())
        .returning('ticket_id')
        .execute();
      return inserted.length;
    },

    /** Pending alerts due by `now`, oldest first (sla_alerts_pending_idx). */
    due: (now: string, limit: number, trx: Kysely<DB>) => rows(searches.due(dueColumns, now, limit, hint), trx),

    /** Marks the alerts of a threshold delivered; the tickets whose alert this call marked. */
    async markSent(ticketIds: readonly number[], threshold: SlaThreshold, at: string, trx: Kysely<DB>) {
      if (ticketIds.length === 0) return new Set<number>();
      const marked = await trx
        .updateTable('sla_alerts')
        .set({ sent_at: at })
        .where('ticket_id', 'in', [...ticketIds])
        .where('threshold', '=', threshold)
        .where('sent_at', 'is', null)
        .returning('ticket_id')
        .execute();
      return new Set(marked.map((r) => r.ticket_id));
    },

    /** The active users whose role supervises (is_supervisor), by the area they belong to. */
    async areaSupervisors(areaIds: readonly number[], trx: Kysely<DB>): Promise<Map<number, number[]>> {
      const byArea = new Map<number, number[]>(areaIds.map((id) => [id, []]));
      if (areaIds.length === 0) return byArea;
      const found = await trx
        .selectFrom('users as u')
        .innerJoin('roles as r', 'r.id', 'u.role_id')
        .select(['u.id', 'u.area_id'])
        .where('u.area_id', 'in', [...areaIds])
        .where('r.is_supervisor', '=', 1)
        .where('u.status_id', '=', RECORD_STATUS.active)
        .orderBy('u.id')
        .execute();
      for (const u of found) if (u.area_id !== null) byArea.get(u.area_id)?.push(u.id);
      return byArea;
    },

    /**
     * The plan of one of the sweep's searches, for the tests that hold it to its index. On
     * PostgreSQL sequential scans are priced out first, as a large table prices them: a test
     * database is small enough for the planner to read it whole.
     */
    async explain(search: SlaSweepSearch, now: string): Promise<string> {
      const query = searches[search](sql.raw('1'), now, 100, hint);
      const plan = await database.db.transaction().execute(async (trx) => {
        if (dialect !== 'postgres') return sql`explain query plan ${query}`.execute(trx);
        await sql`set local enable_seqscan = off`.execute(trx);
        return sql`explain ${query}`.execute(trx);
      });
      return (plan.rows as Record<string, unknown>[])
        .map((r) => String(r['QUERY PLAN'] ?? r['detail'] ?? JSON.stringify(r)))
        .join('\n');
    },
  };
}
export type SlaAlertsRepository = ReturnType<typeof createSlaAlertsRepository>;
