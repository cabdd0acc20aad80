import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import {
  createReportCounterTables,
  createTicketReportDerivations,
  dropTicketReportTriggers,
  hasReportShards,
  rebuildTicketReportDerivations,
} from '../ticket-report-derivations.ts';

/**
 * The dashboard's counter tables get a `shard` column in their keys (db/ticket-report-derivations.ts):
 * with one row per area, project and day, every ticket created on PostgreSQL waited for the
 * commit of the one before. The tables only derive from the tickets and the closures, so they
 * are created anew and refilled. A database whose 0010 already made them sharded is left alone.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (await hasReportShards(db, dialect)) return;
  await dropTicketReportTriggers(db, dialect);
  await db.schema.dropTable('ticket_report_now').execute();
  await db.schema.dropTable('ticket_report_daily').execute();
  await createReportCounterTables(db);
  await createTicketReportDerivations(db, dialect);
  await rebuildTicketReportDerivations(db, dialect);
}
