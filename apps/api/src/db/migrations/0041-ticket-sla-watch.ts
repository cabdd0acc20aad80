import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * `ticket_sla_watch`: each ticket's SLA clock columns (state, alert level, at-risk instant, due
 * dates, resolution and pause), copied from its row by triggers in the same write, with every
 * index that reads the state or the alert level: the alert sweep's four and the lists' three
 * (by state, and "Por vencer o vencidos" by each due date). They leave `tickets`.
 *
 * Why: the sweep moves the state and alert level of tickets nobody writes. While an index of
 * `tickets` read them, PostgreSQL could not update the row in place (a HOT update): each move
 * wrote a new entry in every index of `tickets`, the text index's one per word, and each page's
 * first write after a checkpoint logged whole. Now such a move rewrites the ticket row on its
 * own page and one narrow row with its few indexes. On PostgreSQL `tickets` leaves a tenth of
 * each new page free for those in-place updates (`fillfactor`; pages already written gain room
 * as they are pruned). SQLite rewrites only the indexes whose columns change: the copy is there
 * so that both read the same way.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const isPg = dialect === 'postgres';
  const instant = isPg ? 'timestamptz' : 'text';
  await runStatements(db, [
    `create table ticket_sla_watch (
      ticket_id integer primary key references tickets (id) on delete cascade,
      sla_state varchar(10) not null,
      sla_alerted smallint not null,
      sla_at_risk_at ${instant},
      resolution_due_at ${instant},
      resolved_at ${instant},
      sla_paused_at ${instant},
      resolution_due_sort ${instant} not null,
      first_response_due_sort ${instant} not null)`,
    `insert into ticket_sla_watch (${COLUMNS.join(', ')}) select id, ${COLUMNS.slice(1).join(', ')} from tickets`,
    `drop index tickets_sla_state_due_idx`,
    `drop index tickets_risk_first_response_due_idx`,
    `drop index tickets_risk_resolution_due_idx`,
    `drop index tickets_sla_risk_sweep_idx`,
    `drop index tickets_sla_breach_sweep_idx`,
    `drop index tickets_sla_risk_alert_idx`,
    `drop index tickets_sla_breach_alert_idx`,
    // The same indexes, on the copy, with their predicates as the queries write them.
    `create index ticket_sla_watch_state_due_idx on ticket_sla_watch (sla_state, resolution_due_at, ticket_id)`,
    `create index ticket_sla_watch_risk_resolution_due_idx on ticket_sla_watch (resolution_due_sort, ticket_id)
      where ${AT_RISK}`,
    `create index ticket_sla_watch_risk_first_response_due_idx on ticket_sla_watch (first_response_due_sort, ticket_id)
      where ${AT_RISK}`,
    `create index ticket_sla_watch_risk_sweep_idx on ticket_sla_watch (sla_at_risk_at) where sla_state = 'ok'`,
    `create index ticket_sla_watch_breach_sweep_idx on ticket_sla_watch (resolution_due_at)
      where sla_state in ('ok', 'at_risk')`,
    `create index ticket_sla_watch_risk_alert_idx on ticket_sla_watch (sla_at_risk_at)
      where sla_alerted = 0 and resolved_at is null and sla_paused_at is null`,
    `create index ticket_sla_watch_breach_alert_idx on ticket_sla_watch (resolution_due_at)
      where sla_alerted < 2 and resolved_at is null and sla_paused_at is null`,
    ...(isPg ? postgres : sqlite),
  ]);
}

/** The copied columns, the ticket's id first (`ticket_id`). */
const COLUMNS = [
  'ticket_id',
  'sla_state',
  'sla_alerted',
  'sla_at_risk_at',
  'resolution_due_at',
  'resolved_at',
  'sla_paused_at',
  'resolution_due_sort',
  'first_response_due_sort',
];
const copied = COLUMNS.slice(1);

const AT_RISK = `sla_state in ('at_risk', 'breached')`;

const values = `new.id, ${copied.map((c) => `new.${c}`).join(', ')}`;
const assignments = copied.map((c) => `${c} = new.${c}`).join(', ');
/** The columns a ticket write can change (the due-date sorts follow their dates). */
const sources = [...new Set(copied.map((c) => c.replace(/_sort$/, '_at')))];

const postgres = [
  `create function portal_ticket_sla_watch() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into ticket_sla_watch (${COLUMNS.join(', ')}) values (${values});
      else
        update ticket_sla_watch set ${assignments} where ticket_id = new.id;
      end if;
      return null;
    end $$`,
  `create trigger tickets_sla_watch_insert after insert on tickets
    for each row execute function portal_ticket_sla_watch()`,
  `create trigger tickets_sla_watch_update after update on tickets for each row
    when (${sources.map((c) => `old.${c} is distinct from new.${c}`).join(' or ')})
    execute function portal_ticket_sla_watch()`,
  `alter table tickets set (fillfactor = 90)`,
];

const sqlite = [
  `create trigger tickets_sla_watch_insert after insert on tickets begin
    insert into ticket_sla_watch (${COLUMNS.join(', ')}) values (${values});
  end`,
  `create trigger tickets_sla_watch_update after update of ${sources.join(', ')} on tickets begin
    update ticket_sla_watch set ${assignments} where ticket_id = new.id;
  end`,
];
