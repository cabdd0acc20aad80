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
 * so a field added to the text index's attributes is kept here without a change. A trigger
 * after every write of a ticket sets and clears the bits of the tokens that came and went,
 * in one statement in token order (two writers lock the rows they share in the same order).
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
  `create function portal_ticket_attr_blocks() returns trigger language plpgsql as $$
    declare
      tid integer := case when tg_op = 'DELETE' then old.id else new.id end;
      mask bit(1024) := B'1'::bit(1024) >> (tid & 1023);
      gone text[] := case when tg_op = 'INSERT' then '{}'::text[]
        else array(select lexeme from unnest(old.search_doc) where left(lexeme, 1) = '_') end;
      came text[] := case when tg_op = 'DELETE' then '{}'::text[]
        else array(select lexeme from unnest(new.search_doc) where left(lexeme, 1) = '_') end;
    begin
      insert into ticket_attr_blocks as b (token, block, bits)
        select x.token, tid >> 10, case when x.sets then mask else B'0'::bit(1024) end
        from (select t, true from unnest(came) t where t <> all(gone)
              union all
              select t, false from unnest(gone) t where t <> all(came)) x(token, sets)
        order by x.token
        on conflict (token, block) do update
          set bits = case when bit_count(excluded.bits) = 0 then b.bits & ~mask else b.bits | mask end;
      return null;
    end $$`,
  `create trigger tickets_attr_blocks after insert or delete on tickets
    for each row execute function portal_ticket_attr_blocks()`,
  `create trigger tickets_attr_blocks_update after update on tickets
    for each row when (old.search_doc is distinct from new.search_doc)
    execute function portal_ticket_attr_blocks()`,
  `insert into ticket_attr_blocks (token, block, bits)
    select u.lexeme, t.id >> 10, bit_or(B'1'::bit(1024) >> (t.id & 1023))
    from tickets t, unnest(t.search_doc) u
    where left(u.lexeme, 1) = '_'
    group by u.lexeme, t.id >> 10`,
  `analyze ticket_attr_blocks`,
];
