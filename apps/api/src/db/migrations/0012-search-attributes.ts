import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { postgresDerivations } from './0003-ticket-search-and-counts.ts';
import { runStatements } from './run-statements.ts';

/**
 * PostgreSQL search answered by its index alone, as SQLite's FTS5 already is
 * (ARCHITECTURE.md, "Tickets at scale"): `search_doc` gains one lexeme per filterable
 * value of the ticket (`_c12` created by 12, `_p4` priority 4…), kept by the trigger,
 * and `ticket_words` (every indexed word, so a searched prefix becomes whole words)
 * now exists on PostgreSQL too. The derivations of migration 0003 are created again as
 * they are now; existing tickets are backfilled, the index built once. Nothing changes
 * on SQLite.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await runStatements(db, [
    `drop index if exists tickets_search_idx`,
    `drop trigger if exists tickets_search_doc on tickets`,
    `drop trigger if exists tickets_counts on tickets`,
    `drop trigger if exists ticket_statuses_stage on ticket_statuses`,
    ...postgresDerivations,
    // The text's lexemes are there already: only the attributes are added, by rewriting the
    // table once (an UPDATE of every row would leave it twice its size until a VACUUM FULL).
    `alter table tickets alter column search_doc type tsvector
      using search_doc || array_to_tsvector(portal_ticket_attrs(tickets.created_by, tickets.user_assigned_id, tickets.stage, tickets.status_id, tickets.priority_type_id, tickets.project_id, tickets.area_id, tickets.category_id, tickets.difficulty_id))`,
    `insert into ticket_words (word)
      select distinct w from tickets, unnest(tsvector_to_array(search_doc)) w where left(w, 1) <> '_'
      on conflict do nothing`,
    `create index if not exists tickets_search_idx on tickets using gin (search_doc)
      with (fastupdate = off)`,
  ]);
}
