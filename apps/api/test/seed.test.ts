import { SECTIONS } from '@portal/contract';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { seedIfEmpty } from '../src/db/seed.ts';
import { verifyPassword } from '../src/lib/passwords.ts';
import { createTestApp, dialects } from './helper.ts';

describe.each(dialects)('seed on %s', (dialect) => {
  it('seeds every section with its exact name, and the demo roles with their grants', async () => {
    const t = await createTestApp(dialect);
    try {
      const { db } = t.services.database;
      const sections = (await db.selectFrom('sections').select('name').execute()).map((s) => s.name);
      expect(sections.sort()).toEqual(Object.values(SECTIONS).sort());
      for (const name of [
        'tickets_main',
        'current_tickets',
        'old_tickets',
        'ar_main',
        'ca_main',
        'pro_main',
        'dif_main',
        'ts_main',
        'gr_main',
        'pt_main',
        'us_main',
        'rol_main',
        'ro_main',
        'rop_main',
        'se_main',
        'sepe_main',
        'wl_main',
      ]) {
        expect(sections).toContain(name);
      }
      const roles = await db.selectFrom('roles').select(['id', 'name', 'is_supervisor']).orderBy('id').execute();
      expect(roles.slice(0, 3)).toEqual([
        { id: 1, name: 'Administrador', is_supervisor: 1 },
        { id: 2, name: 'Supervisor', is_supervisor: 1 },
        { id: 3, name: 'Agente', is_supervisor: 0 },
      ]);
      const adminGrants = await db
        .selectFrom('sections_permission')
        .select(['r', 'w', 'u', 'd'])
        .where('role_id', '=', 1)
        .execute();
      expect(adminGrants).toHaveLength(sections.length);
      expect(adminGrants.every((g) => g.r && g.w && g.u && g.d)).toBe(true);
      const stages = await db.selectFrom('ticket_statuses').select(['name', 'stage']).orderBy('id').execute();
      expect(stages.slice(0, 6)).toEqual([
        { name: 'Abierto', stage: 'open' },
        { name: 'En progreso', stage: 'started' },
        { name: 'En espera', stage: 'started' },
        { name: 'Resuelto', stage: 'closed' },
        { name: 'Cerrado', stage: 'closed' },
        { name: 'Cancelado', stage: 'closed' },
      ]);
      expect(await seedIfEmpty(t.services.database, { demo: true, adminPassword: undefined })).toBe('skipped');
    } finally {
      await t.close();
    }
  });
});

describe('production seed (SEED_DEMO=0) on sqlite', () => {
  const fresh = async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-seed-'));
    const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: 'x'.repeat(40) });
    const database = createDatabase({ sqliteFile: config.sqliteFile });
    await migrateToLatest(database);
    return { database, done: async () => (await database.destroy(), rmSync(dir, { recursive: true, force: true })) };
  };

  it('refuses to seed without ADMIN_PASSWORD', async () => {
    const { database, done } = await fresh();
    await expect(seedIfEmpty(database, { demo: false, adminPassword: undefined })).rejects.toThrow(/ADMIN_PASSWORD/);
    expect(await database.db.selectFrom('users').select('id').execute()).toEqual([]);
    await done();
  });

  it('creates only the permission model, the statuses and admin', async () => {
    const { database, done } = await fresh();
    await seedIfEmpty(database, { demo: false, adminPassword: 'Un4ClaveLarga' });
    const users = await database.db.selectFrom('users').select(['username', 'password_hash']).execute();
    expect(users.map((u) => u.username)).toEqual(['admin']);
    expect(await verifyPassword(users[0]!.password_hash, 'Un4ClaveLarga')).toBe(true);
    expect(await database.db.selectFrom('tickets').select('id').execute()).toEqual([]);
    expect((await database.db.selectFrom('statuses').selectAll().execute()).length).toBe(2);
    await done();
  });
});

describe('configuration', () => {
  it('refuses an invalid environment with a clear message', () => {
    expect(() => loadConfig({ PORT: 'ochenta' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/postgres/);
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/32/);
  });

  it('generates a JWT secret once and keeps it in DATA_DIR', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-config-'));
    const first = loadConfig({ DATA_DIR: dir }).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first);
    rmSync(dir, { recursive: true, force: true });
  });
});
