import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFuzzCases, type OpenApiDocument } from './fuzz-cases.ts';
import { createTestApp, dialects, type TestApp } from './helper.ts';

/**
 * Refused credentials are written to the audit log on purpose (a stream ticket
 * that is well formed but not valid is a credential, not a malformed request).
 */
const AUDITED_REFUSALS = new Set(['notifications.stream_refused']);

/** Row count and a checksum of every row of every table (migration bookkeeping aside). */
async function databaseFingerprint(t: TestApp): Promise<Record<string, { rows: number; sha256: string }>> {
  const { db } = t.services.database;
  const tables = (await db.introspection.getTables())
    .map((table) => table.name)
    .filter((n) => !n.startsWith('kysely_'));
  const fingerprint: Record<string, { rows: number; sha256: string }> = {};
  for (const name of tables.sort()) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- every table, chosen at run time
    const all: Record<string, unknown>[] = await (db as any).selectFrom(name).selectAll().execute();
    const rows = name === 'audit_log' ? all.filter((r) => !AUDITED_REFUSALS.has(String(r.event))) : all;
    const lines = rows.map((row) => JSON.stringify(row)).sort();
    fingerprint[name] = { rows: rows.length, sha256: createHash('sha256').update(lines.join('\n')).digest('hex') };
  }
  return fingerprint;
}

describe.each(dialects)('fuzzing every operation of the OpenAPI document on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.login('admin');
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(() => t?.close());

  it('answers at least 2,000 malformed requests without a 5xx and leaves the database unchanged', async () => {
    const cases = generateFuzzCases(doc);
    const operations = new Set(cases.map((c) => c.operation));
    expect(cases.length).toBeGreaterThanOrEqual(2000);
    expect(operations.size).toBe(Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0));

    const before = await databaseFingerprint(t);
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    for (const c of cases) {
      const res = await t.app.inject({
        method: c.method as 'GET',
        url: c.url,
        headers: { authorization: `Bearer ${admin}`, 'x-csrf-token': t.csrf, ...c.headers },
        ...(c.payload === undefined ? {} : { payload: c.payload }),
      });
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      const summary = `${c.operation} [${c.label}] -> ${res.statusCode} ${res.body.slice(0, 160)}`;
      if (res.statusCode >= 500) {
        failures.push(summary);
        continue;
      }
      if (res.statusCode >= 400) {
        // Every refusal is the API's JSON error with a message in Spanish.
        const body = (() => {
          try {
            return res.json() as { status?: unknown; message?: unknown };
          } catch {
            return null;
          }
        })();
        if (body?.status !== false || typeof body.message !== 'string') failures.push(`not a JSON error: ${summary}`);
      }
    }
    if (process.env.FUZZ_REPORT) {
      console.log(dialect, {
        requests: cases.length,
        operations: operations.size,
        statuses,
        failures: failures.length,
      });
      console.log(failures.join('\n'));
    }
    expect(failures).toEqual([]);
    expect(await databaseFingerprint(t)).toEqual(before);
    // The admin's session survived everything it was sent.
    expect((await t.call(admin, 'GET', '/api/areas/1')).statusCode).toBe(200);
  }, 120_000);
});
