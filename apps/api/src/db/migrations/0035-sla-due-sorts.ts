import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * Lists sorted by a due date (`first_response_due_at`, `resolution_due_at`):
 *
 * - `first_response_due_sort` and `resolution_due_sort`, each its due date or, for a ticket
 *   without one (no SLA policy), the last instant of year 9999: what a list sorted by the due
 *   date orders by, with its `(column, id)` index. A nullable column would sort its nulls
 *   differently per dialect and break the export's keyset; a ticket without a due date is
 *   the least urgent, last when the soonest come first.
 * - The same order over the tickets at risk or breached only (partial indexes): the list of
 *   "Por vencer o vencidos" sorted by due date reads its page from there, both ways, however
 *   few such tickets the table holds.
 * - The plain due-date indexes of 0019 served only those sorts and are dropped.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await runStatements(db, dialect === 'postgres' ? postgres : sqlite);
}

const atRisk = `sla_state in ('at_risk', 'breached')`;

const indexes = [
  `drop index tickets_first_response_due_idx`,
  `drop index tickets_resolution_due_idx`,
  `create index tickets_first_response_due_sort_idx on tickets (first_response_due_sort, id)`,
  `create index tickets_resolution_due_sort_idx on tickets (resolution_due_sort, id)`,
  `create index tickets_risk_first_response_due_idx on tickets (first_response_due_sort, id) where ${atRisk}`,
  `create index tickets_risk_resolution_due_idx on tickets (resolution_due_sort, id) where ${atRisk}`,
];

const sqlite = [
  `alter table tickets add column first_response_due_sort text
    generated always as (coalesce(first_response_due_at, '9999-12-31T23:59:59.999Z')) virtual`,
  `alter table tickets add column resolution_due_sort text
    generated always as (coalesce(resolution_due_at, '9999-12-31T23:59:59.999Z')) virtual`,
  ...indexes,
];

const postgres = [
  // One rewrite of the table for both columns.
  `alter table tickets
    add column first_response_due_sort timestamptz
      generated always as (coalesce(first_response_due_at, '9999-12-31 23:59:59.999+00')) stored,
    add column resolution_due_sort timestamptz
      generated always as (coalesce(resolution_due_at, '9999-12-31 23:59:59.999+00')) stored`,
  ...indexes,
];
