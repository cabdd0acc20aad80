import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
  type DatabaseConnection,
  type Dialect as KyselyDialect,
} from 'kysely';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { prepareMarkedStatements } from './prepared.ts';
import type { DB } from './schema.ts';
import { registerSqliteFunctions } from './ticket-derivations.ts';
import { createWriteWatch, type WriteWatch } from './write-watch.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** Case-insensitive LIKE for the dialect. */
  like: 'like' | 'ilike';
  /** Every insert, update and delete made through `db`, by table (for in-memory caches). */
  writes: WriteWatch;
  ping(): Promise<void>;
  destroy(): Promise<void>;
  /** PostgreSQL's pool: connections open and idle, and queries waiting for one (SQLite has one connection). */
  poolStats?: () => { total: number; idle: number; waiting: number };
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** SQLite file path, or ':memory:'. */
  sqliteFile?: string;
  poolSize?: number;
}

const TIMESTAMPTZ_OID = 1184;
const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** A `timestamptz` as PostgreSQL writes it in a session on UTC: `2026-12-06 02:58:11.123456+00`. */
const UTC_TIMESTAMP = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

/**
 * A `timestamptz` as the ISO text the portal writes (`2026-12-06T02:58:11.123Z`, milliseconds
 * kept, finer digits dropped as Date drops them). The UTC form is rewritten as text, which
 * costs a fraction of Date's parse, paid for every timestamp of every row read (a page of
 * tickets holds several per row); any other form (another session time zone) goes through Date.
 */
export function isoOfTimestamp(value: string): string {
  const utc = UTC_TIMESTAMP.exec(value);
  if (!utc) return new Date(value).toISOString();
  return `${utc[1]}T${utc[2]}.${(utc[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
}

export function createDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) {
    const types = {
      getTypeParser(oid: number, format?: 'text' | 'binary') {
        if (oid === TIMESTAMPTZ_OID) return isoOfTimestamp;
        if (oid === INT8_OID || oid === NUMERIC_OID) return (v: string) => Number(v);
        return pg.types.getTypeParser(oid, format);
      },
    };
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      types,
      // Every query of the portal reads a few index pages. Where the planner misjudges how many
      // rows match (a rare word of the text index in millions of tickets looks common to it),
      // it would compile the query to machine code (JIT) or start parallel workers, each of
      // which costs far more than the query itself: neither is worth it for such reads.
      options: '-c jit=off -c max_parallel_workers_per_gather=0',
    });
    pool.on('connect', prepareMarkedStatements);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return wrap(db, 'postgres', () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
  }

  const file = options.sqliteFile ?? ':memory:';
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // A ticket write dirties a page in each of the ticket's indexes. Checkpointing every 10,000
  // WAL pages instead of SQLite's 1,000 writes a page that many writes touched (an index's
  // newest leaf) back to the file once instead of many times; the WAL file is cut back to
  // 64 MiB after a checkpoint that let it grow past that.
  sqlite.pragma('wal_autocheckpoint = 10000');
  sqlite.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  // 64 MiB of page cache holds the list indexes of a million tickets (deep pages, counts).
  sqlite.pragma('cache_size = -65536');
  // Sorts, windows and IN lists build temporary b-trees: in memory, not behind a temporary
  // file opened per statement.
  sqlite.pragma('temp_store = MEMORY');
  registerSqliteFunctions(sqlite);
  const db = new Kysely<DB>({ dialect: fairSqliteDialect(withStatementCache(sqlite)) });
  return wrap(db, 'sqlite');
}

/** How long SQLite queries may run back to back before the event loop gets a turn, in ms. */
export const SQLITE_TURN_MS = 4;

/**
 * better-sqlite3 runs each query synchronously and Kysely chains the next one in
 * a microtask, so ten requests that arrive together would run all their queries
 * before the process reads another socket: a health check behind ten searches
 * waited for all of them. This driver gives the event loop a turn (`setImmediate`:
 * sockets are read and answered) once queries have held it for SQLITE_TURN_MS:
 * the query that finds the turn used up waits for the next one, holding the
 * connection, so the queries queued behind it wait too. No request then waits
 * for more than about one query of the others. Within a transaction nothing
 * yields: its queries run on the connection it already holds.
 */
class FairSqliteDriver extends SqliteDriver {
  #turnStarted = performance.now();
  #nextTurn: Promise<void> | null = null;

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    while (performance.now() - this.#turnStarted > SQLITE_TURN_MS) {
      this.#nextTurn ??= new Promise<void>((resolve) =>
        setImmediate(() => {
          this.#nextTurn = null;
          this.#turnStarted = performance.now();
          resolve();
        }),
      );
      await this.#nextTurn;
    }
    return connection;
  }
}

function fairSqliteDialect(database: ReturnType<typeof withStatementCache>): KyselyDialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new FairSqliteDriver({ database }),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

/** How many prepared SQLite statements are kept, by SQL text (least recently used dropped first). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SqliteDialect prepares every query again; preparing is a good part of
 * a small query's cost. The dialect gets this view of the database instead, whose
 * `prepare` reuses the statement already prepared for the same SQL text.
 * Kysely runs one query at a time on SQLite (a mutex), so a statement is never
 * used by two queries at once; SQLite re-prepares a cached statement itself after
 * a schema change.
 */
export function withStatementCache(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    prepare(sqlText: string): SQLite.Statement {
      let statement = statements.get(sqlText);
      if (statement) {
        // Map keeps insertion order: move to the most recently used end.
        statements.delete(sqlText);
      } else {
        statement = sqlite.prepare(sqlText);
        if (statements.size >= size) statements.delete(statements.keys().next().value!);
      }
      statements.set(sqlText, statement);
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}

function wrap(plainDb: Kysely<DB>, dialect: Dialect, poolStats?: Database['poolStats']): Database {
  const writes = createWriteWatch();
  const db = plainDb.withPlugin(writes.plugin);
  return {
    db,
    writes,
    dialect,
    like: dialect === 'postgres' ? 'ilike' : 'like',
    async ping() {
      await sql`select 1`.execute(db);
    },
    destroy: () => db.destroy(),
    poolStats,
  };
}

/** Escapes LIKE wildcards so a search matches its text literally. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string } | undefined;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string } | undefined;
  return e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

export const nowIso = () => new Date().toISOString();
