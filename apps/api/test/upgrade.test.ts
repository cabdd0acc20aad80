import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createDatabase, type Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { seedIfEmpty } from '../src/db/seed.ts';
import {
  PG_PREFIX_MARK,
  pgSearchDocOf,
  rebuildSqliteAttrBits,
  rebuildTicketAttrBlocks,
} from '../src/db/ticket-derivations.ts';
import { createPgDatabase, dialects, dropDatabase, startTestApp, ticketBody, type TestApp } from './helper.ts';
import { postgresSchema, sqliteSchema } from './schema-dump.ts';
import { attrBitmaps, indexedWordCounts, keptWordCounts, sqliteAttrBits } from './ticket-recount.ts';

/**
 * Upgrading from the previous release, as the README's "Upgrading" says: a database created and
 * seeded by that release (its own code, taken from git history at the commit in
 * `deploy/previous-release`) is migrated by today's code and served. The upgraded schema must be
 * the one today's migrations give an empty database (the committed snapshot), and the old
 * release's data must read as before.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PREVIOUS_RELEASE = readFileSync(path.join(ROOT, 'deploy/previous-release'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .find((line) => line !== '' && !line.startsWith('#'));

const git = (...args: string[]) => spawnSync('git', ['-C', ROOT, ...args], { maxBuffer: 512 * 1024 * 1024 });

/**
 * The previous release's API and contract sources, from git history, in a temporary folder that
 * uses this checkout's installed packages (the release's own `@portal/contract` excepted).
 */
function checkOutPreviousRelease(commit: string): string {
  if (git('cat-file', '-e', `${commit}^{commit}`).status !== 0) {
    throw new Error(
      `deploy/previous-release names ${commit}, which this clone does not have (a shallow clone? git fetch --unshallow)`,
    );
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-previous-release-'));
  const archive = git('archive', '--format=tar', commit, 'package.json', 'apps/api/src', 'packages/contract');
  if (archive.status !== 0) throw new Error(`git archive ${commit}: ${archive.stderr.toString()}`);
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr.toString()}`);

  mkdirSync(path.join(dir, 'node_modules', '@portal'), { recursive: true });
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry !== '@portal') symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(dir, 'node_modules', entry));
  }
  symlinkSync(path.join(dir, 'packages/contract'), path.join(dir, 'node_modules/@portal/contract'));
  for (const workspace of ['apps/api', 'packages/contract']) {
    const own = path.join(ROOT, workspace, 'node_modules');
    if (existsSync(own)) symlinkSync(own, path.join(dir, workspace, 'node_modules'));
  }
  return dir;
}

/** What the previous release's `npm run db:seed` does: its migrations, then its demo organisation. */
function seedWithPreviousRelease(releaseDir: string, env: Record<string, string>): void {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'apps/api/src/cli.ts', 'seed'], {
    cwd: releaseDir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', SEED_DEMO: '1', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`the previous release's seed failed:\n${run.stdout}\n${run.stderr}`);
}

const schemaOf = (database: Database) =>
  database.dialect === 'sqlite'
    ? sqliteSchema(database.db as unknown as Kysely<unknown>)
    : postgresSchema(database.db as unknown as Kysely<unknown>);

describe.each(dialects)('upgrading a %s database from the previous release', (dialect) => {
  let releaseDir: string;
  let dataDir: string;
  let pg: { name: string; url: string } | undefined;
  let t: TestApp | undefined;
  let before: { tickets: number; lastTicket: { id: number; name: string }; users: number; migrations: string[] };
  let applied: string[];
  let database: Database;

  beforeAll(async () => {
    expect(PREVIOUS_RELEASE, 'deploy/previous-release holds a full commit hash').toMatch(/^[0-9a-f]{40}$/);
    releaseDir = checkOutPreviousRelease(PREVIOUS_RELEASE!);
    dataDir = mkdtempSync(path.join(tmpdir(), 'portal-upgrade-'));
    if (dialect === 'postgres') pg = await createPgDatabase('portal_upgrade');
    const env = {
      DATA_DIR: dataDir,
      JWT_SECRET: 'upgrade-secret-0123456789-0123456789-0123',
      ...(pg ? { DATABASE_URL: pg.url } : {}),
    };
    seedWithPreviousRelease(releaseDir, env);

    const config = loadConfig({ ...env, LOG_LEVEL: 'silent', WEB_DIST: path.join(dataDir, 'no-web') });
    database = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile, poolSize: 4 });
    const db = database.db;
    if (dialect === 'postgres') {
      // Tickets far apart in ids, written by the release's own triggers: the bitmaps carried over
      // to a new layout span several of its blocks.
      await sql`insert into tickets (id, name, description, area_id, project_id, category_id, priority_type_id,
          difficulty_id, status_id, created_by, created_at, updated_at)
        select x.id, t.name, t.description, t.area_id, t.project_id, t.category_id, t.priority_type_id,
          t.difficulty_id, t.status_id, t.created_by, t.created_at, t.updated_at
        from (select * from tickets order by id limit 1) t, unnest(array[9000, 20001, 70000, 140007]) x(id)`.execute(
        db,
      );
      await sql`select setval(pg_get_serial_sequence('tickets', 'id'), (select max(id) from tickets))`.execute(db);
    }
    const count = async (table: 'tickets' | 'users') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    before = {
      tickets: await count('tickets'),
      lastTicket: await db
        .selectFrom('tickets')
        .select(['id', 'name'])
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow(),
      users: await count('users'),
      migrations: await migrationNames(database),
    };
    // What `npm start` does on start: migrate, seed only an empty database, serve.
    applied = await migrateToLatest(database);
    expect(await seedIfEmpty(database, { demo: true, adminPassword: undefined })).not.toBe('seeded');
    t = await startTestApp(config, database, async () => undefined);
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    if (!t) await database?.destroy();
    if (pg) await dropDatabase(pg.name);
    for (const dir of [releaseDir, dataDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the previous release left a seeded database', () => {
    expect(before.migrations.length).toBeGreaterThan(0);
    expect(before.tickets).toBeGreaterThan(0);
    expect(before.users).toBeGreaterThan(0);
  });

  it("runs today's migrations that release lacked, and gives the schema of an empty database migrated today", async () => {
    const after = await migrationNames(database);
    expect(after).toEqual([...new Set([...before.migrations, ...applied])].sort());
    expect(applied.every((name) => !before.migrations.includes(name))).toBe(true);
    const snapshot = readFileSync(new URL(`../src/db/schema-snapshot.${dialect}.txt`, import.meta.url), 'utf8');
    expect(await schemaOf(database)).toBe(snapshot);
  });

  it("serves the release's data: sign-in, lists, search, a ticket, catalogues, users", async () => {
    const app = t!;
    expect((await app.call(null, 'GET', '/api/readyz')).statusCode).toBe(200);
    const admin = await app.login('admin');

    const general = await app.call(admin, 'POST', '/api/general-tickets', {});
    expect(general.statusCode).toBe(200);
    expect(general.json().meta.total).toBe(before.tickets);

    const { id, name } = before.lastTicket;
    const page = await app.call(admin, 'GET', `/api/tickets/${id}`);
    expect(page.statusCode).toBe(200);
    expect(page.json().data.name).toBe(name);

    const byNumber = await app.call(admin, 'POST', '/api/general-tickets', { search: `#${id}` });
    expect(byNumber.json().data.map((row: { id: number }) => row.id)).toEqual([id]);
    const word = name.split(/\s+/).find((w) => w.length >= 4)!;
    const byWord = await app.call(admin, 'POST', '/api/general-tickets', { search: word, per_page: 100 });
    expect(byWord.json().data.map((row: { id: number }) => row.id)).toContain(id);

    const areas = await app.call(admin, 'GET', '/api/areas/active-records');
    expect(areas.statusCode).toBe(200);
    expect(areas.json().data.length).toBeGreaterThan(0);
    const users = await app.call(admin, 'POST', '/api/users', { per_page: 100 });
    expect(users.statusCode).toBe(200);
    expect(users.json().total).toBe(before.users);

    // Every demo account signs in with the password the previous release gave it.
    for (const username of ['supervisor', 'agente']) await app.login(username);
  });

  it('keeps deriving on new writes: a ticket created after the upgrade is counted and found', async () => {
    const app = t!;
    const admin = await app.login('admin');
    const created = await app.call(
      admin,
      'POST',
      '/api/tickets/create',
      ticketBody('Creado tras actualizar', 'Zafiro'),
    );
    expect(created.statusCode).toBe(201);
    const newId = created.json().data.id as number;
    expect(newId).toBeGreaterThan(before.lastTicket.id);
    const general = await app.call(admin, 'POST', '/api/general-tickets', {});
    expect(general.json().meta.total).toBe(before.tickets + 1);
    const found = await app.call(admin, 'POST', '/api/general-tickets', { search: 'zafiro' });
    expect(found.json().data.map((row: { id: number }) => row.id)).toEqual([newId]);
  });

  it.runIf(dialect === 'postgres')(
    'carries the derived tables over: the attribute bitmaps are a rebuild, the word counts the index',
    async () => {
      const db = database.db;
      const carried = await attrBitmaps(db);
      expect(carried.length).toBeGreaterThan(0);
      await rebuildTicketAttrBlocks(db);
      expect(await attrBitmaps(db)).toEqual(carried);
      expect(await keptWordCounts(db)).toEqual(await indexedWordCounts(db));
      // Every carried text index is what a ticket written today gets, its words' prefix lexemes included.
      const { rows } = await sql<{ differ: number; prefixed: number; n: number }>`select
          count(*) filter (where search_doc is distinct from ${sql.raw(
            pgSearchDocOf(`portal_search_text(name || ' ' || description)`, 'tickets'),
          )})::int as differ,
          count(*) filter (where exists (select 1 from unnest(search_doc) u
            where left(u.lexeme, 1) = ${PG_PREFIX_MARK}))::int as prefixed,
          count(*)::int as n
        from tickets`.execute(db);
      expect(rows[0]!.n).toBeGreaterThan(0);
      expect(rows[0]).toEqual({ differ: 0, prefixed: rows[0]!.n, n: rows[0]!.n });
    },
  );

  it.runIf(dialect === 'sqlite')('carries the tickets into the attribute bitmaps: they are a rebuild', async () => {
    const db = database.db;
    const carried = await sqliteAttrBits(db);
    expect(carried.length).toBeGreaterThan(0);
    await rebuildSqliteAttrBits(db);
    expect(await sqliteAttrBits(db)).toEqual(carried);
  });
});

/** The migrations a database has run, by name. */
async function migrationNames(database: Database): Promise<string[]> {
  const rows = await (database.db as unknown as Kysely<{ kysely_migration: { name: string } }>)
    .selectFrom('kysely_migration')
    .select('name')
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}
