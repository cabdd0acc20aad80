import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * PostgreSQL: `ticket_attr_blocks` rows eight times wider. A count reads, joins and ANDs one row
 * per block and shard of each token, so its cost follows the number of rows, and with 1,024 ids
 * a row that number grew with the table: ten million tickets gave each token about ten thousand
 * rows. A row now holds 8,192 ids: those of one residue modulo 8 (`shard` = id & 7, as before,
 * so consecutive tickets still flip different rows) within a block of 65,536 (`block` =
 * id >> 16), at bit (id >> 3) & 8191 from the left. A row of the old layout is the eighth
 * (old block & 7) of the new row of its token, block >> 3 and shard: the bitmaps are carried
 * over rather than computed again from the tickets.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await runStatements(db, [
    `create table ticket_attr_blocks_new (
      token text not null,
      block integer not null,
      shard smallint not null,
      bits bit(8192) not null
    ) with (fillfactor = 50)`,
    // A cast to the longer bit string pads it with zeros on the right.
    `insert into ticket_attr_blocks_new (token, block, shard, bits)
      select token, block >> 3, shard, bit_or(bits::bit(8192) >> ((block & 7) * 1024))
      from ticket_attr_blocks
      group by 1, 2, 3
      order by 1, 2, 3`,
    'drop table ticket_attr_blocks',
    'alter table ticket_attr_blocks_new rename to ticket_attr_blocks',
    'alter table ticket_attr_blocks add constraint ticket_attr_blocks_pkey primary key (token, block, shard)',
    // Flips, for each (ticket id, token) given, that ticket's bit in the token's bitmap of its block and shard.
    `create or replace function portal_ticket_attr_flip(ids integer[], tokens text[]) returns void language plpgsql as $$
      begin
        insert into ticket_attr_blocks as b (token, block, shard, bits)
        select f.token, f.id >> 16, f.id & 7, bit_or(B'1'::bit(8192) >> ((f.id >> 3) & 8191))
        from unnest(ids, tokens) f(id, token)
        group by 1, 2, 3 order by 1, 2, 3
        on conflict (token, block, shard) do update set bits = b.bits # excluded.bits;
      end $$`,
    'analyze ticket_attr_blocks',
  ]);
}
