import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * PostgreSQL: `ticket_attr_blocks`, which tickets carry each attribute token, as bitmaps of
 * 1,024 ticket ids (`block` = id >> 10; bit `id & 1023` counted from the left), so a list's
 * total is counted from its tokens' bitmaps (AND across its conditions, OR within one) in
 * the index alone (`bits` is included in the primary key's index), without visiting one
 * ticket row per match as a count through the GIN index of `search_doc` does.
 *
 * The attribute tokens are the `search_doc` lexemes marked `_` (`_status5`, `_assignee0`),
 * so a field added to the text index's attributes is kept here without a change. After each
 * statement that writes tickets, a trigger flips the bit of every token a row gained or lost
 * (set when gained, clear when lost: XOR), all of them in one upsert per token and block, in
 * that order: a bulk write touches each bitmap once, and two writers lock the rows they
 * share in the same order.
 * Existing tickets are counted in. SQLite counts through its FTS5 index, which needs none.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await runStatements(db, postgres);
}

const postgres = [
  `create table ticket_attr_blocks (
    token text not null,
    block integer not null,
    bits bit(1024) not null,
    primary key (token, block) include (bits)
  )`,
  // Flips, for each (ticket id, token) given, that ticket's bit in the token's bitmap of its block.
  `create function portal_ticket_attr_flip(ids integer[], tokens text[]) returns void language sql as $$
    insert into ticket_attr_blocks as b (token, block, bits)
      select f.token, f.id >> 10, bit_or(B'1'::bit(1024) >> (f.id & 1023)) from unnest(ids, tokens) f(id, token)
      group by 1, 2 order by 1, 2
      on conflict (token, block) do update set bits = b.bits # excluded.bits
  $$`,
  // The attribute tokens each row of the statement gained or lost.
  `create function portal_ticket_attr_blocks() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform portal_ticket_attr_flip(array_agg(n.id), array_agg(u.lexeme))
          from new_rows n, unnest(n.search_doc) u where left(u.lexeme, 1) = '_';
      elsif tg_op = 'DELETE' then
        perform portal_ticket_attr_flip(array_agg(o.id), array_agg(u.lexeme))
          from old_rows o, unnest(o.search_doc) u where left(u.lexeme, 1) = '_';
      else
        perform portal_ticket_attr_flip(array_agg(f.id), array_agg(f.token)) from (
          (select n.id, u.lexeme from new_rows n, unnest(n.search_doc) u where left(u.lexeme, 1) = '_'
           except select o.id, u.lexeme from old_rows o, unnest(o.search_doc) u where left(u.lexeme, 1) = '_')
          union all
          (select o.id, u.lexeme from old_rows o, unnest(o.search_doc) u where left(u.lexeme, 1) = '_'
           except select n.id, u.lexeme from new_rows n, unnest(n.search_doc) u where left(u.lexeme, 1) = '_')
        ) f(id, token);
      end if;
      return null;
    end $$`,
  `create trigger tickets_attr_blocks_insert after insert on tickets referencing new table as new_rows
    for each statement execute function portal_ticket_attr_blocks()`,
  `create trigger tickets_attr_blocks_update after update on tickets
    referencing old table as old_rows new table as new_rows
    for each statement execute function portal_ticket_attr_blocks()`,
  `create trigger tickets_attr_blocks_delete after delete on tickets referencing old table as old_rows
    for each statement execute function portal_ticket_attr_blocks()`,
  `insert into ticket_attr_blocks (token, block, bits)
    select u.lexeme, t.id >> 10, bit_or(B'1'::bit(1024) >> (t.id & 1023))
    from tickets t, unnest(t.search_doc) u
    where left(u.lexeme, 1) = '_'
    group by u.lexeme, t.id >> 10`,
  `analyze ticket_attr_blocks`,
];
