import { statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../src/bootstrap.ts';
import { loadConfig, parseTrustProxy } from '../src/config.ts';
import { computeSecurityHeaders } from '../src/plugins/security-headers.ts';
import { createTestApp, dialects, type TestApp } from './helper.ts';
import { listen } from './notifications-stream-client.ts';

const pgAdminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const auditRows = (t: TestApp, event: string) =>
  t.services.database.db.selectFrom('audit_log').selectAll().where('event', '=', event).orderBy('id').execute();

describe.each(dialects)('platform hardening on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.login('admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends no upgrade-insecure-requests over plain http, and keeps every other header', async () => {
    const res = await t.call(null, 'GET', '/api/healthz');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const https = computeSecurityHeaders({ servedOverHttps: true });
    const http = computeSecurityHeaders({ servedOverHttps: false });
    expect(https['content-security-policy']).toContain('upgrade-insecure-requests');
    expect(https['content-security-policy']!.replace(';upgrade-insecure-requests', '')).toBe(
      http['content-security-policy'],
    );
    for (const [name, value] of Object.entries(http)) expect(res.headers[name], name).toBe(value);
    expect(Object.keys(http)).toEqual(
      expect.arrayContaining([
        'strict-transport-security',
        'x-content-type-options',
        'x-frame-options',
        'referrer-policy',
        'cross-origin-opener-policy',
        'cross-origin-resource-policy',
      ]),
    );
    // Also on refusals and unknown routes.
    expect((await t.call(null, 'GET', '/api/statuses')).headers['x-content-type-options']).toBe('nosniff');
    expect((await t.call(null, 'GET', '/api/nada')).headers['content-security-policy']).toBe(
      http['content-security-policy'],
    );
  });

  it('carries upgrade-insecure-requests when SERVED_OVER_HTTPS=1', async () => {
    const secure = await createTestApp(dialect, { SERVED_OVER_HTTPS: '1' });
    try {
      const res = await secure.call(null, 'GET', '/api/healthz');
      expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    } finally {
      await secure.close();
    }
  });

  it('marks authenticated answers and the sign-in answer Cache-Control: no-store', async () => {
    expect((await t.call(admin, 'POST', '/api/areas', {})).headers['cache-control']).toBe('no-store');
    expect((await t.call(admin, 'GET', '/api/statuses')).headers['cache-control']).toBe('no-store');
    expect((await t.call(null, 'GET', '/api/statuses')).headers['cache-control']).toBe('no-store');
    const agente = await t.login('agente');
    expect((await t.call(agente, 'POST', '/api/areas', {})).headers['cache-control']).toBe('no-store');
    const ok = await t.call(null, 'POST', '/api/login', { username: 'agente', password: 'PortalDemo1' });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    const refused = await t.call(null, 'POST', '/api/login', { username: 'agente', password: 'mal' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect((await t.call(null, 'GET', '/api/healthz')).headers['cache-control']).toBeUndefined();
  });

  it('checks the session before the CSRF token: no token is 401, a token without CSRF is 403', async () => {
    const put = (headers: Record<string, string>) =>
      t.app.inject({ method: 'PUT', url: '/api/areas/update/1', headers, payload: { name: 'Cambiada' } });
    const anonymous = await put({});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().status).toBe(false);
    expect((await put({ authorization: 'Bearer nope' })).statusCode).toBe(401);
    expect((await put({ authorization: `Bearer ${admin}` })).statusCode).toBe(403);
    expect((await put({ authorization: `Bearer ${admin}`, 'x-csrf-token': 'a.b' })).statusCode).toBe(403);
  });

  it('accepts the Bearer scheme in any case', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/statuses',
        headers: { authorization: `${scheme} ${admin}` },
      });
      expect(res.statusCode, scheme).toBe(200);
    }
    for (const header of [`Basic ${admin}`, `Bearer${admin}`, `Bearer ${admin} extra`, admin]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/statuses', headers: { authorization: header } });
      expect(res.statusCode, header).toBe(401);
    }
  });

  it('does not keep what was typed as username when it names no account', async () => {
    const typed = 'MiClaveSecreta2025';
    await t.call(null, 'POST', '/api/login', { username: typed, password: 'algo' });
    await t.call(null, 'POST', '/api/login', { username: 'supervisor', password: 'mal' });
    const failures = await auditRows(t, 'login.failure');
    expect(JSON.stringify(failures)).not.toContain(typed);
    const unknown = failures.find((f) => f.detail?.includes('unknown_user'));
    expect(unknown).toMatchObject({ username: null, user_id: null });
    expect(failures.some((f) => f.username === 'supervisor' && f.detail?.includes('bad_password'))).toBe(true);
  });

  it('counts anonymous refusals in one row per address instead of one row each, and keeps the real ones', async () => {
    await t.services.audit.flushAnonymous();
    const before = (await auditRows(t, 'auth.missing_token')).length;
    for (let i = 0; i < 300; i += 1) expect((await t.call(null, 'GET', '/api/statuses')).statusCode).toBe(401);
    for (let i = 0; i < 20; i += 1) await t.call('garbage', 'GET', '/api/statuses');
    expect((await auditRows(t, 'auth.missing_token')).length).toBe(before);
    await t.services.audit.flushAnonymous();
    const missing = await auditRows(t, 'auth.missing_token');
    expect(missing.length).toBe(before + 1);
    expect(JSON.parse(missing.at(-1)!.detail!)).toMatchObject({ count: 300 });
    expect(missing.at(-1)!.ip).toBe('127.0.0.1');
    const invalid = await auditRows(t, 'auth.invalid_token');
    expect(JSON.parse(invalid.at(-1)!.detail!)).toMatchObject({ count: 20 });

    // A real user's refusals stay one row each.
    const agente = await t.login('agente');
    await t.call(agente, 'POST', '/api/areas/create', { name: 'Auditada' });
    await t.call(agente, 'POST', '/api/areas/create', { name: 'Auditada' });
    const denied = (await auditRows(t, 'permission.denied')).filter((r) => r.username === 'agente');
    expect(denied.length).toBeGreaterThanOrEqual(2);
    const token = await t.login('agente');
    await t.call(token, 'POST', '/api/logout');
    await t.call(token, 'GET', '/api/statuses');
    expect((await auditRows(t, 'auth.revoked_token')).length).toBeGreaterThanOrEqual(1);
  });

  it('prunes audit rows older than AUDIT_RETENTION_DAYS, a batch at a time', async () => {
    const { db } = t.services.database;
    const old = new Date(Date.now() - 400 * 24 * 3600 * 1000).toISOString();
    const recent = new Date(Date.now() - 10 * 24 * 3600 * 1000).toISOString();
    const rows = Array.from({ length: 2_500 }, (_, i) => ({
      event: 'test.old',
      detail: String(i),
      created_at: old,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('audit_log')
        .values(rows.slice(i, i + 500))
        .execute();
    await db.insertInto('audit_log').values({ event: 'test.recent', created_at: recent }).execute();
    expect(t.config.auditRetentionDays).toBe(365);
    expect(await t.services.audit.prune(365)).toBeGreaterThanOrEqual(2_500);
    expect(await auditRows(t, 'test.old')).toHaveLength(0);
    expect(await auditRows(t, 'test.recent')).toHaveLength(1);
    expect(await t.services.audit.prune(5)).toBeGreaterThanOrEqual(1);
    expect(await auditRows(t, 'test.recent')).toHaveLength(0);
  });

  it('believes X-Forwarded-For only from a trusted proxy (TRUST_PROXY)', async () => {
    const signIn = (app: TestApp) =>
      app.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'x-forwarded-for': '203.0.113.7' },
        payload: { username: 'agente', password: 'PortalDemo1' },
      });
    expect((await signIn(t)).statusCode).toBe(200);
    expect((await auditRows(t, 'login.success')).at(-1)!.ip).toBe('127.0.0.1');
    const proxied = await createTestApp(dialect, { TRUST_PROXY: '1' });
    try {
      expect((await signIn(proxied)).statusCode).toBe(200);
      expect((await auditRows(proxied, 'login.success')).at(-1)!.ip).toBe('203.0.113.7');
    } finally {
      await proxied.close();
    }
  });
});

describe('configuration of proxies and timeouts', () => {
  it('reads TRUST_PROXY as Fastify takes it and refuses anything else', () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
    expect(parseTrustProxy('loopback')).toEqual(['loopback']);
    expect(parseTrustProxy('proxy.example.com')).toBeNull();
    expect(() => loadConfig({ DATA_DIR: '/tmp/x', JWT_SECRET: 'x'.repeat(40), TRUST_PROXY: 'yes please' })).toThrow(
      /TRUST_PROXY/,
    );
    const defaults = loadConfig({ DATA_DIR: '/tmp/x', JWT_SECRET: 'x'.repeat(40) });
    expect(defaults).toMatchObject({
      trustProxy: false,
      servedOverHttps: false,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
      maxConnections: 1_000,
      auditRetentionDays: 365,
    });
  });
});

describe('slow clients', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      HEADERS_TIMEOUT_MS: '600',
      REQUEST_TIMEOUT_MS: '1200',
      MAX_CONNECTIONS: '20',
    });
    port = Number(new URL(await listen(t)).port);
  });
  afterAll(async () => {
    await t?.close();
  });

  const open = () =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(socket));
      socket.on('error', reject);
    });
  const closedWithin = (socket: Socket, ms: number) =>
    new Promise<{ closedAfterMs: number; data: string }>((resolve, reject) => {
      const started = performance.now();
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      const timer = setTimeout(() => reject(new Error(`still open after ${ms} ms`)), ms);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve({ closedAfterMs: performance.now() - started, data });
      });
    });

  it('closes a connection whose headers never finish, and one whose body never finishes', async () => {
    const headers = await open();
    headers.write('GET /api/healthz HTTP/1.1\r\nHost: x\r\n');
    const body = await open();
    body.write(
      'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"user',
    );
    const [h, b] = await Promise.all([closedWithin(headers, 5_000), closedWithin(body, 5_000)]);
    expect(h.data).toMatch(/^HTTP\/1.1 408/);
    expect(b.data).toMatch(/^HTTP\/1.1 408/);
  });

  it('caps the open connections (MAX_CONNECTIONS)', async () => {
    expect(t.app.server.maxConnections).toBe(20);
    const sockets = await Promise.all(Array.from({ length: 20 }, () => open()));
    const extra = await open();
    await closedWithin(extra, 2_000);
    for (const s of sockets) s.destroy();
  });
});

describe.each(dialects)('files in DATA_DIR on %s', (dialect) => {
  it('creates DATA_DIR 0700 and the database, its WAL files and the secret 0600', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'portal-perm-')), 'data');
    let dbName: string | undefined;
    const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' };
    if (dialect === 'postgres') {
      const { default: pg } = await import('pg');
      dbName = `portal_perm_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: pgAdminUrl });
      await admin.connect();
      await admin.query(`create database ${dbName}`);
      await admin.end();
      const url = new URL(pgAdminUrl);
      url.pathname = `/${dbName}`;
      env.DATABASE_URL = url.toString();
    }
    const { config, database } = await bootstrap(env);
    try {
      const mode = (f: string) => statSync(f).mode & 0o777;
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(path.join(dataDir, 'jwt-secret'))).toBe(0o600);
      if (dialect === 'sqlite') {
        for (const f of [config.sqliteFile, `${config.sqliteFile}-wal`, `${config.sqliteFile}-shm`]) {
          expect(mode(f), f).toBe(0o600);
        }
      }
    } finally {
      await database.destroy();
      rmSync(path.dirname(dataDir), { recursive: true, force: true });
      if (dbName) {
        const { default: pg } = await import('pg');
        const admin = new pg.Client({ connectionString: pgAdminUrl });
        await admin.connect();
        await admin.query(`drop database if exists ${dbName} with (force)`);
        await admin.end();
      }
    }
  });
});
