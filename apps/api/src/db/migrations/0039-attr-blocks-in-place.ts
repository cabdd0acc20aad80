import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * PostgreSQL: `ticket_attr_blocks` rewritten in place. Every ticket written flips a bit in about
 * ten rows of this table, the same rows for all the tickets of one block of ids. With `bits` in
 * the primary key's index, each flip wrote a new index entry too (an update that changes an
 * indexed column cannot stay on its page), and those entries piled up faster than anything
 * removed them. The key now holds the token and block only, and pages are filled by half, so a
 * flip rewrites the row on its own page and the index is untouched. A count reads the bitmaps
 * from the rows, a few hundred per token at a million tickets. The table is copied to take
 * its new layout at once.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await runStatements(db, [
    `create table ticket_attr_blocks_new (
      token text not null,
      block integer not null,
      bits bit(1024) not null
    ) with (fillfactor = 50)`,
    'insert into ticket_attr_blocks_new (token, block, bits) select token, block, bits from ticket_attr_blocks order by token, block',
    'drop table ticket_attr_blocks',
    'alter table ticket_attr_blocks_new rename to ticket_attr_blocks',
    'alter table ticket_attr_blocks add constraint ticket_attr_blocks_pkey primary key (token, block)',
  ]);
}
