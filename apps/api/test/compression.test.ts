import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { COMPRESSION_THRESHOLD_BYTES } from '../src/plugins/compression.ts';
import { createTestApp, dialects, type TestApp } from './helper.ts';
import { listen, openStream, streamTicket } from './notifications-stream-client.ts';

describe.each(dialects)('answer compression on %s', (dialect) => {
  let t: TestApp;
  let admin: string;

  const list = (acceptEncoding?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/general-tickets',
      headers: {
        authorization: `Bearer ${admin}`,
        ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
      },
      payload: { page: 1, per_page: 50, search: '' },
    });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  it('gzips a JSON answer over the threshold when the client accepts gzip, and it reads back the same', async () => {
    const plain = await list();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);

    const gzipped = await list('gzip');
    expect(gzipped.statusCode).toBe(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
    expect(gzipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(gunzipSync(gzipped.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('prefers brotli when the client accepts it (as browsers do)', async () => {
    const res = await list('gzip, deflate, br, zstd');
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(res.rawPayload).toString('utf8'))).toMatchObject({ status: true });
  });

  it('compresses a list answer kept in memory once per encoding, and a new answer anew after a write', async () => {
    const users = (acceptEncoding?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: {
          authorization: `Bearer ${admin}`,
          ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
        },
        payload: { page: 1, per_page: 100, search: '' },
      });
    const first = await users('br');
    const again = await users('br');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const gzipped = await users('gzip');
    const plain = (await users()).json();
    expect(JSON.parse(brotliDecompressSync(again.rawPayload).toString('utf8'))).toEqual(plain);
    expect(JSON.parse(gunzipSync(gzipped.rawPayload).toString('utf8'))).toEqual(plain);

    const created = await t.call(admin, 'POST', '/api/users/create', {
      name: 'Usuaria',
      last_name: 'Comprimida',
      username: 'ucomprimida',
      email: 'u.comprimida@portal.local',
      password: 'Camion2024!',
      role_id: '3',
      status_id: '1',
    });
    expect(created.statusCode, created.body).toBe(201);
    const after = JSON.parse(brotliDecompressSync((await users('br')).rawPayload).toString('utf8'));
    expect(after.data.map((u: { username: string }) => u.username)).toContain('ucomprimida');
    expect(after).toEqual((await users()).json());
  });

  it('sends answers under the threshold as they are', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/healthz', headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('streams the CSV export uncompressed even when compression is accepted', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tickets/export',
      headers: { authorization: `Bearer ${admin}`, 'accept-encoding': 'gzip, br' },
      payload: { list: 'general', search: '' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
  });

  it('never compresses the live notifications stream', async () => {
    const base = await listen(t);
    const stream = await openStream(base, { ticket: await streamTicket(t, admin) });
    try {
      // fetch asks for gzip, deflate and br by default.
      expect(stream.res.status).toBe(200);
      expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(stream.res.headers.get('content-encoding')).toBeNull();
      await stream.waitFor((e) => e.event === 'ready');
    } finally {
      stream.close();
    }
  });
});
