import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * PostgreSQL: `search_doc` also holds every word's first one, two and three characters as
 * lexemes marked by a leading `^` (`^1`, `^14`, `^140` of `14023`), as SQLite's text index
 * keeps prefix indexes (migration 0051). A searched word that starts more indexed words than a
 * search lists (a digit typed) was asked as a prefix (`'1':*`), and GIN reads a prefix as the
 * posting lists of every lexeme it starts, thousands of them, before it can intersect them
 * with anything: in proportion to the table, even within the few tickets of Mis Tickets. A
 * prefix of up to three characters is now one lexeme: GIN intersects its postings with the
 * list's attributes as it does a word's.
 *
 * They are words to the counters (they do not start with `_`): `ticket_word_counts` counts
 * them, and the common ones get bitmaps (`ticket_bitmap_words`, migration 0050), so the total
 * of a search that types one is counted as a common word's is. `ticket_words` (the words a
 * prefix is looked up in) does not hold them.
 *
 * One rewrite of the table adds them to every `search_doc` (no trigger runs; the indexes are
 * built again once), then they are counted and the common ones (more tickets than the lists'
 * count cap, 10,000) get their bitmaps.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await runStatements(db, postgres);
}

const postgres = [
  `create function portal_word_prefixes(doc tsvector) returns tsvector language sql immutable parallel safe as $$
      select array_to_tsvector(array(
        select distinct '^' || left(w, n) from unnest(tsvector_to_array(doc)) w,
          generate_series(1, least(3, length(w))) n
        where left(w, 1) not in ('_', '^')))
    $$`,
  `create function portal_text_doc(words text) returns tsvector language sql immutable parallel safe as $$
      select d || portal_word_prefixes(d) from to_tsvector('simple', words) d
    $$`,
  `create or replace function portal_ticket_search_doc() returns trigger language plpgsql as $$
    declare
      body tsvector;
    begin
      if tg_op = 'INSERT' or old.search_doc is null
         or new.name is distinct from old.name or new.description is distinct from old.description then
        body := to_tsvector('simple', portal_search_text(new.name || ' ' || new.description));
        -- Nearly every word is known: look first, so the insert (and its conflict check) is for new ones only.
        insert into ticket_words (word) select w from unnest(tsvector_to_array(body)) w
          where not exists (select 1 from ticket_words x where x.word = w) on conflict do nothing;
        new.search_doc := body || portal_word_prefixes(body) || array_to_tsvector(portal_ticket_attrs(
          new.priority_type_id, new.status_id, new.project_id, new.area_id, new.category_id, new.difficulty_id,
          new.created_by, new.user_assigned_id, new.group_id, new.stage));
      else
        -- Only attributes changed: swap their lexemes, the text's stay.
        new.search_doc := ts_delete(old.search_doc, portal_ticket_attrs(old.priority_type_id, old.status_id,
            old.project_id, old.area_id, old.category_id, old.difficulty_id, old.created_by, old.user_assigned_id,
            old.group_id, old.stage))
          || array_to_tsvector(portal_ticket_attrs(new.priority_type_id, new.status_id, new.project_id,
            new.area_id, new.category_id, new.difficulty_id, new.created_by, new.user_assigned_id, new.group_id,
            new.stage));
      end if;
      return new;
    end $$`,
  `alter table tickets alter column search_doc type tsvector using search_doc || portal_word_prefixes(search_doc)`,
  `analyze tickets`,
  `insert into ticket_word_counts (word, shard, n)
    select word, 0, ndoc from ts_stat('select search_doc from tickets') where left(word, 1) = '^'`,
  `insert into ticket_bitmap_words (word)
    select word from ticket_word_counts where left(word, 1) = '^' group by word having sum(n) > 10000`,
  // Block by block of ids, each block's tickets read once through the primary key and their bits
  // gathered by hashing in memory: one statement for the whole table spills to disk.
  `do $$
    declare
      b integer;
      previous text[] := array[current_setting('work_mem'), current_setting('enable_seqscan'),
        current_setting('enable_sort')];
    begin
      perform set_config('work_mem', '256MB', true);
      perform set_config('enable_seqscan', 'off', true);
      perform set_config('enable_sort', 'off', true);
      for b in select distinct id >> 16 from tickets loop
        insert into ticket_attr_blocks (token, block, shard, bits)
        with words as materialized (
          select u.lexeme collate "C" as token, t.id >> 16 as block, t.id & 7 as shard, (t.id >> 9) & 127 as w,
            bit_or(1::bigint << (63 - ((t.id >> 3) & 63))) as v
          from tickets t, unnest(t.search_doc) u
          where t.id >= b * 65536 and t.id < (b + 1) * 65536
            and left(u.lexeme, 1) = '^' and u.lexeme in (select word from ticket_bitmap_words)
          group by 1, 2, 3, 4)
        select token, block, shard, ('x' || rpad(string_agg(repeat('0', 16 * (w - prev - 1))
          || lpad(to_hex(v), 16, '0'), '' order by w), 2048, '0'))::bit(8192)
        from (select *, coalesce(lag(w) over (partition by token, block, shard order by w), -1) as prev
          from words) x
        group by 1, 2, 3;
      end loop;
      perform set_config('work_mem', previous[1], true);
      perform set_config('enable_seqscan', previous[2], true);
      perform set_config('enable_sort', previous[3], true);
    end $$`,
];
