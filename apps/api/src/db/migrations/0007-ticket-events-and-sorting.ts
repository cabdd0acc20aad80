import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * The ticket's page and the list filters and sorts:
 * - `ticket_events`, the timeline of each ticket, written in the transaction of each change;
 *   every existing ticket gets its 'created' event in one INSERT … SELECT (the index is built after it);
 * - the indexes the sorted lists walk (`(column, id)`), and `created_at` to turn a date range into an id range.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const pg = dialect === 'postgres';
  await db.schema
    .createTable('ticket_events')
    .addColumn('id', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('field', 'varchar(40)')
    .addColumn('from_value', 'varchar(2000)')
    .addColumn('to_value', 'varchar(2000)')
    .addColumn('created_at', pg ? 'timestamptz' : 'text', (c) => c.notNull())
    .execute();
  await recordCreatedEvents(db);
  await db.schema.createIndex('ticket_events_ticket_idx').on('ticket_events').columns(['ticket_id', 'id']).execute();

  const indexes: [string, string[]][] = [
    ['tickets_created_at_idx', ['created_at']],
    ['tickets_name_sort_idx', ['name', 'id']],
    ['tickets_priority_sort_idx', ['priority_type_id', 'id']],
    ['tickets_project_sort_idx', ['project_id', 'id']],
    ['tickets_updated_sort_idx', ['updated_at', 'id']],
  ];
  for (const [name, columns] of indexes) {
    await db.schema.createIndex(name).ifNotExists().on('tickets').columns(columns).execute();
  }
}

/** A 'created' event, by the creator at the creation time, for every ticket that has none. */
export async function recordCreatedEvents(db: Kysely<unknown>): Promise<void> {
  await sql`insert into ticket_events (ticket_id, user_id, kind, created_at)
    select t.id, t.created_by, 'created', t.created_at from tickets t
    where not exists (select 1 from ticket_events e where e.ticket_id = t.id)
    order by t.id`.execute(db);
}
