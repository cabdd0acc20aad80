import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';

describe.each(dialects)('bad input on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let snapshot: () => Promise<unknown>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.login('admin');
    const { db } = t.services.database;
    snapshot = async () => ({
      areas: await db.selectFrom('areas').selectAll().orderBy('id').execute(),
      users: await db.selectFrom('users').selectAll().orderBy('id').execute(),
    });
  });
  afterAll(() => t?.close());

  const expectSpanish4xx = (
    res: { statusCode: number; json(): { status: boolean; message: string } },
    code: number,
  ) => {
    expect(res.statusCode).toBe(code);
    expect(res.json().status).toBe(false);
    expect(res.json().message).toMatch(/[áéíóúñ]|solicitud|validación|contenido/i);
  };

  it('malformed JSON gets a 400 with a Spanish message and changes nothing', async () => {
    const before = await snapshot();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/areas/create',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      payload: '{"name": "Roto",',
    });
    expectSpanish4xx(res, 400);
    expect(res.json().message).toBe('El cuerpo de la solicitud no es JSON válido.');
    expect(await snapshot()).toEqual(before);
  });

  it('an unsupported content type gets a 415, plain text a 422', async () => {
    const send = (type: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/areas/create',
        headers: { authorization: `Bearer ${admin}`, 'content-type': type },
        payload: '<name>Roto</name>',
      });
    expectSpanish4xx(await send('application/xml'), 415);
    expectSpanish4xx(await send('text/plain'), 422);
  });

  it.each([
    ['a number as a name', { name: 12345 }],
    ['an array body', [1, 2, 3]],
    ['a null name', { name: null }],
    ['a status outside 1 and 2', { name: 'Válida', status_id: 7 }],
    ['quotes in a name', { name: "O'Brien" }],
    ['SQL in a name', { name: "x'); drop table areas; --" }],
    ['emoji in a name', { name: 'Almacén 🚚' }],
    ['control characters', { name: 'Alma\u0000cén' }],
    ['an empty name', { name: '   ' }],
    ['a name over 100 characters', { name: 'a'.repeat(101) }],
  ])('%s gets a 422 with Spanish field errors and changes nothing', async (_label, body) => {
    const before = await snapshot();
    const res = await t.call(admin, 'POST', '/api/areas/create', body);
    expectSpanish4xx(res, 422);
    expect(res.json().message).toBe('Error de validación');
    expect(Object.keys(res.json().errors).length).toBeGreaterThan(0);
    expect(await snapshot()).toEqual(before);
  });

  it('a 1 MB string is refused with a 413 and the server keeps serving', async () => {
    const before = await snapshot();
    const res = await t.call(admin, 'POST', '/api/areas/create', { name: 'a'.repeat(1024 * 1024) });
    expectSpanish4xx(res, 413);
    expect(await snapshot()).toEqual(before);
    expect((await t.call(null, 'GET', '/api/healthz')).statusCode).toBe(200);
  });

  it.each([
    ['a negative page', { page: -1 }],
    ['page zero', { page: 0 }],
    ['a huge page', { page: 1e15 }],
    ['a fractional page', { page: 1.5 }],
    ['a text page', { page: 'uno' }],
    ['per_page zero', { per_page: 0 }],
    ['a huge per_page', { per_page: 100000 }],
    ['a search over 100 characters', { search: 'x'.repeat(101) }],
    ['a non-text search', { search: { $ne: 1 } }],
  ])('%s in a list gets a 422', async (_label, body) => {
    expectSpanish4xx(await t.call(admin, 'POST', '/api/areas', body), 422);
  });

  it.each(["'; drop table areas; --", '%', '_', '\\', 'ñandú 🚚', "' or 1=1 --"])(
    'search treats %j as plain text',
    async (search) => {
      const res = await t.call(admin, 'POST', '/api/areas', { page: 1, per_page: 50, search });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual([]);
      expect((await t.call(admin, 'POST', '/api/areas', {})).json().total).toBeGreaterThan(0);
    },
  );

  it.each(['abc', '-1', '0', '1.5', '99999999999'])('the id %s in a path gets a 422', async (id) => {
    expectSpanish4xx(await t.call(admin, 'GET', `/api/areas/${id}`), 422);
    expectSpanish4xx(await t.call(admin, 'PUT', `/api/areas/update/${id}`, { name: 'Nada' }), 422);
  });

  it('an unknown API path is a JSON 404 in Spanish', async () => {
    const res = await t.call(admin, 'POST', '/api/no-existe');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: false, message: 'La ruta solicitada no existe.' });
  });
});
