import type { Kysely } from 'kysely';
import { grantScreen } from './grant-screen.ts';

const ROUTE = 'audit-log';
const SECTION = 'au_main';
const ADMINISTRATOR_ROLE_ID = 1;

/**
 * Auditoría (/audit-log, section au_main):
 * - indexes that keep its list newest-first and its user and action filters
 *   fast on a large log (created_at, id break ties in the same millisecond);
 * - on a database already seeded, the route, the section and Administrador's
 *   permissions (a fresh database gets them from the seed, seed-data.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('audit_log_created_id_idx').on('audit_log').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('audit_log_user_created_idx')
    .on('audit_log')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('audit_log_event_created_idx')
    .on('audit_log')
    .columns(['event', 'created_at', 'id'])
    .execute();

  await grantScreen(db, {
    route: ROUTE,
    section: SECTION,
    grants: [{ roleId: ADMINISTRATOR_ROLE_ID, flags: { r: 1, w: 1, u: 1, d: 1 } }],
  });
}
