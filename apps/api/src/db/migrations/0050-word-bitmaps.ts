import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * PostgreSQL: bitmaps of the tickets holding each common word, beside the attribute tokens'.
 * A search that combines a common word with another word, a filter or the caller's scope
 * counts its matches up to the cap through the text index, and GIN reads each word's whole
 * posting list before any limit applies: the cost grows with the table. When every word of
 * the search (each whole word it starts) has bitmaps, the total is counted from them as a
 * filtered list's is, one row per token for every 8,192 tickets.
 *
 * `ticket_bitmap_words` lists the words whose bitmaps `ticket_attr_blocks` keeps complete (the
 * word itself is the token: attribute tokens start with `_`, words never do). The attribute
 * blocks' trigger flips them too, and for an updated row whose text index changed (its text or
 * its attributes), the lexemes it gained or lost.
 *
 * `portal_ticket_word_bitmaps(over)` lists the words held by more than `over` tickets
 * (`ticket_word_counts`) that are not listed yet and writes their bitmaps. It locks `tickets`
 * against writes meanwhile (a flip is an exclusive or, so no writer may flip a bit of a
 * bitmap being built, nor commit a ticket the build does not see); run time calls it in the
 * background, after ticket writes, with a lock timeout.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await runStatements(db, postgres);
}

/** Whether lexeme `u.lexeme` has bitmaps: an attribute token, or a listed word. */
const HAS_BITMAPS = `(left(u.lexeme, 1) = '_' or u.lexeme in (select word from ticket_bitmap_words))`;

/**
 * The words more than `over` tickets hold that have no bitmaps yet. Such a word has more than
 * over / 8 in one of its 8 shards at least: only those words' shards are added up.
 */
const NEW_COMMON_WORDS = `select c.word from ticket_word_counts c
  where c.word in (select word from ticket_word_counts where n > over / 8)
    and not exists (select 1 from ticket_bitmap_words b where b.word = c.word)
  group by c.word having sum(c.n) > over`;

const postgres = [
  `create table ticket_bitmap_words (
    word text collate "C" not null,
    constraint ticket_bitmap_words_pk primary key (word)
  )`,
  `create or replace function portal_ticket_attr_blocks() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform portal_ticket_attr_flip(array_agg(n.id), array_agg(u.lexeme))
          from new_rows n, unnest(n.search_doc) u where ${HAS_BITMAPS};
      elsif tg_op = 'DELETE' then
        perform portal_ticket_attr_flip(array_agg(o.id), array_agg(u.lexeme))
          from old_rows o, unnest(o.search_doc) u where ${HAS_BITMAPS};
      else
        perform portal_ticket_attr_flip(array_agg(f.id), array_agg(f.token)) from (
          with changed as materialized (
            select n.id, o.search_doc as before, n.search_doc as after
            from old_rows o join new_rows n on n.id = o.id
            where o.search_doc is distinct from n.search_doc)
          (select id, u.lexeme from changed, unnest(after) u where ${HAS_BITMAPS}
           except select id, u.lexeme from changed, unnest(before) u where ${HAS_BITMAPS})
          union all
          (select id, u.lexeme from changed, unnest(before) u where ${HAS_BITMAPS}
           except select id, u.lexeme from changed, unnest(after) u where ${HAS_BITMAPS})
        ) f(id, token);
      end if;
      return null;
    end $$`,
  `create function portal_ticket_word_bitmaps(over integer) returns integer language plpgsql as $$
    declare
      added text[];
    begin
      -- Nearly always there is none: the lock is taken only when there is a word to add.
      if not exists (${NEW_COMMON_WORDS}) then
        return 0;
      end if;
      lock table tickets in share mode;
      with fresh as (insert into ticket_bitmap_words (word) ${NEW_COMMON_WORDS} returning word)
      select array_agg(word) into added from fresh;
      if added is null then
        return 0;
      end if;
      -- The bits gathered in 64-bit integers, each row written once as hexadecimal (OR-ing a
      -- whole bit string per ticket copies a kilobyte each time).
      insert into ticket_attr_blocks as b (token, block, shard, bits)
      with words as (
        select u.lexeme as token, t.id >> 16 as block, t.id & 7 as shard, (t.id >> 9) & 127 as w,
          bit_or(1::bigint << (63 - ((t.id >> 3) & 63))) as v
        from tickets t, unnest(t.search_doc) u
        where t.search_doc @@ (select string_agg(quote_literal(a), ' | ') from unnest(added) a)::tsquery
          and u.lexeme in (select unnest(added))
        group by 1, 2, 3, 4)
      select token, block, shard, ('x' || rpad(string_agg(repeat('0', 16 * (w - prev - 1))
        || lpad(to_hex(v), 16, '0'), '' order by w), 2048, '0'))::bit(8192)
      from (select *, coalesce(lag(w) over (partition by token, block, shard order by w), -1) as prev
        from words) x
      group by 1, 2, 3
      on conflict (token, block, shard) do update set bits = excluded.bits;
      return cardinality(added);
    end $$`,
  'select portal_ticket_word_bitmaps(10000)',
];
