import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Indexes the ticket lists and the workload need at a million tickets:
 * - workload counts per assignee and status read only the index;
 * - on PostgreSQL, trigram indexes let `ilike '%term%'` on name and
 *   description use a bitmap scan instead of reading every ticket.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createIndex('tickets_assigned_status_idx')
    .on('tickets')
    .columns(['user_assigned_id', 'status_id'])
    .execute();
  await db.schema.createIndex('ticket_statuses_stage_idx').on('ticket_statuses').columns(['stage', 'id']).execute();
  await db.schema.createIndex('users_name_idx').on('users').columns(['name', 'last_name']).execute();

  if (dialect === 'postgres') {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index tickets_name_trgm_idx on tickets using gin (name gin_trgm_ops)`.execute(db);
    await sql`create index tickets_description_trgm_idx on tickets using gin (description gin_trgm_ops)`.execute(db);
  }
}
