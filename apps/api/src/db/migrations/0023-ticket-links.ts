import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * Relations between tickets: `parent` (from the parent to its child), `duplicate` (from the
 * duplicate to the ticket it duplicates) and `related` (stored once per pair, the lower id first).
 * A pair of tickets holds at most one link; a ticket has at most one parent and duplicates at
 * most one ticket (partial unique indexes). Each ticket's links are read from either end.
 */
const statements: Record<Dialect, readonly string[]> = {
  sqlite: [
    `create table ticket_links (
      id integer primary key autoincrement,
      from_ticket_id integer not null references tickets (id) on delete cascade,
      to_ticket_id integer not null references tickets (id) on delete cascade,
      kind varchar(10) not null check (kind in ('parent', 'duplicate', 'related')),
      created_by integer references users (id) on delete set null,
      created_at text not null,
      check (from_ticket_id <> to_ticket_id),
      check (kind <> 'related' or from_ticket_id < to_ticket_id)
    )`,
  ],
  postgres: [
    `create table ticket_links (
      id serial primary key,
      from_ticket_id integer not null references tickets (id) on delete cascade,
      to_ticket_id integer not null references tickets (id) on delete cascade,
      kind varchar(10) not null check (kind in ('parent', 'duplicate', 'related')),
      created_by integer references users (id) on delete set null,
      created_at timestamptz not null,
      check (from_ticket_id <> to_ticket_id),
      check (kind <> 'related' or from_ticket_id < to_ticket_id)
    )`,
  ],
};

const indexes = [
  'create unique index ticket_links_pair_idx on ticket_links (from_ticket_id, to_ticket_id)',
  'create index ticket_links_to_idx on ticket_links (to_ticket_id, kind)',
  `create unique index ticket_links_one_parent_idx on ticket_links (to_ticket_id) where kind = 'parent'`,
  `create unique index ticket_links_one_original_idx on ticket_links (from_ticket_id) where kind = 'duplicate'`,
];

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await runStatements(db, [...statements[dialect], ...indexes]);
}
