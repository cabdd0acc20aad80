import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * PostgreSQL: `ticket_word_counts`, how many tickets hold each word of the text index, per
 * shard of ids (so concurrent writers of one common word rarely wait on one row; readers add
 * the shards up). A search for one word held by more tickets than a list counts is then told
 * "more than" from these rows, where counting its matches read the word's whole posting list
 * and thousands of table pages first (GIN reads a word's postings whole, before any limit).
 *
 * Statement triggers on `tickets` add each inserted row's words, take each deleted row's away
 * and, for an updated row whose text index was filled or emptied or whose name or
 * description changed, the difference between its old and new words. Filled here from the
 * index itself (`ts_stat`: documents per lexeme), in shard 0. Attribute lexemes (`_…`) are
 * not words. SQLite's FTS5 stops counting at the cap by itself: no table there.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await runStatements(db, postgres);
}

/** Each of `rows`' words with `sign`, per shard: the lexemes of `search_doc` but the attribute ones. */
const wordsOf = (rows: string, document: string, sign: string) =>
  `select u.lexeme, ${rows}.id & 7, ${sign} from ${rows}, unnest(${rows}.${document}) u where left(u.lexeme, 1) <> '_'`;

/** Adds the `(word, shard, sign)` rows of `source` up and into the counts, in key order. */
const addUp = (source: string) => `insert into ticket_word_counts as c (word, shard, n)
    select word, shard, sum(sign) from (${source}) x(word, shard, sign)
    group by word, shard having sum(sign) <> 0 order by word, shard
    on conflict (word, shard) do update set n = c.n + excluded.n`;

const postgres = [
  `create table ticket_word_counts (
    word text collate "C" not null,
    shard smallint not null,
    n integer not null,
    constraint ticket_word_counts_pk primary key (word, shard)
  )`,
  `create function portal_ticket_word_counts() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${addUp(wordsOf('new_rows', 'search_doc', '1'))};
      elsif tg_op = 'DELETE' then
        ${addUp(wordsOf('old_rows', 'search_doc', '-1'))};
      else
        with changed as materialized (
          select n.id, o.search_doc as before, n.search_doc as after
          from old_rows o join new_rows n on n.id = o.id
          where o.name is distinct from n.name or o.description is distinct from n.description
            or (o.search_doc is null) <> (n.search_doc is null))
        ${addUp(`${wordsOf('changed', 'after', '1')} union all ${wordsOf('changed', 'before', '-1')}`)};
      end if;
      return null;
    end $$`,
  `create trigger tickets_word_counts_insert after insert on tickets referencing new table as new_rows
    for each statement execute function portal_ticket_word_counts()`,
  `create trigger tickets_word_counts_update after update on tickets
    referencing old table as old_rows new table as new_rows
    for each statement execute function portal_ticket_word_counts()`,
  `create trigger tickets_word_counts_delete after delete on tickets referencing old table as old_rows
    for each statement execute function portal_ticket_word_counts()`,
  `insert into ticket_word_counts (word, shard, n)
    select word, 0, ndoc from ts_stat('select search_doc from tickets') where left(word, 1) <> '_'`,
];
