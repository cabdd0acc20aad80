import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backup, restore } from '../src/backup.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

const adminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(query: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

describe.each(dialects)('backup and restore on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  let work: string;
  let target: Config;
  let targetDb: string | undefined;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    token = await t.login('admin');
    work = mkdtempSync(path.join(tmpdir(), 'portal-backup-test-'));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      targetDb = `portal_restore_${process.pid}_${randomBytes(4).toString('hex')}`;
      await admin(`create database ${targetDb}`);
      const url = new URL(adminUrl);
      url.pathname = `/${targetDb}`;
      databaseUrl = url.toString();
    }
    mkdirSync(path.join(work, 'restored'));
    target = loadConfig({
      DATA_DIR: path.join(work, 'restored'),
      JWT_SECRET: t.config.jwtSecret,
      LOG_LEVEL: 'silent',
      WEB_DIST: path.join(work, 'no-web'),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
  });
  afterAll(async () => {
    await t?.close();
    if (targetDb) await admin(`drop database if exists ${targetDb} with (force)`);
    rmSync(work, { recursive: true, force: true });
  });

  it(
    'backs up while tickets are created and restores into an empty database that serves the same data',
    { timeout: 120_000 },
    async () => {
      const avatar = path.join(t.config.dataDir, 'uploads', 'avatars', '1.webp');
      mkdirSync(path.dirname(avatar), { recursive: true });
      writeFileSync(avatar, 'avatar bytes');

      const ticketCount = async (db: typeof t.services.database.db) =>
        Number(
          (
            await db
              .selectFrom('tickets')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const seeded = await ticketCount(t.services.database.db);

      // One writer, one ticket after another, all through the backup.
      let isWriting = true;
      let created = 0;
      const writer: Promise<void> = (async () => {
        while (isWriting) {
          const res = await t.call(token, 'POST', '/api/tickets/create', ticketBody(`Respaldo ${created}`, 'Durante'));
          if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
          created += 1;
        }
      })();
      await expect.poll(() => created, { timeout: 20_000, interval: 10 }).toBeGreaterThanOrEqual(5);
      const createdBefore = created;
      const file = path.join(work, 'portal.tar.gz');
      const manifest = await backup(t.config, file);
      const createdDuring = created;
      await expect.poll(() => created, { timeout: 20_000, interval: 10 }).toBeGreaterThan(createdDuring + 2);
      isWriting = false;
      await writer;
      expect(manifest.dialect).toBe(dialect);

      await restore(target, file);
      expect(readFileSync(path.join(target.dataDir, 'uploads', 'avatars', '1.webp'), 'utf8')).toBe('avatar bytes');

      const source = t.services.database.db;
      const restoredDatabase = createDatabase({ databaseUrl: target.databaseUrl, sqliteFile: target.sqliteFile });
      try {
        const restored = restoredDatabase.db;
        const latest = async (db: typeof source, maxId?: number) =>
          db
            .selectFrom('tickets')
            .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('id').as('latest')])
            .$if(maxId !== undefined, (q) => q.where('id', '<=', maxId!))
            .executeTakeFirstOrThrow();
        const back = await latest(restored);
        // Every ticket acknowledged before the backup began is in it, and it is one consistent moment:
        // exactly the source's tickets up to its latest id.
        expect(Number(back.count)).toBeGreaterThanOrEqual(seeded + createdBefore);
        const sourceUpTo = await latest(source, Number(back.latest));
        expect(Number(back.count)).toBe(Number(sourceUpTo.count));
        // What nobody wrote meanwhile is there whole.
        for (const table of ['users', 'roles', 'areas', 'categories'] as const) {
          const count = async (db: typeof source) =>
            Number(
              (
                await db
                  .selectFrom(table)
                  .select((eb) => eb.fn.countAll().as('n'))
                  .executeTakeFirstOrThrow()
              ).n,
            );
          expect(await count(restored), table).toBe(await count(source));
        }
      } finally {
        await restoredDatabase.destroy();
      }

      // The restored portal starts, and lists what was backed up.
      const restoredApp = await buildApp({
        config: target,
        database: createDatabase({ databaseUrl: target.databaseUrl, sqliteFile: target.sqliteFile }),
        logger: false,
      });
      try {
        const login = await restoredApp.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { username: 'admin', password: 'PortalAdmin1' },
        });
        expect(login.statusCode).toBe(200);
        const found = await restoredApp.app.inject({
          method: 'GET',
          url: '/api/tickets/1',
          headers: { authorization: `Bearer ${login.json().data.token}` },
        });
        expect(found.statusCode).toBe(200);
      } finally {
        await restoredApp.app.close();
        await restoredApp.services.database.destroy();
      }

      await expect(restore(target, file)).rejects.toThrow(/not empty.*--force/);
      await expect(restore(target, file, { force: true })).resolves.toMatchObject({ dialect });
    },
  );
});
