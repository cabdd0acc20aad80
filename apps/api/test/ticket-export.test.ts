import { TICKET_EXPORT_COLUMNS } from '@portal/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { withTicketDerivationsSuspended } from '../src/db/ticket-derivations.ts';
import { csvField as csvCell } from '../src/lib/csv.ts';
import { parseCsv } from './ticket-recount.ts';
import { createTestApp, dialects, type TestApp } from './helper.ts';
import { listen } from './notifications-stream-client.ts';

/** A full garbage collection, on demand (V8's `gc`, exposed for this test). */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const BULK = 50_000;

describe('csvCell', () => {
  it('quotes per RFC 4180 and neutralises formulas', () => {
    expect(csvCell('simple')).toBe('simple');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('dice "hola"')).toBe('"dice ""hola"""');
    expect(csvCell('línea\nnueva')).toBe('"línea\nnueva"');
    expect(csvCell('=SUM(A1:A9)')).toBe("'=SUM(A1:A9)");
    expect(csvCell('+34 600')).toBe("'+34 600");
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
  });
});

describe.each(dialects)('CSV export on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let agente: string;
  const db = () => t.services.database.db;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, agente] = await Promise.all([t.login('admin'), t.login('agente')]);
  });
  afterAll(() => t?.close());

  it('exports the list with a BOM, Spanish headers, its filters and sort, and refuses a list the user may not read', async () => {
    const res = await t.call(admin, 'POST', '/api/tickets/export', {
      list: 'general',
      search: '',
      filters: { stage: ['open'] },
      sort: { by: 'priority', dir: 'desc' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="tickets-general-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const [header, ...rows] = parseCsv(res.body.replace(/^\uFEFF/, ''));
    expect(header).toEqual([...TICKET_EXPORT_COLUMNS]);
    const page = (
      await t.call(admin, 'POST', '/api/general-tickets', {
        per_page: 100,
        filters: { stage: ['open'] },
        sort: { by: 'priority', dir: 'desc' },
      })
    ).json();
    expect(rows.map((r) => Number(r[0]))).toEqual(page.data.map((x: { id: number }) => x.id));
    const first = page.data[0];
    expect(rows[0]!.slice(1, 12)).toEqual([
      first.name,
      first.description,
      first.priorities.name,
      first.status_tickets.name,
      first.projects.name,
      first.areas.name,
      first.categories.name,
      first.difficulties.name,
      first.users.name,
      first.assigned_to?.name ?? '',
      first.group?.name ?? '',
    ]);
    expect(rows[0]![12]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const refused = await t.call(agente, 'POST', '/api/tickets/export', { list: 'general', search: '' });
    expect(refused.statusCode).toBe(403);
    expect((await t.call(null, 'POST', '/api/tickets/export', { list: 'mine' })).statusCode).toBe(401);
    const bad = await t.call(admin, 'POST', '/api/tickets/export', { list: 'all', sort: { by: 'x' } });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['list', 'sort.by']);

    // Mis Tickets exports only the agent's own tickets.
    const mine = await t.call(agente, 'POST', '/api/tickets/export', { list: 'mine', search: '' });
    expect(mine.statusCode).toBe(200);
    const total = (await t.call(agente, 'POST', '/api/tickets', { per_page: 1 })).json().meta.total;
    expect(parseCsv(mine.body.replace(/^\uFEFF/, '')).length - 1).toBe(total);
  });

  it('neutralises cells that would start a formula', async () => {
    const now = new Date().toISOString();
    const base = await db().selectFrom('tickets').selectAll().executeTakeFirstOrThrow();
    const { id } = await db()
      .insertInto('tickets')
      .values({
        name: '=HYPERLINK("http://evil.example","clic")',
        description: '@SUM(1+1), "citado" y -2+3',
        area_id: base.area_id,
        project_id: base.project_id,
        category_id: base.category_id,
        priority_type_id: base.priority_type_id,
        difficulty_id: base.difficulty_id,
        status_id: base.status_id,
        stage: base.stage,
        created_by: base.created_by,
        user_assigned_id: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await t.call(admin, 'POST', '/api/tickets/export', { list: 'general', search: `#${id}` });
    expect(res.statusCode).toBe(200);
    const [, row] = parseCsv(res.body.replace(/^\uFEFF/, ''));
    expect(row![0]).toBe(String(id));
    expect(row![1]).toBe(`'=HYPERLINK("http://evil.example","clic")`);
    expect(row![2]).toBe(`'@SUM(1+1), "citado" y -2+3`);
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example"",""clic"")"`);
    await db().deleteFrom('tickets').where('id', '=', id).execute();
  });

  it(`streams ${BULK.toLocaleString('en')} tickets in batches with bounded memory and parses back to the same rows`, async () => {
    const start = Date.parse('2020-01-01T00:00:00.000Z');
    const base = await db().selectFrom('tickets').selectAll().orderBy('id').executeTakeFirstOrThrow();
    const series =
      dialect === 'postgres'
        ? sql`select g as i from generate_series(1, ${BULK}) g`
        : sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${BULK}) select i from n`;
    const at = (unit: string) =>
      dialect === 'postgres'
        ? sql.raw(`timestamptz '2020-01-01T00:00:00Z' + s.i * interval '1 second'`)
        : sql.raw(`strftime('%Y-%m-%dT%H:%M:%fZ', ${start / 1000} + s.i, 'unixepoch')${unit}`);
    // Loaded as the benchmark loads, with the per-row derivations rebuilt once after.
    await withTicketDerivationsSuspended(db() as never, dialect, async () => {
      await sql`insert into tickets (name, description, area_id, project_id, category_id, priority_type_id,
        difficulty_id, status_id, stage, created_by, user_assigned_id, created_at, updated_at)
      select 'Lote ' || s.i, 'Descripción del lote, con coma y "comillas" ' || s.i, ${base.area_id}, ${base.project_id},
        ${base.category_id}, ${base.priority_type_id}, ${base.difficulty_id}, ${base.status_id}, ${base.stage},
        ${base.created_by}, null, ${at('')}, ${at('')}
      from (${series}) s`.execute(db());
    });

    const expected = await db()
      .selectFrom('tickets')
      .select(['id', 'name', 'description'])
      .orderBy('id', 'desc')
      .execute();
    expect(expected.length).toBeGreaterThan(BULK);

    // A real socket, read as it arrives (so the server's backpressure applies), each row compared
    // with the recount and dropped: the heap then grows only by what the server holds.
    const wanted = expected.map((r) => `${r.id}\u0000${r.name}\u0000${r.description}`);
    const baseUrl = await listen(t);
    // What the heap holds after a collection: garbage not yet collected is not memory held.
    const heldHeap = () => {
      collectGarbage();
      return process.memoryUsage().heapUsed;
    };
    const heapBefore = heldHeap();
    let heapPeak = heapBefore;
    const started = performance.now();
    const res = await fetch(`${baseUrl}/api/tickets/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ list: 'general', search: '' }),
    });
    expect(res.status).toBe(200);
    // A stream: sent as the rows are read, not once the whole file is built (which would carry its length).
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    const reader = res.body!.getReader();
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    let text = '';
    let chunks = 0;
    let seen = -1;
    let mismatch: string | null = null;
    const take = (lines: string[][]) => {
      for (const r of lines) {
        if (seen === -1) expect(r[0]).toBe('\uFEFFID');
        else if (mismatch === null && `${r[0]}\u0000${r[1]}\u0000${r[2]}` !== wanted[seen]) {
          mismatch = `row ${seen}: ${JSON.stringify(r.slice(0, 3))} vs ${JSON.stringify(wanted[seen])}`;
        }
        seen += 1;
      }
    };
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks += 1;
      text += decoder.decode(value, { stream: true });
      // Parse whole lines as they come (no cell holds a line break here), keeping only the unfinished tail.
      const cut = text.lastIndexOf('\r\n');
      if (cut > 0) {
        take(parseCsv(text.slice(0, cut + 2)));
        text = text.slice(cut + 2);
      }
      if (chunks % 20 === 0) heapPeak = Math.max(heapPeak, heldHeap());
    }
    if (text) take(parseCsv(text));
    const seconds = (performance.now() - started) / 1000;
    expect(mismatch).toBeNull();
    expect(seen).toBe(expected.length);
    // Streamed in many pieces, without holding the result (the heap bound below).
    expect(chunks).toBeGreaterThan(20);
    const rows = { length: seen };
    console.info(
      `[export ${dialect}] ${rows.length} rows in ${seconds.toFixed(2)} s = ${Math.round(rows.length / seconds)} rows/s, ${chunks} chunks, heap +${Math.round((heapPeak - heapBefore) / 1048576)} MB`,
    );
    expect(heapPeak - heapBefore).toBeLessThan(32 * 1024 * 1024);
  }, 120_000);
});
