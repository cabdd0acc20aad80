import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * PostgreSQL: `ticket_attr_blocks` spread so that tickets written at once do not wait for each
 * other. Every ticket written flips a bit in about ten of its rows, and consecutive ids shared
 * them (one row per token and 1,024 ids): each writer held those rows until its commit, so
 * concurrent creations committed one at a time. A row now holds the ids of one residue modulo 8
 * (`shard` = id & 7) within a block of 8,192 (`block` = id >> 13), at bit (id >> 3) & 1023 from
 * the left: eight consecutive tickets touch eight different rows. A count ANDs the bitmaps of
 * the same block and shard, as before it did those of a block.
 *
 * And rows are updated in place: `bits` is no longer in the primary key's index (an update that
 * changes an indexed column adds an index entry, and those piled up on the rows every write
 * flips), and pages are filled by half, leaving room for the new version of a row on its page.
 * The bitmaps are computed again from the tickets' attribute tokens (`search_doc`, marked `_`).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await runStatements(db, [
    `create table ticket_attr_blocks_new (
      token text not null,
      block integer not null,
      shard smallint not null,
      bits bit(1024) not null
    ) with (fillfactor = 50)`,
    `insert into ticket_attr_blocks_new (token, block, shard, bits)
      select u.lexeme, t.id >> 13, t.id & 7, bit_or(B'1'::bit(1024) >> ((t.id >> 3) & 1023))
      from tickets t, unnest(t.search_doc) u
      where left(u.lexeme, 1) = '_'
      group by 1, 2, 3
      order by 1, 2, 3`,
    'drop table ticket_attr_blocks',
    'alter table ticket_attr_blocks_new rename to ticket_attr_blocks',
    'alter table ticket_attr_blocks add constraint ticket_attr_blocks_pkey primary key (token, block, shard)',
    // Flips, for each (ticket id, token) given, that ticket's bit in the token's bitmap of its block and shard.
    `create or replace function portal_ticket_attr_flip(ids integer[], tokens text[]) returns void language sql as $$
      insert into ticket_attr_blocks as b (token, block, shard, bits)
      select f.token, f.id >> 13, f.id & 7, bit_or(B'1'::bit(1024) >> ((f.id >> 3) & 1023))
      from unnest(ids, tokens) f(id, token)
      group by 1, 2, 3 order by 1, 2, 3
      on conflict (token, block, shard) do update set bits = b.bits # excluded.bits
    $$`,
  ]);
}
