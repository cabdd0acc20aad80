import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';
import { parseMetrics } from './metrics-text.ts';
import { listen, openStream, streamTicket } from './notifications-stream-client.ts';

const METRICS_TOKEN = 'metrics-token-0123456789';

describe.each(dialects)('metrics on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { METRICS_TOKEN });
    admin = await t.login('admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  const scrape = async () => {
    const res = await t.app.inject({ url: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseMetrics(res.body);
  };

  it('refuses a scraper without the token, or with another one', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Basic ${METRICS_TOKEN}`, METRICS_TOKEN]) {
      const res = await t.app.inject({ url: '/api/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.body).not.toContain('portal_');
    }
  });

  it('counts requests by method, route pattern and status, with their durations', async () => {
    const before = await scrape();
    const ticket = await t.call(admin, 'GET', '/api/tickets/1');
    expect(ticket.statusCode).toBe(200);
    expect((await t.call(admin, 'GET', '/api/tickets/999999')).statusCode).toBe(404);
    expect((await t.call(null, 'GET', '/api/tickets/1')).statusCode).toBe(401);

    const after = await scrape();
    const count = (status: string) =>
      `portal_http_request_duration_seconds_count{method="GET",route="/api/tickets/:id",status="${status}"}`;
    for (const status of ['200', '404', '401']) {
      expect((after.get(count(status)) ?? 0) - (before.get(count(status)) ?? 0), status).toBe(1);
    }
    // One series per route pattern: no raw URL (no ticket id) becomes a label.
    expect([...after.keys()].filter((key) => key.includes('/api/tickets/1"'))).toEqual([]);
    const bucket = `portal_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/tickets/:id",status="200"}`;
    expect(after.get(bucket)).toBeGreaterThanOrEqual(1);
    expect(after.get(`portal_http_request_duration_seconds_count{method="POST",route="/api/login",status="200"}`)).toBe(
      1,
    );
  });

  it('counts the kept list answers served from memory and those read from the database', async () => {
    if (dialect === 'postgres') await expect.poll(() => t.services.bus.canCache(), { timeout: 5_000 }).toBe(true);
    const key = (list: string, source: string) => `portal_list_answers_total{list="${list}",source="${source}"}`;
    const before = await scrape();
    const query = { page: 1, per_page: 7, search: 'metrics' };
    for (let i = 0; i < 3; i += 1) expect((await t.call(admin, 'POST', '/api/areas', query)).statusCode).toBe(200);
    const after = await scrape();
    expect(after.get(key('catalogs', 'database'))! - (before.get(key('catalogs', 'database')) ?? 0)).toBe(1);
    expect(after.get(key('catalogs', 'kept'))! - (before.get(key('catalogs', 'kept')) ?? 0)).toBe(2);
  });

  it('reports the open notification streams', async () => {
    const baseUrl = await listen(t);
    const stream = await openStream(baseUrl, { ticket: await streamTicket(t, admin) });
    await stream.waitFor((e) => e.event === 'ready');
    expect((await scrape()).get('portal_notification_streams_open')).toBe(1);
    await stream.close();
    await expect.poll(async () => (await scrape()).get('portal_notification_streams_open')).toBe(0);
  });

  it('reports the mail outbox by state', async () => {
    await t.services.mailWorker.stop();
    try {
      const ticket = await t.services.database.db.selectFrom('tickets').select('id').executeTakeFirstOrThrow();
      const mail = t.services.ticketMail.compose({
        ticketId: ticket.id,
        ticketName: 'Prueba',
        recipientName: 'Ana',
        message: 'Aviso',
        actorName: null,
      });
      const before = await scrape();
      await t.services.mailOutbox.enqueue({ userId: null, ticketId: ticket.id, to: 'ana@empresa.mx', ...mail });
      const after = await scrape();
      expect(after.get('portal_mail_outbox{status="pending"}')).toBe(
        (before.get('portal_mail_outbox{status="pending"}') ?? 0) + 1,
      );
      expect(after.get('portal_mail_outbox{status="failed"}')).toBe(0);
    } finally {
      t.services.mailWorker.start();
    }
  });

  it('reports how long the steps of a reference re-extraction held their transaction', async () => {
    const type = await t.services.database.db.selectFrom('reference_types').select('id').executeTakeFirstOrThrow();
    await t.services.referenceReextraction.idle();
    const counted = (await scrape()).get('portal_reference_reextraction_step_seconds_count') ?? 0;
    await t.services.database.db
      .insertInto('reference_reextractions')
      .values({ type_id: type.id, after_id: 0, done: 0, total: null })
      .execute();
    await t.services.referenceReextraction.idle();
    const after = await scrape();
    expect(after.get('portal_reference_reextraction_step_seconds_count')).toBeGreaterThan(counted);
    expect(after.get('portal_reference_reextraction_step_seconds_bucket{le="+Inf"}')).toBe(
      after.get('portal_reference_reextraction_step_seconds_count'),
    );
    expect(after.get('portal_reference_reextraction_step_max_seconds')).toBeGreaterThan(0);
  });

  it("reports the database pool (PostgreSQL's), the event loop lag and the process memory", async () => {
    const samples = await scrape();
    if (dialect === 'postgres') {
      expect(samples.get('portal_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
      expect(samples.get('portal_db_pool_connections{state="busy"}')).toBeGreaterThanOrEqual(0);
      expect(samples.get('portal_db_pool_waiting_queries')).toBe(0);
    } else {
      expect([...samples.keys()].some((key) => key.startsWith('portal_db_pool'))).toBe(false);
    }
    expect(samples.get('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(samples.get('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samples.get('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });
});

describe('metrics without METRICS_TOKEN', () => {
  it('are not served at all', async () => {
    const t = await createTestApp('sqlite');
    try {
      const res = await t.app.inject({ url: '/api/metrics', headers: { authorization: 'Bearer ' } });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
