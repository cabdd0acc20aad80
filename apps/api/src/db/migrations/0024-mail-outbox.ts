import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * E-mail notifications.
 *
 * `mail_outbox`: every mail, written in the transaction of the event that causes it and sent
 * by a worker (modules/mail). `status`: `pending` (due at `next_attempt_at`), `sending` (claimed
 * by one worker until `lease_until`, under `claim_token`; a worker that died mid-send leaves it
 * to be claimed again once the lease ends), `sent`, `failed` (given up, `last_error`), and
 * `digest` (one line of a summary mail, gathered at `next_attempt_at` into one `pending` mail).
 * `message_id` is the mail's own Message-ID, unique, so a reply can be traced back to its ticket.
 *
 * `notification_preferences`: a person's channel per event (absent: the default);
 * `notification_rhythms`: how their e-mail arrives (absent: immediately).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await runStatements(db, dialect === 'postgres' ? postgres : sqlite);
}

const sqlite = [
  `create table mail_outbox (
    id integer primary key autoincrement,
    user_id integer references users (id) on delete set null,
    ticket_id integer references tickets (id) on delete set null,
    to_address text not null,
    subject text not null,
    text_body text not null,
    html_body text not null,
    message_id text not null unique,
    headers text not null,
    status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed', 'digest')),
    attempts integer not null default 0,
    next_attempt_at text not null,
    lease_until text,
    claim_token text,
    last_error text,
    created_at text not null,
    sent_at text
  )`,
  `create index mail_outbox_due_idx on mail_outbox (status, next_attempt_at)`,
  `create index mail_outbox_user_idx on mail_outbox (user_id, status)`,
  `create table notification_preferences (
    user_id integer not null references users (id) on delete cascade,
    event text not null,
    channel text not null check (channel in ('portal', 'email', 'both', 'none')),
    primary key (user_id, event)
  )`,
  `create table notification_rhythms (
    user_id integer primary key references users (id) on delete cascade,
    rhythm text not null check (rhythm in ('immediate', 'hourly', 'daily'))
  )`,
];

const postgres = [
  `create table mail_outbox (
    id serial primary key,
    user_id integer references users (id) on delete set null,
    ticket_id integer references tickets (id) on delete set null,
    to_address text not null,
    subject text not null,
    text_body text not null,
    html_body text not null,
    message_id text not null unique,
    headers text not null,
    status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed', 'digest')),
    attempts integer not null default 0,
    next_attempt_at timestamptz not null,
    lease_until timestamptz,
    claim_token text,
    last_error text,
    created_at timestamptz not null,
    sent_at timestamptz
  )`,
  `create index mail_outbox_due_idx on mail_outbox (status, next_attempt_at)`,
  `create index mail_outbox_user_idx on mail_outbox (user_id, status)`,
  `create table notification_preferences (
    user_id integer not null references users (id) on delete cascade,
    event text not null,
    channel text not null check (channel in ('portal', 'email', 'both', 'none')),
    primary key (user_id, event)
  )`,
  `create table notification_rhythms (
    user_id integer primary key references users (id) on delete cascade,
    rhythm text not null check (rhythm in ('immediate', 'hourly', 'daily'))
  )`,
];
