import {
  TICKET_FIELDS,
  ticketFilterFields,
  type TicketField,
  type TicketSortColumn,
  type TTicketFiltersInput,
} from '@portal/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, TicketsTable } from '../src/db/schema.ts';
import { ATTR_BIT_WORDS } from '../src/db/ticket-derivations.ts';

/**
 * The lists' oracle: which tickets a list shows and in what order, worked out from the rows
 * alone (no index), by the fields of TICKET_FIELDS. A field added there is recounted here.
 */
export type RecountRow = Selectable<TicketsTable>;

const fields = Object.entries(TICKET_FIELDS as Record<string, TicketField>);

/** Every ticket, and each one's rank by name in the database's own collation (a plain ORDER BY). */
export async function readRecountRows(db: Kysely<DB>): Promise<{ rows: RecountRow[]; nameRank: Map<number, number> }> {
  const columns = [
    ...new Set(['id', ...fields.flatMap(([, f]) => [f.column, ...(f.sortColumn ? [f.sortColumn] : [])]), 'stage']),
  ] as (keyof TicketsTable)[];
  const rows = (await db.selectFrom('tickets').select(columns).execute()) as RecountRow[];
  const byName = await db.selectFrom('tickets').select('id').orderBy('name').orderBy('id').execute();
  return { rows, nameRank: new Map(byName.map((r, i) => [r.id, i])) };
}

const dayStart = (day: string) => `${day}T00:00:00.000Z`;
const nextDay = (day: string) => new Date(Date.parse(dayStart(day)) + 86_400_000).toISOString();

/** Whether a row meets every filter (each filterable field of TICKET_FIELDS, by its kind). */
export function meetsFilters(row: RecountRow, filters: TTicketFiltersInput): boolean {
  const given = filters as Record<string, unknown>;
  return ticketFilterFields.every((key) => {
    const field: TicketField = TICKET_FIELDS[key];
    const value = row[field.column as keyof RecountRow];
    if (field.kind === 'dates') {
      const [from, to] = [given[`${key}_from`] as string | undefined, given[`${key}_to`] as string | undefined];
      return (!from || String(value) >= dayStart(from)) && (!to || String(value) < nextDay(to));
    }
    const raw = given[field.column];
    const wanted = raw === null ? [null] : (raw as unknown[] | undefined);
    return !wanted?.length || wanted.includes(value);
  });
}

/** The ids of these rows in a list's sort order (the sort field's column, then the id, as the lists do). */
export function sortedIds(
  rows: RecountRow[],
  sort: { by: TicketSortColumn; dir: 'asc' | 'desc' },
  nameRank: Map<number, number>,
): number[] {
  const field: TicketField = TICKET_FIELDS[sort.by];
  const column = field.sortColumn as keyof RecountRow;
  // Text sorts by the database's collation, which JavaScript's comparison is not; a due date
  // sorts by its own column, a ticket without one after every date.
  const isDueDate = field.kind === 'dates' && field.sortColumn !== field.column && field.sortColumn !== 'id';
  const key = (r: RecountRow) =>
    field.kind === 'text'
      ? nameRank.get(r.id)!
      : isDueDate
        ? String(r[field.column as keyof RecountRow] ?? '\uffff')
        : (r[column] as number | string);
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...rows]
    .sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      if (ka !== kb) return (ka < kb ? -1 : 1) * sign;
      return (a.id - b.id) * sign;
    })
    .map((r) => r.id);
}

/** An RFC 4180 parser, enough to read the export back. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** PostgreSQL: every attribute bitmap with a bit set (`ticket_attr_blocks`), its bits as text. */
export const attrBitmaps = async (db: Kysely<DB>) =>
  (
    await sql<{ token: string; block: number; shard: number; bits: string }>`select token, block, shard,
      bits::text as bits from ticket_attr_blocks where bit_count(bits) > 0 order by token, block, shard`.execute(db)
  ).rows;

/** SQLite: every row of attribute bitmaps with a bit set (`ticket_attr_bits`), with its words. */
export const sqliteAttrBits = async (db: Kysely<DB>) =>
  (
    await sql
      .raw<Record<string, number | string>>(
        `select * from ticket_attr_bits where ${ATTR_BIT_WORDS.join(' | ')} <> 0 order by token, chunk`,
      )
      .execute(db)
  ).rows;

/** PostgreSQL: the kept word counts (`ticket_word_counts`), shards added up, without the words no ticket holds. */
export const keptWordCounts = async (db: Kysely<DB>) =>
  (
    await sql<{ word: string; n: number }>`select word, sum(n)::int as n from ticket_word_counts
      group by word having sum(n) <> 0 order by word`.execute(db)
  ).rows;

/** PostgreSQL: the same counts, read from the text index itself (`ts_stat`: documents per lexeme). */
export const indexedWordCounts = async (db: Kysely<DB>) =>
  (
    await sql<{ word: string; n: number }>`select word, ndoc as n from ts_stat('select search_doc from tickets')
      where left(word, 1) <> '_' order by word collate "C"`.execute(db)
  ).rows;
