import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { reportStatements } from './0010-dashboard.ts';
import { runStatements } from './run-statements.ts';

/**
 * The dashboard's counter tables get a `shard` column in their keys (described in
 * db/ticket-report-derivations.ts): with one row per area, project and day, every ticket
 * created on PostgreSQL waited for the commit of the one before. The tables only derive from
 * the tickets and the closures, so they are created anew (as migration 0010 now creates them)
 * and refilled. A database whose 0010 already made them sharded is left alone.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const { rows } =
    dialect === 'postgres'
      ? await sql`select 1 from information_schema.columns
          where table_schema = current_schema() and table_name = 'ticket_report_now' and column_name = 'shard'`.execute(
          db,
        )
      : await sql`select 1 from pragma_table_info('ticket_report_now') where name = 'shard'`.execute(db);
  if (rows.length > 0) return;
  const { counterTables, derivations } = reportStatements[dialect];
  const drops =
    dialect === 'postgres'
      ? [
          'drop trigger if exists tickets_report_insert on tickets',
          'drop trigger if exists tickets_report_delete on tickets',
          'drop trigger if exists tickets_report_update on tickets',
          'drop trigger if exists ticket_closures_report_insert on ticket_closures',
          'drop trigger if exists ticket_closures_report_delete on ticket_closures',
          'drop trigger if exists ticket_closures_report_update on ticket_closures',
        ]
      : [
          'drop trigger if exists tickets_report_insert',
          'drop trigger if exists tickets_report_update',
          'drop trigger if exists tickets_report_delete',
          'drop trigger if exists ticket_closures_report_insert',
          'drop trigger if exists ticket_closures_report_update',
          'drop trigger if exists ticket_closures_report_delete',
        ];
  await runStatements(db, [
    ...drops,
    'drop table "ticket_report_now"',
    'drop table "ticket_report_daily"',
    ...counterTables,
    ...derivations,
  ]);
}
