import type { FoundReference, TicketField, TicketStage } from '@portal/contract';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import {
  pgTicketLoader,
  sqliteTicketLoader,
  TICKET_LOAD_BATCH,
  withPgTicketIndexesOff,
  withSqliteTicketIndexesOff,
  type TicketLoader,
  type TicketLoadRow,
} from '../../db/ticket-bulk-load.ts';
import { registerSqliteFunctions, withTicketDerivationsSuspended } from '../../db/ticket-derivations.ts';
import { foldText } from '../../lib/search-text.ts';

/** The SQL of a ticket import (ticket-import.ts): the names it looks values up by, and the load. */

export type TicketImportProgress =
  { phase: 'reading'; lines: number } | { phase: 'loading'; done: number; total: number } | { phase: 'rebuilding' };

export type Reference = NonNullable<TicketField['references']>;

/** Folded name → id; `AMBIGUOUS` where several rows share the name. */
export type NameIndex = Map<string, number>;
export const AMBIGUOUS = -1;

/** How names compare: case, accents and repeated or surrounding spaces do not count. */
export const foldName = (name: string) => foldText(name).replace(/\s+/g, ' ').trim();

export interface Lookups {
  names: Record<Reference, NameIndex>;
  stageOf: Map<number, TicketStage>;
}

export async function readLookups(db: Kysely<DB>): Promise<Lookups> {
  const indexOf = (rows: { id: number; name: string }[]): NameIndex => {
    const index: NameIndex = new Map();
    for (const { id, name } of rows) {
      const key = foldName(name);
      index.set(key, index.has(key) ? AMBIGUOUS : id);
    }
    return index;
  };
  const catalogue = async (table: Exclude<Reference, 'users'>) =>
    indexOf(await db.selectFrom(table).select(['id', 'name']).execute());
  const statuses = await db.selectFrom('ticket_statuses').select(['id', 'stage']).execute();
  const users = await db
    .selectFrom('users')
    .select(['id', sql<string>`name || ' ' || last_name`.as('name')])
    .execute();
  return {
    names: {
      priority_types: await catalogue('priority_types'),
      ticket_statuses: await catalogue('ticket_statuses'),
      projects: await catalogue('projects'),
      areas: await catalogue('areas'),
      categories: await catalogue('categories'),
      difficulties: await catalogue('difficulties'),
      groups: await catalogue('groups'),
      users: indexOf(users),
    },
    stageOf: new Map(statuses.map((s) => [s.id, s.stage])),
  };
}

const countTickets = async (db: Kysely<DB>) =>
  Number((await sql<{ n: number }>`select count(*) as n from tickets`.execute(db)).rows[0]?.n ?? 0);

/** The logistics references of a ticket's texts (modules/references). */
export type ReferenceExtractor = (texts: readonly string[]) => Promise<FoundReference[]>;

const lastTicketId = async (trx: Kysely<DB>) =>
  Number(
    (
      await trx
        .selectFrom('tickets')
        .select((eb) => eb.fn.max('id').as('n'))
        .executeTakeFirst()
    )?.n ?? 0,
  );

/** The imported tickets' references (those after `afterId`), in the load's transaction, by batches. */
async function writeReferences(trx: Kysely<DB>, afterId: number, extract: ReferenceExtractor): Promise<void> {
  for (let after = afterId; ;) {
    const tickets = await trx
      .selectFrom('tickets')
      .select(['id', 'name', 'description'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(1_000)
      .execute();
    if (tickets.length === 0) return;
    const found = await Promise.all(tickets.map((t) => extract([t.name, t.description])));
    const values = tickets.flatMap((t, i) => found[i]!.map((r) => ({ ticket_id: t.id, ...r })));
    for (let i = 0; i < values.length; i += 500) {
      await trx
        .insertInto('ticket_references')
        .values(values.slice(i, i + 500))
        .execute();
    }
    after = tickets.at(-1)!.id;
    await turn();
  }
}

/** Yields to the event loop: a long load lets the process answer other requests between batches. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes checked rows in one transaction, by batches. A load of more rows than the table holds
 * suspends the per-row derivations and the secondary indexes and builds them once at the end,
 * over the whole table: a cost of the order of the load's own. A smaller load keeps them, as
 * any ticket write does, so its cost follows its rows and not the table's, and on PostgreSQL the
 * lists go on reading meanwhile (a suspended trigger or a dropped index locks the table until
 * the commit); SQLite's text index takes the new tickets from its queue in bounded steps
 * (`syncTicketIndex`), searches matching them meanwhile. On SQLite through a connection of its
 * own to the file (the portal's connection keeps reading; other writers wait for the commit);
 * on PostgreSQL in a transaction of the pool.
 */
export async function loadTicketRows(
  database: Pick<Database, 'db' | 'dialect'>,
  sqliteFile: string | undefined,
  rows: TicketLoadRow[],
  onProgress: (progress: TicketImportProgress) => void = () => undefined,
  extract?: ReferenceExtractor,
): Promise<void> {
  const batch = TICKET_LOAD_BATCH[database.dialect];
  const loadWith = async (loader: TicketLoader, trx: Kysely<DB>, rebuildsAfter: boolean) => {
    const before = await lastTicketId(trx);
    for (let start = 0; start < rows.length; start += batch) {
      await loader.write(rows.slice(start, start + batch));
      onProgress({ phase: 'loading', done: Math.min(rows.length, start + batch), total: rows.length });
      await turn();
    }
    if (extract) await writeReferences(trx, before, extract);
    if (rebuildsAfter) onProgress({ phase: 'rebuilding' });
  };
  if (database.dialect === 'postgres') {
    await database.db.transaction().execute(async (transaction) => {
      const trx = transaction as Kysely<DB>;
      const isLarger = rows.length > (await countTickets(trx));
      const load = () => loadWith(pgTicketLoader(trx), trx, isLarger);
      await (isLarger
        ? withTicketDerivationsSuspended<DB>(trx, 'postgres', () => withPgTicketIndexesOff(trx, load))
        : load());
    });
    return;
  }
  if (!sqliteFile) throw new Error('An import on SQLite needs the database file');
  const connection = new SQLite(sqliteFile, { fileMustExist: true });
  connection.pragma('busy_timeout = 5000');
  // The load's and the rebuild's pages stay in memory until the commit (the import's own connection, closed after).
  connection.pragma('cache_size = -1000000');
  connection.pragma('temp_store = MEMORY');
  connection.pragma('foreign_keys = ON');
  registerSqliteFunctions(connection);
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: connection }) });
  try {
    const isLarger = rows.length > (await countTickets(db));
    await db.transaction().execute((trx) => {
      const load = () => loadWith(sqliteTicketLoader(connection), trx, isLarger);
      return isLarger
        ? withTicketDerivationsSuspended<DB>(trx, 'sqlite', () => withSqliteTicketIndexesOff(connection, load))
        : load();
    });
  } finally {
    await db.destroy();
  }
}
