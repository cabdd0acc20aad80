import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { createPgSearchIndex, createTicketDerivations, pgAttrsCall, rebuildPgWords } from '../ticket-derivations.ts';

/**
 * PostgreSQL search answered by its index alone, as SQLite's FTS5 already is
 * (ARCHITECTURE.md, "Tickets at scale"): `search_doc` gains one lexeme per filterable
 * value of the ticket (`_c12` created by 12, `_p4` priority 4…), kept by the trigger,
 * and `ticket_words` (every indexed word, so a searched prefix becomes whole words)
 * now exists on PostgreSQL too. Existing tickets are backfilled, the index built once.
 * Nothing changes on SQLite.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`drop index if exists tickets_search_idx`.execute(db);
  await createTicketDerivations(db, dialect);
  // The text's lexemes are there already: only the attributes are added, by rewriting the
  // table once (an UPDATE of every row would leave it twice its size until a VACUUM FULL).
  await sql
    .raw(
      `alter table tickets alter column search_doc type tsvector
       using search_doc || array_to_tsvector(${pgAttrsCall('tickets')})`,
    )
    .execute(db);
  await rebuildPgWords(db);
  await createPgSearchIndex(db);
}
