import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { grantScreen } from './grant-screen.ts';
import { runStatements } from './run-statements.ts';

const ADMINISTRATOR_ROLE_ID = 1;
const SUPERVISOR_ROLE_ID = 2;

/**
 * Service levels on business hours:
 * - `business_calendars` (a zone, the working intervals of each weekday and the holidays, both
 *   as JSON text) and `sla_policies` (a priority, optionally an area, a calendar, the
 *   first-response and resolution targets in business minutes); one policy per priority and area
 *   (no area: any area), enforced by a unique index over `coalesce(area_id, 0)`;
 * - `ticket_statuses.pauses_sla` (set for `En espera`);
 * - each ticket's SLA on its row: the policy, both due dates, the instant it becomes at risk,
 *   first response, resolution, paused minutes and the start of the current pause, and its
 *   state; indexes for the lists' sorts and filter and for the alert sweep (partial: only the
 *   tickets still running);
 * - `sla_alerts`: one row per ticket and threshold, so an alert is sent once whatever the
 *   number of processes;
 * - PostgreSQL: writes to both catalogues are announced (`catalogs`) to every process;
 * - on a database seeded before: the two screens for Administrador (all) and Supervisor (read).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await runStatements(db, dialect === 'postgres' ? postgres : sqlite);
  await runStatements(db, common);
  await grantScreen(db, {
    route: 'business-calendars',
    section: 'cal_main',
    grants: [
      { roleId: ADMINISTRATOR_ROLE_ID, flags: { r: 1, w: 1, u: 1, d: 1 } },
      { roleId: SUPERVISOR_ROLE_ID, flags: { r: 1, w: 0, u: 0, d: 0 } },
    ],
  });
  await grantScreen(db, {
    route: 'sla-policies',
    section: 'sla_main',
    grants: [
      { roleId: ADMINISTRATOR_ROLE_ID, flags: { r: 1, w: 1, u: 1, d: 1 } },
      { roleId: SUPERVISOR_ROLE_ID, flags: { r: 1, w: 0, u: 0, d: 0 } },
    ],
  });
}

const slaStates = `('none', 'ok', 'at_risk', 'breached', 'met', 'paused')`;

const sqlite = [
  `create table business_calendars (
    id integer primary key autoincrement,
    name varchar(100) not null unique,
    time_zone varchar(64) not null,
    week text not null,
    holidays text not null default '[]',
    status_id integer not null default 1 references statuses (id) on delete restrict,
    created_at text not null,
    updated_at text not null
  )`,
  `create table sla_policies (
    id integer primary key autoincrement,
    name varchar(100) not null unique,
    priority_type_id integer not null references priority_types (id) on delete restrict,
    area_id integer references areas (id) on delete restrict,
    calendar_id integer not null references business_calendars (id) on delete restrict,
    first_response_minutes integer not null check (first_response_minutes > 0),
    resolution_minutes integer not null check (resolution_minutes > 0),
    status_id integer not null default 1 references statuses (id) on delete restrict,
    created_at text not null,
    updated_at text not null
  )`,
  `alter table ticket_statuses add column pauses_sla integer not null default 0`,
  `alter table tickets add column sla_policy_id integer references sla_policies (id) on delete set null`,
  `alter table tickets add column first_response_due_at text`,
  `alter table tickets add column resolution_due_at text`,
  `alter table tickets add column sla_at_risk_at text`,
  `alter table tickets add column first_responded_at text`,
  `alter table tickets add column resolved_at text`,
  `alter table tickets add column sla_paused_minutes integer not null default 0`,
  `alter table tickets add column sla_paused_at text`,
  `alter table tickets add column sla_state varchar(10) not null default 'none' check (sla_state in ${slaStates})`,
  `create table sla_alerts (
    ticket_id integer not null references tickets (id) on delete cascade,
    threshold varchar(10) not null check (threshold in ('at_risk', 'breached')),
    sent_at text not null,
    primary key (ticket_id, threshold)
  )`,
];

const postgres = [
  `create table business_calendars (
    id serial primary key,
    name varchar(100) not null unique,
    time_zone varchar(64) not null,
    week text not null,
    holidays text not null default '[]',
    status_id integer not null default 1 references statuses (id) on delete restrict,
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`,
  `create table sla_policies (
    id serial primary key,
    name varchar(100) not null unique,
    priority_type_id integer not null references priority_types (id) on delete restrict,
    area_id integer references areas (id) on delete restrict,
    calendar_id integer not null references business_calendars (id) on delete restrict,
    first_response_minutes integer not null check (first_response_minutes > 0),
    resolution_minutes integer not null check (resolution_minutes > 0),
    status_id integer not null default 1 references statuses (id) on delete restrict,
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`,
  `alter table ticket_statuses add column pauses_sla integer not null default 0`,
  `alter table tickets
    add column sla_policy_id integer references sla_policies (id) on delete set null,
    add column first_response_due_at timestamptz,
    add column resolution_due_at timestamptz,
    add column sla_at_risk_at timestamptz,
    add column first_responded_at timestamptz,
    add column resolved_at timestamptz,
    add column sla_paused_minutes integer not null default 0,
    add column sla_paused_at timestamptz,
    add column sla_state varchar(10) not null default 'none' check (sla_state in ${slaStates})`,
  `create table sla_alerts (
    ticket_id integer not null references tickets (id) on delete cascade,
    threshold varchar(10) not null check (threshold in ('at_risk', 'breached')),
    sent_at timestamptz not null,
    primary key (ticket_id, threshold)
  )`,
  `create trigger business_calendars_invalidate after insert or update or delete on business_calendars
    for each statement execute function portal_invalidate_statement('catalogs')`,
  `create trigger sla_policies_invalidate after insert or update or delete on sla_policies
    for each statement execute function portal_invalidate_statement('catalogs')`,
];

const common = [
  `create unique index sla_policies_priority_area_unique on sla_policies (priority_type_id, coalesce(area_id, 0))`,
  `update ticket_statuses set pauses_sla = 1 where name = 'En espera'`,
  `create index tickets_resolution_due_idx on tickets (resolution_due_at, id)`,
  `create index tickets_first_response_due_idx on tickets (first_response_due_at, id)`,
  `create index tickets_sla_state_due_idx on tickets (sla_state, resolution_due_at, id)`,
  // The alert sweep: the running tickets by the instant they become at risk, and by their due date.
  `create index tickets_sla_risk_sweep_idx on tickets (sla_at_risk_at) where sla_state = 'ok'`,
  `create index tickets_sla_breach_sweep_idx on tickets (resolution_due_at) where sla_state in ('ok', 'at_risk')`,
];
