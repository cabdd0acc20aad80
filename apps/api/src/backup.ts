import SQLite from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Config } from './config.ts';

/**
 * A backup is one `.tar.gz` file: `manifest.json`, the database (`database.sqlite`, copied through
 * SQLite's online backup API while the portal keeps writing; or `database.pgdump`, pg_dump's custom
 * format) and DATA_DIR/uploads (avatars; attachments are in the database).
 */
interface Manifest {
  format: 1;
  dialect: 'sqlite' | 'postgres';
  createdAt: string;
}

const SQLITE_FILE = 'database.sqlite';
const PG_FILE = 'database.pgdump';

type BackupConfig = Pick<Config, 'databaseUrl' | 'sqliteFile' | 'dataDir'>;

export async function backup(config: BackupConfig, file: string): Promise<Manifest> {
  const work = mkdtempSync(path.join(tmpdir(), 'portal-backup-'));
  try {
    const manifest: Manifest = {
      format: 1,
      dialect: config.databaseUrl ? 'postgres' : 'sqlite',
      createdAt: new Date().toISOString(),
    };
    if (config.databaseUrl) {
      execFileSync('pg_dump', [
        '--format=custom',
        '--no-owner',
        `--file=${path.join(work, PG_FILE)}`,
        config.databaseUrl,
      ]);
    } else {
      const source = new SQLite(config.sqliteFile, { readonly: true, fileMustExist: true });
      try {
        // The whole file in one step: a step reads one snapshot, so writes made meanwhile cannot tear it.
        await source.backup(path.join(work, SQLITE_FILE), { progress: ({ totalPages }) => totalPages });
      } finally {
        source.close();
      }
      checkSqliteIntegrity(path.join(work, SQLITE_FILE));
    }
    const uploads = path.join(config.dataDir, 'uploads');
    if (existsSync(uploads)) cpSync(uploads, path.join(work, 'uploads'), { recursive: true });
    writeFileSync(path.join(work, 'manifest.json'), JSON.stringify(manifest, null, 2));
    execFileSync('tar', ['-czf', path.resolve(file), '-C', work, '.']);
    return manifest;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Restores a backup into the configured database, which must be empty (no table) unless `force`;
 * the portal must be stopped meanwhile. A backup restores into the dialect it was taken from.
 */
export async function restore(config: BackupConfig, file: string, { force = false } = {}): Promise<Manifest> {
  const work = mkdtempSync(path.join(tmpdir(), 'portal-restore-'));
  try {
    execFileSync('tar', ['-xzf', path.resolve(file), '-C', work]);
    const manifest = JSON.parse(readFileSync(path.join(work, 'manifest.json'), 'utf8')) as Manifest;
    const dialect = config.databaseUrl ? 'postgres' : 'sqlite';
    if (manifest.format !== 1) throw new Error(`Unknown backup format ${String(manifest.format)}`);
    if (manifest.dialect !== dialect) {
      throw new Error(`This backup is of a ${manifest.dialect} database; the portal is configured for ${dialect}.`);
    }
    if (config.databaseUrl) {
      const client = new pg.Client({ connectionString: config.databaseUrl });
      await client.connect();
      const tables = await client
        .query<{ n: number }>(`select count(*)::int as n from pg_tables where schemaname = 'public'`)
        .finally(() => client.end());
      if (tables.rows[0]!.n > 0 && !force) throw notEmpty();
      execFileSync('pg_restore', [
        '--no-owner',
        '--exit-on-error',
        ...(tables.rows[0]!.n > 0 ? ['--clean', '--if-exists'] : []),
        `--dbname=${config.databaseUrl}`,
        path.join(work, PG_FILE),
      ]);
    } else {
      if (existsSync(config.sqliteFile) && sqliteTableCount(config.sqliteFile) > 0 && !force) throw notEmpty();
      checkSqliteIntegrity(path.join(work, SQLITE_FILE));
      for (const suffix of ['-wal', '-shm']) rmSync(config.sqliteFile + suffix, { force: true });
      cpSync(path.join(work, SQLITE_FILE), config.sqliteFile);
    }
    if (existsSync(path.join(work, 'uploads'))) {
      cpSync(path.join(work, 'uploads'), path.join(config.dataDir, 'uploads'), { recursive: true, force: true });
    }
    return manifest;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const notEmpty = () =>
  new Error('The database is not empty: restore into an empty one, or pass --force to replace it.');

function sqliteTableCount(file: string): number {
  const db = new SQLite(file, { readonly: true });
  try {
    return (db.prepare(`select count(*) as n from sqlite_master where type = 'table'`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Checks a copy, left as one self-contained file (no -wal beside it). */
function checkSqliteIntegrity(file: string): void {
  const db = new SQLite(file);
  try {
    db.pragma('journal_mode = DELETE');
    const result = db.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new Error(`The SQLite copy fails its integrity check: ${String(result)}`);
  } finally {
    db.close();
  }
}
