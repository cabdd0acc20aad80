import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * Merging a duplicate moves its activities and attachments to the ticket it duplicates;
 * each keeps the number of the ticket it came from (null for those written on the ticket itself).
 */
const statements = [
  'alter table activities add column merged_from_ticket_id integer references tickets (id) on delete set null',
  'alter table ticket_attachments add column merged_from_ticket_id integer references tickets (id) on delete set null',
];

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await runStatements(db, statements);
}
