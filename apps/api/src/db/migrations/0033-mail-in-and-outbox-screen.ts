import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { grantScreen } from './grant-screen.ts';
import { runStatements } from './run-statements.ts';

const ROUTE = 'mail-outbox';
const SECTION = 'mo_main';
const ADMINISTRATOR_ROLE_ID = 1;

/**
 * Mail in, and the Correo screen (Accesos → Correo, section mo_main of the mail-outbox route).
 *
 * `mail_inbox`: one row per incoming message, keyed by its `Message-ID` (unique), written before
 * the message is acted on, so a message fetched twice is processed once. `outcome`: `processed`
 * (an activity or a ticket, `ticket_id`), `rejected`, `ignored` (auto-replies, bounces, loops),
 * `error` (too large, unreadable), with the `reason` in words.
 *
 * `mail_in_state`: the poller's one row (id 1): its last poll and last error.
 *
 * On a database already seeded, the screen's route and section, granted to Administrador alone
 * (a fresh database gets them from the seed).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await runStatements(db, dialect === 'postgres' ? postgres : sqlite);
  await grantScreen(db, {
    route: ROUTE,
    section: SECTION,
    grants: [{ roleId: ADMINISTRATOR_ROLE_ID, flags: { r: 1, w: 1, u: 1, d: 1 } }],
  });
}

const sqlite = [
  `create table mail_inbox (
    id integer primary key autoincrement,
    message_id text not null unique,
    from_address text not null,
    subject text not null,
    outcome text not null check (outcome in ('processing', 'processed', 'rejected', 'ignored', 'error')),
    reason text,
    ticket_id integer references tickets (id) on delete set null,
    created_at text not null
  )`,
  `create index mail_inbox_outcome_idx on mail_inbox (outcome)`,
  `create table mail_in_state (
    id integer primary key check (id = 1),
    last_poll_at text,
    last_error text,
    last_error_at text
  )`,
];

const postgres = [
  `create table mail_inbox (
    id serial primary key,
    message_id text not null unique,
    from_address text not null,
    subject text not null,
    outcome text not null check (outcome in ('processing', 'processed', 'rejected', 'ignored', 'error')),
    reason text,
    ticket_id integer references tickets (id) on delete set null,
    created_at timestamptz not null
  )`,
  `create index mail_inbox_outcome_idx on mail_inbox (outcome)`,
  `create table mail_in_state (
    id integer primary key check (id = 1),
    last_poll_at timestamptz,
    last_error text,
    last_error_at timestamptz
  )`,
];
