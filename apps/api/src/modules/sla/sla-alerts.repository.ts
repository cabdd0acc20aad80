import { RECORD_STATUS, type MailRhythm, type NotificationChannel, type SlaState } from '@portal/contract';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import { executePrepared } from '../../db/prepared.ts';
import type { DB } from '../../db/schema.ts';
import type { MailPerson } from '../mail/mail-notifier.ts';

export type SlaThreshold = 'at_risk' | 'breached';

/** The alert level a threshold sets on the ticket (`tickets.sla_alerted`). */
export const ALERT_LEVEL: Record<SlaThreshold, number> = { at_risk: 1, breached: 2 };

/** An alert's key in the sets the repository answers: `ticket_id:threshold`. */
export const alertKey = (ticketId: number, threshold: SlaThreshold) => `${ticketId}:${threshold}`;

/** A running ticket as the sweep reads it. */
export interface SweptTicket {
  id: number;
  sla_policy_id: number | null;
  /** The ticket's name, for the mails of its alerts. */
  name: string;
  area_id: number;
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
  /** The ticket's name, for the mails. */
  name: string;
  user_assigned_id: number | null;
  area_id: number;
  resolved_at: string | null;
  created_by: number;
}

/** An alert to write: its ticket as the round's search read it, its threshold, when it is due. */
export interface NewAlert {
  ticket: SweptTicket;
  threshold: SlaThreshold;
  notifyAt: string;
}

/** Any 64-bit key the portal's processes agree on: the sweep's PostgreSQL advisory lock. */
export const SWEEP_LOCK_KEY = 7_320_321_032;

/** What a ticket search reads of `ticket_sla_watch`; the round's statement adds the ticket's row. */
const watchColumns = sql.raw('w.ticket_id, w.sla_state, w.sla_at_risk_at, w.resolution_due_at, w.sla_alerted');
const dueColumns = sql.raw(
  'a.ticket_id, a.threshold, t.name, t.user_assigned_id, t.area_id, t.resolved_at, t.created_by',
);

type Columns = RawBuilder<unknown>;

/** Names the index a search reads: SQLite is told (`indexed by`), PostgreSQL's planner finds it. */
type Hint = (index: string) => RawBuilder<unknown>;

/** A search of `ticket_sla_watch` (`w`, the SLA clock columns with their indexes, migration 0041). */
const watched = (columns: Columns, index: string, hint: Hint, where: RawBuilder<unknown>) =>
  sql`select ${columns} from ticket_sla_watch w ${hint(index)} where ${where}`;

/** Running tickets (neither resolved nor paused) not yet alerted as at risk, or as overdue. */
const RUNNING = sql`w.resolved_at is null and w.sla_paused_at is null`;
const UNALERTED_AT_RISK = sql`w.sla_alerted = 0 and ${RUNNING}`;
const UNALERTED_DUE = sql`w.sla_alerted < 2 and ${RUNNING}`;

/**
 * The predicates of the sweep's two partial indexes of `ticket_sla_watch`, as the indexes write
 * them: by the at-risk instant, the tickets still `ok` or not yet alerted for any threshold; by
 * the resolution due date, the ones `ok` or `at_risk`, or not yet alerted as overdue. Each search
 * carries its index's whole predicate: SQLite uses a partial index only when the query repeats it.
 */
const RISK_INDEX = {
  name: 'ticket_sla_watch_risk_idx',
  holds: sql`(w.sla_state = 'ok' or (${UNALERTED_AT_RISK}))`,
};
const BREACH_INDEX = {
  name: 'ticket_sla_watch_breach_idx',
  holds: sql`(w.sla_state in ('ok', 'at_risk') or (${UNALERTED_DUE}))`,
};

/** A search of one of those indexes, walked by its instant up to `now`: the rows that also meet `where`. */
const walked = (
  index: typeof RISK_INDEX,
  instant: 'sla_at_risk_at' | 'resolution_due_at',
  columns: Columns,
  now: string,
  limit: number,
  hint: Hint,
  where: RawBuilder<unknown>,
) =>
  sql`${watched(columns, index.name, hint, sql`${index.holds} and ${where} and w.${sql.raw(instant)} <= ${now}`)}
    order by w.${sql.raw(instant)} limit ${limit}`;

/**
 * The sweep's searches. Each reads a partial index of `ticket_sla_watch` by its leading
 * instant. SQLite is named the index: without statistics it may prefer the index by state and
 * sort every `ok` ticket.
 */
const searches = {
  staleOk: (columns: Columns, now: string, limit: number, hint: Hint) =>
    walked(RISK_INDEX, 'sla_at_risk_at', columns, now, limit, hint, sql`w.sla_state = 'ok'`),
  staleDue: (columns: Columns, now: string, limit: number, hint: Hint) =>
    walked(BREACH_INDEX, 'resolution_due_at', columns, now, limit, hint, sql`w.sla_state in ('ok', 'at_risk')`),
  unalertedAtRisk: (columns: Columns, now: string, limit: number, hint: Hint) =>
    walked(RISK_INDEX, 'sla_at_risk_at', columns, now, limit, hint, UNALERTED_AT_RISK),
  unalertedDue: (columns: Columns, now: string, limit: number, hint: Hint) =>
    walked(BREACH_INDEX, 'resolution_due_at', columns, now, limit, hint, UNALERTED_DUE),
  due: (columns: Columns, now: string, limit: number, hint: Hint) =>
    sql<DueAlert>`select ${columns} from sla_alerts a ${hint('sla_alerts_pending_idx')}
      join tickets t on t.id = a.ticket_id
      where a.sent_at is null and a.notify_at <= ${now} order by a.notify_at limit ${limit}`,
};
export type SlaSweepSearch = keyof typeof searches;

/** The searches of tickets a round makes, answered together (`search`). */
const ticketSearches = ['staleDue', 'staleOk', 'unalertedDue', 'unalertedAtRisk'] as const;
type TicketSearch = (typeof ticketSearches)[number];

/**
 * The four ticket searches as one statement (one round trip): each its own index range, order
 * and limit, as a subquery of a `union all`, its rows tagged with the search's name; then each
 * found ticket's row (`t`), for who it concerns.
 */
const allTicketSearches = (now: string, limit: number, hint: Hint) =>
  sql<SweptTicket & { search: TicketSearch }>`select s.search, t.id, t.sla_policy_id, t.name, t.area_id, s.sla_state,
      s.sla_at_risk_at, s.resolution_due_at, s.sla_alerted, t.created_by, t.user_assigned_id
    from (${sql.join(
      ticketSearches.map(
        (name) =>
          sql`select ${sql.lit(name)} as search, f.* from (${searches[name](watchColumns, now, limit, hint)}) f`,
      ),
      sql` union all `,
    )}) s
    join tickets t on t.id = s.ticket_id`;

/**
 * The alert sweep's SQL: the tickets still `ok` past their at-risk instant, the ones `ok` or
 * `at_risk` past their due date, the running ones not alerted yet for a threshold they crossed,
 * and the pending alerts whose time has come; each search an index range, never a scan.
 */
export function createSlaAlertsRepository(database: Database) {
  const { dialect } = database;
  const rows = async <T>(query: RawBuilder<T>, trx: Kysely<DB>) => (await query.execute(trx)).rows;
  // A statement whose plan does not depend on its values, prepared once per pool connection
  // (db/prepared.ts). Not the searches: their plan depends on the instant and the limit, and
  // the plan PostgreSQL makes for any value (which it may keep after a few runs) is far slower.
  const preparedRows = async <T>(query: RawBuilder<T>, trx: Kysely<DB>) => (await executePrepared(trx, query)).rows;
  const hint: Hint = (index) => (dialect === 'postgres' ? sql`` : sql.raw(`indexed by ${index}`));

  /** SQLite: takes the pending alerts due by `now` (scheduleAndClaim): the search, then the mark. */
  async function claimDue(now: string, limit: number, trx: Kysely<DB>): Promise<DueAlert[]> {
    const due = await rows(searches.due(dueColumns, now, limit, hint), trx);
    if (due.length === 0) return [];
    const marked = await trx
      .updateTable('sla_alerts')
      .set({ sent_at: now })
      .where((eb) =>
        eb(
          eb.refTuple('ticket_id', 'threshold'),
          'in',
          due.map((a) => eb.tuple(a.ticket_id, a.threshold)),
        ),
      )
      .where('sent_at', 'is', null)
      .returning(['ticket_id', 'threshold'])
      .execute();
    const keys = new Set(marked.map((r) => alertKey(r.ticket_id, r.threshold as SlaThreshold)));
    return due.filter((a) => keys.has(alertKey(a.ticket_id, a.threshold)));
  }

  return {
    /**
     * Takes the sweep for this transaction and makes the round's ticket searches, in one
     * statement; null when another process holds the sweep.
     *
     * The lock: on PostgreSQL one process at a time (a transaction advisory lock, released at
     * commit; a process that finds it taken skips this round). SQLite serves one process, whose
     * sweeps never overlap (sla-alerts.ts). The searches' snapshot is taken as their statement
     * starts, before the lock: a round another process commits in between is not seen and its
     * tickets are found again. That round is not redone: each write of a round holds only if what
     * it changes is still as found (a state moves from the one it holds, an alert is written once,
     * a pending alert marked once), and the statements that write read the rows as committed.
     *
     * On PostgreSQL the same statement lets the round's commit not wait for its WAL to reach the
     * disk (`set_config` for this transaction only). A crash right after can lose the round, and
     * only whole: its states, alert rows and levels, timeline entries, notifications and mails
     * together, as one transaction; and the next round finds the same tickets again and redoes
     * it. Nothing outside the database leaves before the round is durable: a mail is sent only
     * once the outbox worker's claim has committed, and that commit waits for the WAL up to it,
     * which holds this round's. What may be seen before is a live stream's notice of the round,
     * sent again by the redo. A ticket write made after the round commits waits for its own WAL,
     * which holds the round's: none survives a crash that lost the round.
     *
     * The searches: `staleDue`, tickets stored `ok` or `at_risk` past their resolution due date;
     * `staleOk`, tickets stored `ok` past their at-risk instant; `unalertedDue` and
     * `unalertedAtRisk`, running tickets past a threshold they were never alerted for. All four
     * read the same snapshot, taken before the round writes.
     */
    async lockAndSearch(
      now: string,
      limit: number,
      trx: Kysely<DB>,
    ): Promise<Record<TicketSearch, SweptTicket[]> | null> {
      const found: Record<TicketSearch, SweptTicket[]> = {
        staleDue: [],
        staleOk: [],
        unalertedDue: [],
        unalertedAtRisk: [],
      };
      const searched = allTicketSearches(now, limit, hint);
      if (dialect !== 'postgres') {
        for (const { search, ...ticket } of await rows(searched, trx)) found[search].push(ticket);
        return found;
      }
      // The lock's row, then each ticket found (none when the lock is taken).
      const answered = await rows(
        sql<{ locked: boolean } & (SweptTicket & { search: TicketSearch | null })>`with lock as materialized (
            select pg_try_advisory_xact_lock(${SWEEP_LOCK_KEY}) as ok,
              set_config('synchronous_commit', 'off', true) as commit_mode)
          select l.ok as locked, f.* from lock l left join (${searched}) f on l.ok`,
        trx,
      );
      if (answered[0]?.locked !== true) return null;
      for (const ticket of answered) if (ticket.search !== null) found[ticket.search].push(ticket);
      return found;
    },

    /**
     * Moves the tickets' stored state, those a writer did not move meanwhile (`breached` from
     * `ok` or `at_risk`, `at_risk` from `ok`), raises their alert level to the threshold the new
     * state crosses, in the same write, and writes each breach's `SLA vencido` on the timeline,
     * by the portal itself (no user) at `at`: a ticket row is rewritten once per crossing (on
     * PostgreSQL in place when its page has room, else with every index of `tickets`), and its
     * `ticket_sla_watch` row with that table's indexes, by the update's triggers. The tickets
     * moved, to their new state. One statement on PostgreSQL
     * (a round trip each); one per ticket on SQLite, in process, where an update by a list of ids
     * costs more than the same updates one by one.
     */
    async moveStates(
      moves: readonly { id: number; to: SlaThreshold; dueAt: string }[],
      at: string,
      trx: Kysely<DB>,
    ): Promise<Map<number, SlaThreshold>> {
      const moved = new Map<number, SlaThreshold>();
      if (moves.length === 0) return moved;
      if (dialect === 'postgres') {
        const found = await preparedRows(
          sql<{ id: number; to: SlaThreshold }>`with moved as (
              update tickets t
              set sla_state = m.state, sla_alerted = greatest(t.sla_alerted, m.level)
              from unnest(${moves.map((m) => m.id)}::int[], ${moves.map((m) => m.to)}::text[],
                ${moves.map((m) => ALERT_LEVEL[m.to])}::int[], ${moves.map((m) => m.dueAt)}::text[]
              ) as m(id, state, level, due)
              where t.id = m.id and (t.sla_state = 'ok' or (m.state = 'breached' and t.sla_state = 'at_risk'))
              returning t.id, m.state, m.due),
            timeline as (
              insert into ticket_events (ticket_id, user_id, kind, field, from_value, to_value, created_at)
              select id, null, 'sla_breached', 'resolution_due_at', due, due, ${at}::timestamptz
              from moved where state = 'breached')
            select id, state as "to" from moved`,
          trx,
        );
        for (const r of found) moved.set(r.id, r.to);
        return moved;
      }
      for (const m of moves) {
        const level = ALERT_LEVEL[m.to];
        const from = m.to === 'breached' ? ['ok', 'at_risk'] : ['ok'];
        const found = await rows(
          sql<{ id: number }>`update tickets
            set sla_state = ${m.to}, sla_alerted = case when sla_alerted < ${level} then ${level} else sla_alerted end
            where id = ${m.id} and sla_state in (${sql.join(from)}) returning id`,
          trx,
        );
        if (found.length > 0) moved.set(m.id, m.to);
      }
      const breaches = moves.filter((m) => moved.get(m.id) === 'breached');
      if (breaches.length > 0) {
        await trx
          .insertInto('ticket_events')
          .values(
            breaches.map((m) => ({
              ticket_id: m.id,
              user_id: null,
              kind: 'sla_breached',
              field: 'resolution_due_at',
              from_value: m.dueAt,
              to_value: m.dueAt,
              created_at: at,
            })),
          )
          .execute();
      }
      return moved;
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
     * Writes each ticket's alert for its threshold, once (the primary key), and takes the alerts
     * to deliver now: those just written whose time has come, written delivered (`sent_at`),
     * then those written before and due by now, oldest first (sla_alerts_pending_idx), at most
     * `limit`, marked delivered. An alert due later is written pending. Answers how many alerts
     * were written, and those to deliver with what their recipients depend on. On PostgreSQL
     * one statement; on SQLite the insert, then the search and the mark by a list of keys.
     */
    async scheduleAndClaim(
      alerts: readonly NewAlert[],
      now: string,
      limit: number,
      trx: Kysely<DB>,
    ): Promise<{ scheduled: number; due: DueAlert[] }> {
      const at = Date.parse(now);
      const sentAt = (a: NewAlert) => (Date.parse(a.notifyAt) <= at ? now : null);
      const byKey = new Map(alerts.map((a) => [alertKey(a.ticket.id, a.threshold), a]));
      /** An alert written here and due now, with its ticket as the round read it. */
      const fresh = (key: string): DueAlert[] => {
        const a = byKey.get(key);
        if (!a) return [];
        const { id, name, user_assigned_id, area_id, created_by } = a.ticket;
        return [
          { ticket_id: id, threshold: a.threshold, name, user_assigned_id, area_id, resolved_at: null, created_by },
        ];
      };
      if (dialect === 'postgres') {
        const answered = await rows(
          sql<DueAlert & { written: boolean; deliver: boolean }>`with written as (
              insert into sla_alerts (ticket_id, threshold, notify_at, sent_at)
              select * from unnest(${alerts.map((a) => a.ticket.id)}::int[],
                ${alerts.map((a) => a.threshold)}::text[], ${alerts.map((a) => a.notifyAt)}::timestamptz[],
                ${alerts.map(sentAt)}::timestamptz[])
              on conflict (ticket_id, threshold) do nothing
              returning ticket_id, threshold, sent_at is not null as deliver),
            due as (${searches.due(dueColumns, now, limit, hint)}),
            marked as (
              update sla_alerts a set sent_at = ${now}::timestamptz from due d
              where a.ticket_id = d.ticket_id and a.threshold = d.threshold and a.sent_at is null
              returning a.ticket_id, a.threshold)
            select w.ticket_id, w.threshold, true as written, w.deliver, null as name, null as user_assigned_id,
              null as area_id, null as resolved_at, null as created_by
            from written w
            union all
            select d.ticket_id, d.threshold, false, true, d.name, d.user_assigned_id, d.area_id, d.resolved_at,
              d.created_by
            from due d join marked m on m.ticket_id = d.ticket_id and m.threshold = d.threshold`,
          trx,
        );
        const written = answered.filter((a) => a.written);
        return {
          scheduled: written.length,
          due: [
            ...written.filter((a) => a.deliver).flatMap((a) => fresh(alertKey(a.ticket_id, a.threshold))),
            ...answered.filter((a) => !a.written).map(({ written: _w, deliver: _d, ...a }) => a),
          ],
        };
      }
      const inserted =
        alerts.length === 0
          ? []
          : await trx
              .insertInto('sla_alerts')
              .values(
                alerts.map((a) => ({
                  ticket_id: a.ticket.id,
                  threshold: a.threshold,
                  notify_at: a.notifyAt,
                  sent_at: sentAt(a),
                })),
              )
              .onConflict((oc) => oc.columns(['ticket_id', 'threshold']).doNothing())
              .returning(['ticket_id', 'threshold', 'sent_at'])
              .execute();
      const delivered = inserted
        .filter((a) => a.sent_at !== null)
        .flatMap((a) => fresh(alertKey(a.ticket_id, a.threshold)));
      return { scheduled: inserted.length, due: [...delivered, ...(await claimDue(now, limit, trx))] };
    },

    /**
     * Who the alerts go to, in one read: the assignees given, and the active users whose role
     * supervises (is_supervisor) in the areas given, by area; each as their mail needs them,
     * with their channel for the event `sla` when they chose one.
     */
    async recipients(
      assigneeIds: readonly number[],
      areaIds: readonly number[],
      trx: Kysely<DB>,
    ): Promise<{ people: Map<number, MailPerson>; supervisors: Map<number, number[]> }> {
      const people = new Map<number, MailPerson>();
      const supervisors = new Map<number, number[]>(areaIds.map((id) => [id, []]));
      if (assigneeIds.length === 0 && areaIds.length === 0) return { people, supervisors };
      const found = await trx
        .selectFrom('users as u')
        .innerJoin('roles as r', 'r.id', 'u.role_id')
        .select(['u.id', 'u.area_id', 'u.name', 'u.last_name', 'u.email', 'u.status_id', 'r.is_supervisor'])
        .select((eb) =>
          eb
            .selectFrom('notification_rhythms as nr')
            .select('nr.rhythm')
            .whereRef('nr.user_id', '=', 'u.id')
            .as('rhythm'),
        )
        .select((eb) =>
          eb
            .selectFrom('notification_preferences as np')
            .select('np.channel')
            .whereRef('np.user_id', '=', 'u.id')
            .where('np.event', '=', 'sla')
            .as('sla_channel'),
        )
        .where((eb) =>
          eb.or([
            ...(assigneeIds.length > 0 ? [eb('u.id', 'in', [...assigneeIds])] : []),
            ...(areaIds.length > 0
              ? [
                  eb.and([
                    eb('u.area_id', 'in', [...areaIds]),
                    eb('r.is_supervisor', '=', 1),
                    eb('u.status_id', '=', RECORD_STATUS.active),
                  ]),
                ]
              : []),
          ]),
        )
        .orderBy('u.id')
        .execute();
      for (const u of found) {
        people.set(u.id, {
          id: u.id,
          name: u.name,
          last_name: u.last_name,
          email: u.email,
          status_id: u.status_id,
          rhythm: u.rhythm as MailRhythm | null,
          channels: new Map(u.sla_channel === null ? [] : [['sla', u.sla_channel as NotificationChannel]]),
        });
        const isSupervisor = u.is_supervisor === 1 && u.status_id === RECORD_STATUS.active;
        if (isSupervisor && u.area_id !== null) supervisors.get(u.area_id)?.push(u.id);
      }
      return { people, supervisors };
    },

    /**
     * The plan of one of the sweep's searches (`tickets`: the four ticket searches as a round
     * makes them, in one statement), for the tests that hold it to its index. On
     * PostgreSQL sequential scans are priced out first, as a large table prices them: a test
     * database is small enough for the planner to read it whole.
     */
    async explain(search: SlaSweepSearch | 'tickets', now: string): Promise<string> {
      const query =
        search === 'tickets' ? allTicketSearches(now, 100, hint) : searches[search](sql.raw('1'), now, 100, hint);
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
