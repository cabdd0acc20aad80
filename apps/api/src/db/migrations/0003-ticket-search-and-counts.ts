import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { createTicketDerivations, rebuildTicketDerivations } from '../ticket-derivations.ts';

/**
 * What keeps the ticket lists fast at a million tickets (ARCHITECTURE.md, "Tickets at scale"):
 * - `tickets.stage`, the stage of the ticket's status, kept on the row so the
 *   history lists seek an index instead of joining the statuses;
 * - a full-text index of name and description (SQLite FTS5, PostgreSQL tsvector + GIN);
 * - `ticket_counts`, per-stage counters maintained by triggers in the writing transaction;
 * - the list indexes; the trigram indexes the full-text index replaces are dropped.
 * Existing tickets are backfilled.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('tickets')
    .addColumn('stage', 'varchar(10)', (c) => c.notNull().defaultTo('open'))
    .execute();
  await sql`update tickets set stage = (select s.stage from ticket_statuses s where s.id = tickets.status_id)`.execute(
    db,
  );

  await db.schema
    .createTable('ticket_counts')
    .addColumn('kind', 'smallint', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('stage', 'varchar(10)', (c) => c.notNull())
    .addColumn('shard', 'smallint', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('ticket_counts_pk', ['kind', 'user_id', 'stage', 'shard'])
    .execute();

  if (dialect === 'postgres') {
    await sql`drop index if exists tickets_name_trgm_idx`.execute(db);
    await sql`drop index if exists tickets_description_trgm_idx`.execute(db);
    await sql`alter table tickets add column search_doc tsvector`.execute(db);
  }
  await db.schema.dropIndex('tickets_assigned_status_idx').execute();
  await db.schema.createIndex('tickets_stage_idx').on('tickets').columns(['stage', 'id']).execute();
  await sql`create index tickets_current_idx on tickets (id) where stage <> 'closed'`.execute(db);

  await createTicketDerivations(db, dialect);
  await rebuildTicketDerivations(db, dialect);
  if (dialect === 'postgres') {
    await sql`create index tickets_search_idx on tickets using gin (search_doc)`.execute(db);
  }
}
