import type { LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { seedIfEmpty } from '../src/db/seed.ts';

export const dialects = ['sqlite', 'postgres'] as const;

/** A ticket's create body with the first demo catalogue values (all active). */
export const ticketBody = (name: string, description: string) => ({
  name,
  description,
  area_id: 1,
  project_id: 1,
  category_id: 1,
  priority_type_id: 1,
  difficulty_id: 1,
  status_id: 1,
});
export type TestDialect = (typeof dialects)[number];

/** Where the test setup creates (and drops) its own databases. */
const adminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>, admin = adminUrl): Promise<T> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * pg's Pool.end() resolves before its sockets have closed; a forced drop would
 * then kill them mid-close and surface as an uncaught error, so wait for them first.
 */
export async function dropDatabase(dbName: string, admin = adminUrl): Promise<void> {
  await withAdmin(async (c) => {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const { rows } = await c.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = $1',
        [dbName],
      );
      if (rows[0]?.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await c.query(`drop database if exists ${dbName} with (force)`);
  }, admin);
}

/**
 * A new empty PostgreSQL database on the test server (or on `admin`'s, as the benchmarks choose):
 * its name and URL (drop it with dropDatabase).
 */
export async function createPgDatabase(prefix: string, admin = adminUrl): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin((c) => c.query(`create database ${name}`), admin);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

export interface TestApp {
  app: Awaited<ReturnType<typeof buildApp>>['app'];
  services: Awaited<ReturnType<typeof buildApp>>['services'];
  config: Config;
  csrf: string;
  /** Signs in through the API and returns the bearer token. */
  login(username: string, password?: string): Promise<string>;
  /** Sends a JSON request with a bearer token (and the CSRF header on PUT/PATCH). */
  call(
    token: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export const DEMO_PASSWORDS: Record<string, string> = { admin: 'PortalAdmin1' };
const passwordOf = (username: string) => DEMO_PASSWORDS[username] ?? 'PortalDemo1';

/** A portal on a fresh, migrated and demo-seeded database of the given dialect. */
export async function createTestApp(dialect: TestDialect, env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-test-'));
  let databaseUrl: string | undefined;
  let dbName: string | undefined;
  if (dialect === 'postgres') {
    ({ name: dbName, url: databaseUrl } = await createPgDatabase('portal_test'));
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-0123456789-0123456789-0123456789',
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web'),
    // Tests that move the clock sweep SLA alerts themselves (services.slaAlerts.runOnce).
    SLA_SWEEP_MS: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const database = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile, poolSize: 4 });
  await migrateToLatest(database);
  await seedIfEmpty(database, { demo: true, adminPassword: undefined });
  return startTestApp(config, database, async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (dbName) await dropDatabase(dbName);
  });
}

/**
 * A second portal process on the database of `base` (its own pool and, on
 * PostgreSQL, its own LISTEN connection), as when several API processes share
 * one database. Close it before `base`.
 */
export async function createSiblingApp(base: TestApp): Promise<TestApp> {
  const database = createDatabase({
    databaseUrl: base.config.databaseUrl,
    sqliteFile: base.config.sqliteFile,
    poolSize: 4,
  });
  return startTestApp(base.config, database, async () => undefined);
}

/** A portal on an existing, migrated database; `cleanup` runs after it closes. */
export async function startTestApp(
  config: Config,
  database: ReturnType<typeof createDatabase>,
  cleanup: () => Promise<void>,
): Promise<TestApp> {
  const { app, services } = await buildApp({ config, database, logger: false });
  await app.ready();
  const csrf = services.csrf.issue();

  const call: TestApp['call'] = (token, method, url, body) =>
    app.inject({
      method,
      url,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(method === 'PUT' || method === 'PATCH' || method === 'DELETE' ? { 'x-csrf-token': csrf } : {}),
      },
      ...(body === undefined ? {} : { payload: body as object }),
    });

  return {
    app,
    services,
    config,
    csrf,
    call,
    async login(username, password = passwordOf(username)) {
      const res = await call(null, 'POST', '/api/login', { username, password });
      if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
      return res.json().data.token as string;
    },
    async close() {
      await app.close();
      await database.destroy();
      await cleanup();
    },
  };
}
