import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * SQLite: bitmaps of the tickets carrying each attribute token (`ticket_attr_bits`), so the
 * total of a list filtered by several fields is counted from a few rows per thousand tickets
 * instead of FTS5 reading every posting of each token (it reads them all before an AND of
 * common tokens finds its sparse matches).
 *
 * A row holds the tickets of one token in one chunk of 1,024 ids: ticket `id` is bit `id & 31`
 * of word `w<(id >> 5) & 31>` of chunk `id >> 10`. Words of 32 bits: any reader gets them as
 * exact numbers, and `|`, `&` and `~` on them never reach the sign. The tokens are the text
 * index's (`status5`, `assignee0`…), the ticket's number aside. Triggers keep the rows in the
 * statement of every ticket write, with SQLite's own functions only, so any writer keeps them;
 * a word whose last ticket left stays 0.
 */
const WORDS = Array.from({ length: 32 }, (_, i) => `w${i}`);

/** A row's tokens as a JSON array, `r` being `new` or `old` (or a table's alias). */
const tokens = (r: string) => `json_array('priority' || ${r}.priority_type_id, 'status' || ${r}.status_id,
    'project' || ${r}.project_id, 'area' || ${r}.area_id, 'category' || ${r}.category_id,
    'difficulty' || ${r}.difficulty_id, 'creator' || ${r}.created_by,
    'assignee' || coalesce(${r}.user_assigned_id, 0), 'group' || coalesce(${r}.group_id, 0),
    'stage' || ${r}.stage, 'sla' || replace(${r}.sla_state, '_', ''))`;

/** Word `i` of ticket `r.id`'s chunk with only its bit set (0 when its bit is in another word). */
const bit = (r: string, i: number) => `iif(${r}.id >> 5 & 31 = ${i}, 1 << (${r}.id & 31), 0)`;

/**
 * Sets (`r` = `new`) or clears (`r` = `old`) the bit of `r.id` in the rows of the tokens `source`
 * selects (as `value`). Both are an upsert on the primary key, which SQLite seeks row by row (in
 * a trigger, an update by `token in (<the tokens>)` costs many times more); a row a clearing
 * creates holds no bit.
 */
const moveBits = (r: 'new' | 'old', source: string) => `insert into ticket_attr_bits (token, chunk, ${WORDS.join(', ')})
    select value, ${r}.id >> 10, ${WORDS.map((_, i) => bit(r, i)).join(', ')}
    from (${source}) where true
    on conflict (token, chunk) do update set ${WORDS.map((w) => (r === 'new' ? `${w} = ${w} | excluded.${w}` : `${w} = ${w} & ~excluded.${w}`)).join(', ')};`;

const newTokens = `select value from json_each(${tokens('new')})`;
const oldTokens = `select value from json_each(${tokens('old')})`;

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  await runStatements(db, [
    `create table ticket_attr_bits (
      token text not null,
      chunk integer not null,
      ${WORDS.map((w) => `${w} integer not null default 0`).join(', ')},
      primary key (token, chunk)
    ) without rowid`,
    `insert into ticket_attr_bits (token, chunk, ${WORDS.join(', ')})
      select j.value, t.id >> 10, ${WORDS.map((_, i) => `sum(${bit('t', i)})`).join(', ')}
      from tickets t, json_each(${tokens('t')}) j
      group by j.value, t.id >> 10`,
    `create trigger tickets_attr_bits_insert after insert on tickets begin
      ${moveBits('new', newTokens)}
    end`,
    // Only the tokens the write changed: most updates change one field, or none of these.
    `create trigger tickets_attr_bits_update after update of priority_type_id, status_id, project_id,
      area_id, category_id, difficulty_id, created_by, user_assigned_id, group_id, stage, sla_state on tickets
    begin
      ${moveBits('old', `${oldTokens} except ${newTokens}`)}
      ${moveBits('new', `${newTokens} except ${oldTokens}`)}
    end`,
    `create trigger tickets_attr_bits_delete after delete on tickets begin
      ${moveBits('old', oldTokens)}
    end`,
  ]);
}
