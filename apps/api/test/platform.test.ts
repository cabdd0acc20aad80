import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';

describe.each(dialects)('platform on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(path.join(tmpdir(), 'portal-web-'));
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(
      path.join(webDist, 'index.html'),
      '<!doctype html><html><head><title>Tickets</title></head><body></body></html>',
    );
    writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');
    writeFileSync(
      path.join(webDist, 'route-preloads.json'),
      JSON.stringify({
        '*': { js: ['/assets/toasts-1.js'], css: [] },
        '/login': { js: ['/assets/login-2.js', '/assets/toasts-1.js', '/x"><script>'], css: ['/assets/login-3.css'] },
      }),
    );
    t = await createTestApp(dialect, { WEB_DIST: webDist });
    admin = await t.login('admin');
  });
  afterAll(async () => {
    await t?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('answers healthz and readyz', async () => {
    expect((await t.call(null, 'GET', '/api/healthz')).json()).toEqual({ status: 'ok' });
    expect((await t.call(null, 'GET', '/api/readyz')).json()).toEqual({ status: 'ok', database: dialect });
  });

  it('sends security headers with a CSP that allows no inline script', async () => {
    const res = await t.call(null, 'GET', '/api/healthz');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
  });

  it('injects a valid csrf-token meta into every index.html and serves the SPA routes', async () => {
    const page = await t.call(null, 'GET', '/areas');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const token = /<meta name="csrf-token" content="([^"]+)"/.exec(page.body)?.[1];
    expect(token).toBeDefined();
    expect(t.services.csrf.verify(token!)).toBe(true);
    const root = await t.call(null, 'GET', '/');
    expect(root.body).toContain('csrf-token');
    const asset = await t.call(null, 'GET', '/assets/app-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.call(null, 'GET', '/assets/missing.js')).statusCode).toBe(404);
  });

  it('names the code of a first screen in its index.html (modulepreload), once each, and nothing for other addresses', async () => {
    const login = (await t.call(null, 'GET', '/login')).body;
    const links = login.match(/<link [^>]+>/g) ?? [];
    expect(links).toEqual([
      '<link rel="preload" as="style" crossorigin href="/assets/login-3.css" />',
      '<link rel="modulepreload" crossorigin href="/assets/toasts-1.js" />',
      '<link rel="modulepreload" crossorigin href="/assets/login-2.js" />',
    ]);
    expect((await t.call(null, 'GET', '/login/')).body).toContain('/assets/login-2.js');
    expect((await t.call(null, 'GET', '/areas')).body).not.toContain('modulepreload');
    expect((await t.call(null, 'GET', '/')).body).not.toContain('modulepreload');
  });

  it('refuses PUT and PATCH without a valid X-CSRF-TOKEN (403) and changes nothing', async () => {
    const send = (method: 'PUT' | 'PATCH', url: string, csrf?: string) =>
      t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${admin}`, ...(csrf === undefined ? {} : { 'x-csrf-token': csrf }) },
        payload: method === 'PUT' ? { name: 'Cambiada' } : { status_id: 2 },
      });
    for (const csrf of [undefined, '', 'abc.def', `${t.csrf}x`]) {
      const put = await send('PUT', '/api/areas/update/1', csrf);
      expect(put.statusCode).toBe(403);
      expect(put.json()).toEqual({ status: false, message: 'Token CSRF inválido o ausente.' });
      expect((await send('PATCH', '/api/areas/1/change-status', csrf)).statusCode).toBe(403);
    }
    const area = await t.call(admin, 'GET', '/api/areas/1');
    expect(area.json().data).toMatchObject({ name: 'Almacén', status_id: 1 });
    const fresh = (await t.call(null, 'GET', '/api/csrf-token')).json().token;
    expect((await send('PUT', '/api/areas/update/1', fresh)).statusCode).toBe(200);
  });

  it('publishes the OpenAPI document generated from the contract', async () => {
    const res = await t.call(null, 'GET', '/api/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/login', '/api/areas/create', '/api/users/update/{id}', '/api/check-permission']),
    );
    expect(doc.paths['/api/login'].post.requestBody.content['application/json'].schema.required).toEqual([
      'username',
      'password',
    ]);
    expect((await t.call(null, 'GET', '/api/docs')).statusCode).toBeLessThan(400);
  });
});

describe.each(dialects)('failures inside the server on %s', (dialect) => {
  it('hides internals of a 5xx, never leaks a stack, and readyz reports the database', async () => {
    const t = await createTestApp(dialect);
    const admin = await t.login('admin');
    try {
      await t.services.database.destroy();
      const res = await t.call(admin, 'POST', '/api/areas', {});
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
      expect(res.json()).toEqual({ status: false, message: 'Ocurrió un error interno. Inténtalo nuevamente.' });
      expect(res.body).not.toMatch(/at |stack|sqlite|pool|postgres/i);
      const ready = await t.call(null, 'GET', '/api/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json().message).toBe('La base de datos no responde.');
    } finally {
      await t.app.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('finishes in-flight requests on SIGTERM, then exits 0', { timeout: 60_000 }, async () => {
    const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-shutdown-'));
    const port = 20000 + Math.floor(Math.random() * 20000);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: apiDir,
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        DATABASE_URL: '',
        WEB_DIST: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        let output = '';
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 20_000);
        child.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('Portal de tickets: http')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const inFlight = fetch(`http://127.0.0.1:${port}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'PortalAdmin1' }),
      });
      // Signal only once the server has received the request (sign-in then takes tens of ms of argon2id).
      await new Promise<void>((resolve) =>
        child.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('"incoming request"')) resolve();
        }),
      );
      child.kill('SIGTERM');
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(((await res.json()) as { status: boolean }).status).toBe(true);
      expect(await exited).toBe(0);
      await expect(fetch(`http://127.0.0.1:${port}/api/healthz`)).rejects.toThrow();
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
