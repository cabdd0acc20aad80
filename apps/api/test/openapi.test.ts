import { compileErrors, validate } from '@readme/openapi-parser';
import { Ajv, type ValidateFunction } from 'ajv';
import type { LightMyRequestResponse } from 'fastify';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFuzzCases } from './fuzz-cases.ts';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

/**
 * The OpenAPI document (/api/docs/json) as generated clients and fuzzers use
 * it: valid for a maintained validator, with per-operation security, and
 * every answer the API really gives (status and body) described by it.
 */

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, Json>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json>; securitySchemes: Json };
  security?: unknown;
}

const UNSAFE = new Set(['PUT', 'PATCH', 'DELETE']);

function operationsOf(doc: Document) {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
}

/** The documented operation a request URL reaches (path templates as patterns; literal segments first). */
function operationFor(doc: Document, method: string, url: string) {
  const path = url.split('?')[0]!;
  const candidates = operationsOf(doc).filter(
    (o) =>
      o.method === method &&
      new RegExp(
        `^${o.path.replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === '{' || c === '}' ? c : `\\${c}`)).replace(/\{[^}]+\}/g, '[^/]+')}$`,
      ).test(path),
  );
  candidates.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  return candidates[0];
}

/** A response object with its `$ref` to the shared responses followed. */
function responseOf(doc: Document, op: Operation, status: number): Json | undefined {
  const response = op.responses[String(status)];
  const ref = response?.$ref as string | undefined;
  return ref ? doc.components.responses[ref.replace('#/components/responses/', '')] : response;
}

describe.each(dialects)('the OpenAPI document on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let agente: string;
  let doc: Document;
  let ajv: Ajv;
  const validators = new Map<Json, ValidateFunction>();

  // A built web app beside the API, as in production: its pages must stay out of the document.
  const webDist = mkdtempSync(path.join(tmpdir(), 'portal-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><html><head></head><body></body></html>');

  beforeAll(async () => {
    t = await createTestApp(dialect, { WEB_DIST: webDist });
    [admin, agente] = (await Promise.all(['admin', 'agente'].map((u) => t.login(u)))) as [string, string];
    doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ $id: 'openapi.json', components: doc.components }, 'openapi.json');
  });
  afterAll(async () => {
    await t?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  /** Checks one real answer: its status is documented for the operation, and a JSON body matches its schema. */
  function expectDocumented(method: string, url: string, res: LightMyRequestResponse): string | null {
    const found = operationFor(doc, method, url);
    if (!found) return `${method} ${url}: no documented operation`;
    const response = responseOf(doc, found.op, res.statusCode);
    if (!response) return `${method} ${found.path}: status ${res.statusCode} not documented`;
    const content = response.content as Record<string, { schema: Json }> | undefined;
    const type = String(res.headers['content-type'] ?? '').split(';')[0]!;
    if (!content) return null;
    if (!content[type]) return `${method} ${found.path} ${res.statusCode}: content type ${type} not documented`;
    if (type !== 'application/json') return null;
    const schema = JSON.parse(
      JSON.stringify(content[type].schema).replaceAll('"#/components/', '"openapi.json#/components/'),
    ) as Json;
    let check = validators.get(content[type].schema);
    if (!check) validators.set(content[type].schema, (check = ajv.compile(schema)));
    if (!check(res.json())) {
      return `${method} ${found.path} ${res.statusCode}: ${ajv.errorsText(check.errors)} in ${res.body.slice(0, 200)}`;
    }
    return null;
  }

  it('passes @readme/openapi-parser with no error and no warning', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? [] : compileErrors(result)).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it("lists the API only: every path under /api with an operationId, none of the web app's pages", async () => {
    const page = await t.app.inject({ url: '/tickets' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    for (const { path, method, op } of operationsOf(doc)) {
      expect(path, `${method} ${path}`).toMatch(/^\/api\//);
      expect(op.operationId, `${method} ${path}`).toBeTruthy();
    }
  });

  it('declares, for every operation, its id, description, security and described answers', () => {
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(100);
    expect(doc.security).toBeUndefined();
    expect(new Set(operations.map((o) => o.op.operationId)).size).toBe(operations.length);
    const access = new Map(t.app.routeAccess.map((r) => [`${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`, r.access]));
    for (const { path, method, op } of operations) {
      const name = `${method} ${path}`;
      expect(op.operationId, name).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(op.description, name).toBeTruthy();
      const rule = access.get(name);
      expect(rule, name).toBeDefined();
      if (rule === 'public') {
        expect(op.security, name).toEqual([]);
      } else {
        expect(op.security, name).toEqual([UNSAFE.has(method) ? { bearer: [], csrf: [] } : { bearer: [] }]);
        expect(op.responses['401'], name).toEqual({ $ref: '#/components/responses/Unauthorized' });
        if (UNSAFE.has(method) || typeof rule === 'object') {
          expect(op.responses['403'], name).toEqual({ $ref: '#/components/responses/Forbidden' });
        }
      }
      if (op.requestBody) {
        for (const code of ['400', '413', '415', '422']) expect(op.responses[code], `${name} ${code}`).toBeDefined();
      }
      if (path.includes('{')) expect(op.responses['404'], name).toBeDefined();
      for (const [code, response] of Object.entries(op.responses)) {
        if (Number(code) >= 400) {
          // Every error answer is one of the shared responses, all with the one Error schema.
          expect(response.$ref, `${name} ${code}`).toMatch(/^#\/components\/responses\/\w+$/);
        } else {
          expect(response.description, `${name} ${code}`).not.toBe('Default Response');
        }
      }
    }
    for (const response of Object.values(doc.components.responses)) {
      expect(response.content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/Error' } } });
    }
    expect(doc.components.securitySchemes).toMatchObject({
      bearer: { type: 'http', scheme: 'bearer' },
      csrf: { type: 'apiKey', in: 'header', name: 'X-CSRF-TOKEN' },
    });
  });

  it('describes the request bodies: character rules, e-mail, required fields, files and examples', () => {
    const json = (path: string, method = 'post') =>
      doc.paths[path]![method]!.requestBody!.content['application/json']!.schema;
    const login = json('/api/login');
    expect(login.example).toEqual({ username: expect.any(String), password: expect.any(String) });
    expect((login.properties as Record<string, Json>).username!.pattern).toBeTruthy();
    const ticket = json('/api/tickets/create');
    expect(ticket.example).toBeDefined();
    expect((ticket.properties as Record<string, Json>).name!.pattern).toBe('^[A-Za-z0-9ÁÉÍÓÚÜÑáéíóúüñ .,;:_\\-]*$');
    expect(json('/api/areas').example).toBeDefined();
    expect(json('/api/tickets').example).toBeDefined();
    expect((json('/api/users/create').properties as Record<string, Json>).email!.format).toBe('email');
    expect(json('/api/users/change-password/{id}').required).toEqual([
      'current_password',
      'new_password',
      'password_confirmation',
    ]);
    const avatar = doc.paths['/api/users/{id}/avatar']!.post!.requestBody!.content['multipart/form-data']!.schema;
    expect(avatar).toMatchObject({ required: ['file'], properties: { file: { type: 'string', format: 'binary' } } });
    // Each rule's pattern accepts what the server accepts and refuses a quote.
    const pattern = new RegExp((login.properties as Record<string, Json>).password!.pattern as string, 'u');
    expect(pattern.test('MiClave#2024')).toBe(true);
    expect(pattern.test("Mi'Clave")).toBe(false);
  });

  it('describes the answers a sample of real requests gets, successes and errors', async () => {
    const own = (await t.call(agente, 'POST', '/api/user-permissions', {})).statusCode;
    expect(own).toBe(200);
    const json = { 'content-type': 'application/json' };
    const requests: [string | null, string, string, unknown?, Record<string, string>?][] = [
      [null, 'GET', '/api/healthz'],
      [null, 'GET', '/api/csrf-token'],
      [null, 'POST', '/api/login', { username: 'admin', password: 'PortalAdmin1' }],
      [null, 'POST', '/api/login', { username: 'admin', password: 'incorrecta1' }],
      [null, 'POST', '/api/login', {}],
      [null, 'GET', '/api/statuses'],
      [admin, 'GET', '/api/statuses'],
      [admin, 'POST', '/api/areas', { page: 1 }],
      [admin, 'GET', '/api/areas/1'],
      [admin, 'GET', '/api/areas/2147483647'],
      [admin, 'GET', '/api/areas/abc'],
      [admin, 'GET', '/api/areas/active-records'],
      [admin, 'POST', '/api/users', {}],
      [admin, 'GET', '/api/users/1'],
      [admin, 'POST', '/api/tickets', {}],
      [admin, 'POST', '/api/general-tickets', { per_page: 5 }],
      [admin, 'POST', '/api/tickets/create', ticketBody('Prueba', 'Documento')],
      [admin, 'GET', '/api/tickets/last-three'],
      [admin, 'GET', '/api/notifications/active-records'],
      [admin, 'GET', '/api/notifications/all-data'],
      [admin, 'GET', '/api/users/laboral-information/1'],
      [admin, 'GET', '/api/images/1'],
      [admin, 'POST', '/api/check-permission', { route_name: 'no-existe' }],
      [admin, 'POST', '/api/tickets/count-per-user', {}],
      [admin, 'POST', '/api/audit-log', {}],
      [admin, 'GET', '/api/audit-log/users'],
      [await t.login('admin'), 'POST', '/api/renew-token'],
      [agente, 'POST', '/api/audit-log', {}],
      [agente, 'POST', '/api/areas/create', { name: 'Nueva' }],
      [agente, 'GET', '/api/users/laboral-information/1'],
      [admin, 'POST', '/api/areas/create', { name: "Con 'comillas'" }],
      [admin, 'POST', '/api/areas', '{"page":', json],
      [admin, 'POST', '/api/areas', 'page=1', { 'content-type': 'text/plain' }],
      [admin, 'POST', '/api/areas', JSON.stringify({ search: 'x'.repeat(t.config.bodyLimit) }), json],
      [admin, 'POST', '/api/users/1/avatar', '{}', json],
      [admin, 'GET', '/api/avatars/default.svg'],
      [admin, 'GET', '/api/avatars/no-existe.webp'],
    ];
    const failures: string[] = [];
    const statuses = new Set<number>();
    for (const [token, method, url, body, headers] of requests) {
      const res = await t.app.inject({
        method: method as 'GET',
        url,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
        ...(body === undefined ? {} : { payload: body as string }),
      });
      statuses.add(res.statusCode);
      if (process.env.OPENAPI_REPORT) console.log(method, url, res.statusCode, res.body.slice(0, 100));
      const failure = expectDocumented(method, url, res);
      if (failure) failures.push(failure);
    }
    // Unsafe methods without the CSRF header, and with it.
    for (const csrf of [undefined, t.csrf]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/areas/update/1',
        headers: { authorization: `Bearer ${admin}`, ...(csrf ? { 'x-csrf-token': csrf } : {}) },
        payload: { name: 'Almacén' },
      });
      statuses.add(res.statusCode);
      const failure = expectDocumented('PUT', '/api/areas/update/1', res);
      if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 201, 400, 401, 403, 404, 413, 415, 422]));
  });

  it('documents every status of the fuzz cases and of the refusals of each operation', async () => {
    const cases = generateFuzzCases(doc as never);
    const requests: { method: string; url: string; headers: Record<string, string>; payload?: string | Buffer }[] =
      cases.map((c) => ({
        method: c.method,
        url: c.url,
        headers: { authorization: `Bearer ${admin}`, 'x-csrf-token': t.csrf, ...c.headers },
        payload: c.payload,
      }));
    for (const { path, method, op } of operationsOf(doc)) {
      const url = path.replace(/\{\w+\}/g, '1');
      const payload = op.requestBody?.content['application/json'] ? '{}' : undefined;
      const headers: Record<string, string> = payload ? { 'content-type': 'application/json' } : {};
      // No session, a forged one, a user without the section, a missing CSRF header.
      requests.push({ method, url, headers, payload });
      requests.push({ method, url, headers: { ...headers, authorization: 'Bearer x.y.z' }, payload });
      requests.push({
        method,
        url,
        headers: { ...headers, authorization: `Bearer ${agente}`, 'x-csrf-token': t.csrf },
        payload,
      });
      if (UNSAFE.has(method)) {
        requests.push({ method, url, headers: { ...headers, authorization: `Bearer ${admin}` }, payload });
      }
    }
    const undocumented = new Map<string, number>();
    for (const r of requests) {
      const res = await t.app.inject({
        method: r.method as 'GET',
        url: r.url,
        headers: r.headers,
        ...(r.payload === undefined ? {} : { payload: r.payload }),
      });
      const found = operationFor(doc, r.method, r.url);
      if (found && !responseOf(doc, found.op, res.statusCode)) {
        const key = `${r.method} ${found.path} ${res.statusCode}`;
        undocumented.set(key, (undocumented.get(key) ?? 0) + 1);
      }
    }
    if (process.env.OPENAPI_REPORT) {
      console.log(dialect, {
        operations: operationsOf(doc).length,
        requests: requests.length,
        undocumented: [...undocumented.values()].reduce((a, b) => a + b, 0),
        pairs: Object.fromEntries(undocumented),
      });
    }
    expect(Object.fromEntries(undocumented)).toEqual({});
  }, 180_000);
});
