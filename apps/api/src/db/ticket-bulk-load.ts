import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { createTextWordsCache } from '../lib/search-text.ts';
import type { Dialect } from './database.ts';
import { pgSearchDocOf } from './ticket-derivations.ts';

/**
 * Bulk loads of tickets (the benchmark's generator, the CSV import): rows written by the batch,
 * run inside `withTicketDerivationsSuspended` (ticket-derivations.ts), which has the per-row
 * triggers off and rebuilds what they derive once at the end. What those rebuilds leave to the
 * load, the load writes here from what it already holds: every word of the text in
 * `ticket_words` and, on PostgreSQL, each row's `search_doc`.
 */
export const TICKET_LOAD_COLUMNS = [
  'name',
  'description',
  'area_id',
  'project_id',
  'category_id',
  'priority_type_id',
  'difficulty_id',
  'status_id',
  'stage',
  'created_by',
  'user_assigned_id',
  'created_at',
  'updated_at',
  'group_id',
] as const;
export type TicketLoadColumn = (typeof TICKET_LOAD_COLUMNS)[number];

/** One ticket's values in TICKET_LOAD_COLUMNS order; dates as ISO-8601 text in UTC. */
export type TicketLoadRow = [
  string,
  string,
  number,
  number,
  number,
  number,
  number,
  number,
  string,
  number,
  number | null,
  string,
  string,
  number | null,
];

const PG_TYPES = [
  'text',
  'text',
  'int',
  'int',
  'int',
  'int',
  'int',
  'int',
  'text',
  'int',
  'int',
  'timestamptz',
  'timestamptz',
  'int',
];

export interface TicketLoader {
  /** Writes these rows (ids in their order) and their new words. */
  write(rows: TicketLoadRow[]): Promise<void>;
}

/**
 * SQLite: rows through prepared statements on a better-sqlite3 connection: the load's own, or
 * the one whose transaction the load runs in.
 */
export function sqliteTicketLoader(connection: SQLite.Database): TicketLoader {
  const insert = connection.prepare(
    `insert into tickets (${TICKET_LOAD_COLUMNS.join(', ')}) values (${TICKET_LOAD_COLUMNS.map(() => '?').join(', ')})`,
  );
  const insertWord = connection.prepare('insert or ignore into ticket_words (word) values (?)');
  const words = new Set<string>();
  const textWords = createTextWordsCache();
  return {
    write(rows) {
      for (const row of rows) {
        insert.run(row);
        for (const word of textWords(`${row[0]} ${row[1]}`)) {
          if (!words.has(word)) {
            words.add(word);
            insertWord.run(word);
          }
        }
      }
      return Promise.resolve();
    },
  };
}

/**
 * SQLite: runs `fn` without the secondary indexes of `tickets`, created again after it from
 * their own text in `sqlite_master` (one sort each instead of an insertion per row).
 */
export function withSqliteTicketIndexesOff<T>(connection: SQLite.Database, fn: () => T): T | Promise<Awaited<T>> {
  const indexes = connection
    .prepare(`select name, sql from sqlite_master where type = 'index' and tbl_name = 'tickets' and sql is not null`)
    .all() as { name: string; sql: string }[];
  for (const index of indexes) connection.exec(`drop index "${index.name}"`);
  const restore = () => {
    for (const index of indexes) connection.exec(index.sql);
  };
  let result: T;
  try {
    result = fn();
  } catch (error) {
    restore();
    throw error;
  }
  if (result instanceof Promise) {
    return result.finally(restore) as Promise<Awaited<T>>;
  }
  restore();
  return result;
}

/**
 * PostgreSQL: runs `fn` without the full secondary indexes and the foreign keys of `tickets`, created
 * again after it from their own definitions in the catalogue (`pg_get_indexdef`,
 * `pg_get_constraintdef`): one sort per index and one join per key checked, instead of an
 * insertion into every index and a lookup in every referenced table per row. Runs in the load's
 * transaction: a failure restores them by its rollback, and a key the rows break fails the load.
 * Partial indexes stay (few rows enter them, and their conditions would come back from the
 * catalogue in another spelling than their migration's).
 */
export async function withPgTicketIndexesOff<T, R>(db: Kysely<T>, fn: () => Promise<R>): Promise<R> {
  if (!db.isTransaction) throw new Error('withPgTicketIndexesOff runs inside the load transaction');
  const { rows: indexes } = await sql<{ name: string; definition: string }>`
    select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i join pg_class c on c.oid = i.indexrelid
    where i.indrelid = 'tickets'::regclass and not i.indisprimary and not i.indisunique
      and i.indpred is null`.execute(db);
  const { rows: keys } = await sql<{ name: string; definition: string }>`
    select conname as name, pg_get_constraintdef(oid) as definition
    from pg_constraint where conrelid = 'tickets'::regclass and contype = 'f'`.execute(db);
  for (const key of keys) await sql`alter table tickets drop constraint ${sql.id(key.name)}`.execute(db);
  for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(db);
  const result = await fn();
  for (const index of indexes) await sql.raw(index.definition).execute(db);
  for (const key of keys) {
    await sql`alter table tickets add constraint ${sql.id(key.name)} ${sql.raw(key.definition)}`.execute(db);
  }
  return result;
}

/** PostgreSQL: each batch is one `insert … select from unnest(<arrays>)`, with its `search_doc`. */
export function pgTicketLoader<T>(db: Kysely<T>): TicketLoader {
  const words = new Set<string>();
  const textWords = createTextWordsCache();
  return {
    async write(rows) {
      const arrays = TICKET_LOAD_COLUMNS.map((_, c) => rows.map((row) => row[c]));
      const newWords: string[] = [];
      const folded = rows.map((row) => {
        const rowWords = textWords(`${row[0]} ${row[1]}`);
        for (const word of rowWords) {
          if (!words.has(word)) {
            words.add(word);
            newWords.push(word);
          }
        }
        return rowWords.join(' ');
      });
      await sql`insert into tickets (${sql.join(TICKET_LOAD_COLUMNS.map((c) => sql.ref(c)))}, search_doc)
        select ${sql.join(TICKET_LOAD_COLUMNS.map((c) => sql.ref(`r.${c}`)))}, ${sql.raw(pgSearchDocOf('r.folded', 'r'))}
        from unnest(${sql.join(arrays.map((values, c) => sql`${values}::${sql.raw(PG_TYPES[c]!)}[]`))}, ${folded}::text[])
        as r(${sql.join(TICKET_LOAD_COLUMNS.map((c) => sql.ref(c)))}, folded)`.execute(db);
      // The lexemes PostgreSQL makes of the new words (its parser may split what textWords kept whole).
      if (newWords.length > 0) {
        await sql`insert into ticket_words (word)
          select unnest(tsvector_to_array(to_tsvector('simple', ${newWords.join(' ')}))) on conflict do nothing`.execute(
          db,
        );
      }
    },
  };
}

/** How many rows one batch of a bulk load writes. */
export const TICKET_LOAD_BATCH: Record<Dialect, number> = { sqlite: 10_000, postgres: 20_000 };
