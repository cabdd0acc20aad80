import type { Generated, Kysely } from 'kysely';

interface Stamped {
  id: Generated<number>;
  status_id: number;
  created_at: string;
  updated_at: string;
}

/** The tables this migration reads and writes, as they were when it was written. */
interface MigrationDb {
  routes: Stamped & { name: string };
  sections: Stamped & { name: string; route_id: number };
  roles: Stamped & { name: string };
  routes_permission: Stamped & { route_id: number; role_id: number };
  sections_permission: Stamped & { section_id: number; role_id: number; r: number; w: number; u: number; d: number };
}

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
export async function up(database: Kysely<unknown>): Promise<void> {
  const db = database as unknown as Kysely<MigrationDb>;
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

  const isSeeded = await db.selectFrom('routes').select('id').limit(1).executeTakeFirst();
  if (!isSeeded) return;

  const now = new Date().toISOString();
  const stamp = { status_id: 1, created_at: now, updated_at: now };
  const routeId =
    (await db.selectFrom('routes').select('id').where('name', '=', ROUTE).executeTakeFirst())?.id ??
    (
      await db
        .insertInto('routes')
        .values({ name: ROUTE, ...stamp })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const sectionId =
    (await db.selectFrom('sections').select('id').where('name', '=', SECTION).executeTakeFirst())?.id ??
    (
      await db
        .insertInto('sections')
        .values({ name: SECTION, route_id: routeId, ...stamp })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  const admin = await db.selectFrom('roles').select('id').where('id', '=', ADMINISTRATOR_ROLE_ID).executeTakeFirst();
  if (!admin) return;
  const hasRoute = await db
    .selectFrom('routes_permission')
    .select('id')
    .where('route_id', '=', routeId)
    .where('role_id', '=', admin.id)
    .executeTakeFirst();
  if (!hasRoute) {
    await db
      .insertInto('routes_permission')
      .values({ route_id: routeId, role_id: admin.id, ...stamp })
      .execute();
  }
  const hasSection = await db
    .selectFrom('sections_permission')
    .select('id')
    .where('section_id', '=', sectionId)
    .where('role_id', '=', admin.id)
    .executeTakeFirst();
  if (!hasSection) {
    await db
      .insertInto('sections_permission')
      .values({ section_id: sectionId, role_id: admin.id, r: 1, w: 1, u: 1, d: 1, ...stamp })
      .execute();
  }
}
