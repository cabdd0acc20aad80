import type { Generated, Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { createTicketReportDerivations, rebuildTicketReportDerivations } from '../ticket-report-derivations.ts';

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

const ROUTE = 'dashboard';
const SECTION = 'db_main';
/** Administrador holds every flag, Supervisor reads (as seed-data.ts grants them on a fresh database). */
const GRANTS = [
  { roleId: 1, flags: { r: 1, w: 1, u: 1, d: 1 } },
  { roleId: 2, flags: { r: 1, w: 0, u: 0, d: 0 } },
];

/**
 * Tablero (/dashboard, section db_main):
 * - the report's maintained figures (db/ticket-report-derivations.ts): `ticket_report_now`,
 *   `ticket_report_daily`, `ticket_closures` and their triggers, backfilled from the tickets
 *   (the closing instant of a ticket already closed is taken as its `updated_at`);
 * - on a database already seeded, the route, the section and the permissions of
 *   Administrador and Supervisor (a fresh database gets them from the seed).
 */
export async function up(database: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  await database.schema
    .createTable('ticket_report_now')
    .addColumn('area_id', 'integer', (c) => c.notNull())
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('stage', 'varchar(10)', (c) => c.notNull())
    .addColumn('priority_type_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('ticket_report_now_pk', ['area_id', 'project_id', 'stage', 'priority_type_id', 'user_id'])
    .execute();
  await database.schema
    .createTable('ticket_report_daily')
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('area_id', 'integer', (c) => c.notNull())
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('closed', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('ticket_report_daily_pk', ['day', 'area_id', 'project_id'])
    .execute();
  await database.schema
    .createTable('ticket_closures')
    .addColumn('ticket_id', 'integer', (c) => c.primaryKey())
    .addColumn('closed_at', timestamp, (c) => c.notNull())
    .addColumn('seconds', 'integer', (c) => c.notNull())
    .addColumn('area_id', 'integer', (c) => c.notNull())
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .execute();
  // Covering: a range of closures is read from the index alone, filters included.
  await database.schema
    .createIndex('ticket_closures_closed_idx')
    .on('ticket_closures')
    .columns(['closed_at', 'area_id', 'project_id', 'user_id', 'seconds'])
    .execute();

  await createTicketReportDerivations(database, dialect);
  await rebuildTicketReportDerivations(database, dialect);

  await grantScreen(database as unknown as Kysely<MigrationDb>);
}

async function grantScreen(db: Kysely<MigrationDb>): Promise<void> {
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

  for (const { roleId, flags } of GRANTS) {
    const role = await db.selectFrom('roles').select('id').where('id', '=', roleId).executeTakeFirst();
    if (!role) continue;
    const hasRoute = await db
      .selectFrom('routes_permission')
      .select('id')
      .where('route_id', '=', routeId)
      .where('role_id', '=', role.id)
      .executeTakeFirst();
    if (!hasRoute) {
      await db
        .insertInto('routes_permission')
        .values({ route_id: routeId, role_id: role.id, ...stamp })
        .execute();
    }
    const hasSection = await db
      .selectFrom('sections_permission')
      .select('id')
      .where('section_id', '=', sectionId)
      .where('role_id', '=', role.id)
      .executeTakeFirst();
    if (!hasSection) {
      await db
        .insertInto('sections_permission')
        .values({ section_id: sectionId, role_id: role.id, ...flags, ...stamp })
        .execute();
    }
  }
}
