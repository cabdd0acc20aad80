import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { grantScreen, type ScreenGrant } from '../grant-screen.ts';
import {
  createReportCounterTables,
  createTicketReportDerivations,
  rebuildTicketReportDerivations,
} from '../ticket-report-derivations.ts';

const ROUTE = 'dashboard';
const SECTION = 'db_main';
/** Administrador holds every flag, Supervisor reads (as seed-data.ts grants them on a fresh database). */
const GRANTS: ScreenGrant[] = [
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
  await createReportCounterTables(database);
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

  await grantScreen(database, { route: ROUTE, section: SECTION, grants: GRANTS });
}
