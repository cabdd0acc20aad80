import { TICKET_COUNT_CAP } from '@portal/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/schema.ts';
import { addTicketWordBitmaps, withTicketDerivationsSuspended } from '../src/db/ticket-derivations.ts';
import { createTestApp, ticketBody, type TestApp } from './helper.ts';
import { attrBitmaps, keptWordCounts } from './ticket-recount.ts';

/**
 * PostgreSQL keeps bitmaps of the tickets holding each common word (`ticket_bitmap_words`, in
 * `ticket_attr_blocks`), so a search combining common words, filters and the caller's scope is
 * counted from bitmaps instead of the text index's postings. Whoever writes the tickets, each
 * listed word's bitmaps stay what the tickets' text index holds, and the totals are the
 * tickets' own count.
 */
// Several cases write more tickets than the cap through the triggers, by SQL: seconds on a quiet
// machine, several times that beside the other suites.
describe('common words bitmaps on postgres', { timeout: 120_000 }, () => {
  let t: TestApp;
  let admin: string;
  let agente: string;
  let agenteId: number;
  const db = () => t.services.database.db;

  beforeAll(async () => {
    t = await createTestApp('postgres');
    admin = await t.login('admin');
    agente = await t.login('agente');
    agenteId = (await db().selectFrom('users').select('id').where('username', '=', 'agente').executeTakeFirstOrThrow())
      .id;
  });
  afterAll(() => t?.close());

  /** `count` tickets written by SQL after the last id and `skip` more, their text from the series number `g`. */
  async function insert(count: number, name: string, description: string, skip = 0) {
    await sql`insert into tickets (id, name, description, area_id, project_id, category_id, priority_type_id,
        difficulty_id, status_id, created_by, user_assigned_id, created_at, updated_at)
      select (select max(id) from tickets) + ${skip}::int + g, ${sql.raw(name)}, ${sql.raw(description)},
        1 + g % 3, 1, 1, 1 + g % 4, 1, 1, ${agenteId}::int, case when g % 5 = 0 then null else ${agenteId}::int end,
        now(), now()
      from generate_series(1, ${count}::int) g`.execute(db());
    await sql`select setval(pg_get_serial_sequence('tickets', 'id'), (select max(id) from tickets))`.execute(db());
  }

  /** The listed words' kept bitmaps, and the same computed afresh from the tickets' text index. */
  async function bitmaps() {
    const listed = new Set(await listedWords());
    const kept = (await attrBitmaps(db())).filter((r) => listed.has(r.token));
    const recounted = await sql<{ token: string; block: number; shard: number; bits: string }>`
      select u.lexeme as token, t.id >> 16 as block, t.id & 7 as shard,
        bit_or(B'1'::bit(8192) >> ((t.id >> 3) & 8191))::text as bits
      from tickets t, unnest(t.search_doc) u
      where u.lexeme in (select word from ticket_bitmap_words)
      group by 1, 2, 3 order by 1, 2, 3`.execute(db());
    return { kept, recounted: recounted.rows };
  }

  const listedWords = async () =>
    (await db().selectFrom('ticket_bitmap_words').select('word').orderBy('word').execute()).map((r) => r.word);

  /** A list's total, as its page gives it. */
  async function total(token: string, url: string, search: string, filters?: Record<string, number[]>) {
    const res = await t.call(token, 'POST', url, { page: 1, per_page: 10, search, filters });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { meta: { total: number } }).meta.total;
  }

  /** The ids of the tickets holding a word starting each of `words` (as a search reads them), optionally agente's, in `area`, in id order. */
  async function matching(words: string[], { mine = false, area }: { mine?: boolean; area?: number }, dir: string) {
    const query = words.map((w) => `'${w}':*`).join(' & ');
    const { rows } = await sql<{ id: number }>`select t.id from tickets t
      where ${words.length > 0 ? sql`t.search_doc @@ ${query}::tsquery` : sql`true`}
      ${mine ? sql`and (t.created_by = ${agenteId} or t.user_assigned_id = ${agenteId})` : sql``}
      ${area === undefined ? sql`` : sql`and t.area_id = ${area}`}
      order by t.id ${sql.raw(dir)}`.execute(db());
    return rows.map((r) => r.id);
  }

  /**
   * The ids of every page of a list searched for the words, sorted by id, up to the first page
   * past the `count` tickets it should hold (empty); each page tells that exact total.
   */
  async function pagedIds(
    [token, url, words, filters]: [string, string, string[], Record<string, number[]> | undefined],
    dir: 'asc' | 'desc',
    perPage: number,
    count: number,
  ) {
    const ids: number[] = [];
    for (let page = 1; page <= Math.ceil(count / perPage) + 1; page++) {
      const res = await t.call(token, 'POST', url, {
        page,
        per_page: perPage,
        search: words.join(' '),
        filters,
        sort: { by: 'id', dir },
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { data: { id: number }[]; meta: { total: number; total_is_lower_bound?: boolean } };
      expect(body.meta.total).toBe(count);
      expect(body.meta.total_is_lower_bound).toBeUndefined();
      ids.push(...body.data.map((r) => r.id));
    }
    return ids;
  }

  /** How many tickets `matching` finds. */
  const counted = async (words: string[], options: { mine?: boolean; area?: number } = {}) =>
    (await matching(words, options, 'asc')).length;

  it('lists the words more tickets hold than asked, and keeps their bitmaps through every write', async () => {
    await insert(30, `'Granate ' || g`, `'Ambar ' || case when g % 2 = 0 then 'jade' else 'onix' end`);
    // Far ids: beyond a block of 65,536, and past a whole empty block.
    await insert(6, `'Granate lejano ' || g`, `'Ambar jade'`, 70_000);
    await insert(4, `'Granate lejanisimo ' || g`, `'Ambar onix'`, 140_000);
    const added = await sql<{ n: number }>`select portal_ticket_word_bitmaps(5) as n`.execute(db());
    expect(Number(added.rows[0]!.n)).toBeGreaterThan(0);
    expect(await listedWords()).toEqual(expect.arrayContaining(['ambar', 'granate', 'jade', 'onix']));
    // Nothing more to add: the same call lists nothing and takes no lock.
    expect(Number((await sql<{ n: number }>`select portal_ticket_word_bitmaps(5) as n`.execute(db())).rows[0]!.n)).toBe(
      0,
    );
    let { kept, recounted } = await bitmaps();
    expect(kept).toEqual(recounted);

    // Through the API, by SQL, edits of the text, attribute changes and deletes.
    const made = await t.call(admin, 'POST', '/api/tickets/create', ticketBody('Granate nuevo', 'Ambar jade'));
    expect(made.statusCode, made.body).toBe(201);
    await insert(12, `'Granate ' || g`, `'Topacio ' || case when g % 2 = 0 then 'jade' else 'onix' end`);
    await db().updateTable('tickets').set({ description: 'Ambar onix' }).where('name', 'like', 'Granate 1%').execute();
    await db().updateTable('tickets').set({ description: 'Sin ambar' }).where('name', 'like', 'Granate 2%').execute();
    await db().updateTable('tickets').set({ name: 'Cuarzo' }).where('name', 'like', 'Granate lejano%').execute();
    await db().updateTable('tickets').set({ area_id: 2, priority_type_id: 4 }).where('name', 'like', '% 3%').execute();
    await db().deleteFrom('tickets').where('name', 'like', 'Granate lejanisimo%').execute();
    ({ kept, recounted } = await bitmaps());
    expect(kept).toEqual(recounted);
    expect(kept.some((r) => r.token === 'granate' && r.block > 0)).toBe(true);
  });

  it('counts searches of common words, with filters and in Mis Tickets, as the tickets count them', async () => {
    const cases: [string, string, string, string[], { mine?: boolean; area?: number }?, Record<string, number[]>?][] = [
      ['two words', admin, '/api/general-tickets', ['granate', 'jade']],
      ['a word and an area', admin, '/api/general-tickets', ['ambar'], { area: 2 }, { area_id: [2] }],
      ['in Mis Tickets', agente, '/api/tickets', ['ambar', 'onix'], { mine: true }],
    ];
    for (const [label, token, url, words, options, filters] of cases) {
      const expected = await counted(words, options);
      expect(expected, label).toBeGreaterThan(0);
      expect(await total(token, url, words.join(' '), filters), label).toBe(expected);
    }
    // The total is read from the bitmaps: without those of `jade`, no ticket holds it with `granate`.
    await sql`update ticket_attr_blocks set token = 'jade (aparte)' where token = 'jade'`.execute(db());
    expect(await total(admin, '/api/general-tickets', 'granate jade')).toBe(0);
    await sql`update ticket_attr_blocks set token = 'jade' where token = 'jade (aparte)'`.execute(db());
    // A word without bitmaps is counted through the text index.
    await insert(3, `'Granate ' || g`, `'Turquesa'`);
    expect(await listedWords()).not.toContain('turquesa');
    expect(await total(admin, '/api/general-tickets', 'granate turquesa')).toBe(3);
  });

  it('pages a list counted from the bitmaps in id order, at any depth, as the tickets order them', async () => {
    // Pages across two blocks of ids, and past an empty one.
    await insert(7, `'Granate ' || g`, `'Ambar jade'`, 200_000);
    const cases: [string, string, string[], { mine?: boolean; area?: number }, Record<string, number[]>?][] = [
      [admin, '/api/general-tickets', ['ambar', 'jade'], {}],
      [admin, '/api/general-tickets', ['granate'], { area: 2 }, { area_id: [2] }],
      [agente, '/api/tickets', ['ambar'], { mine: true }],
      [admin, '/api/general-tickets', [], { area: 2 }, { area_id: [2] }],
    ];
    for (const [token, url, words, options, filters] of cases) {
      for (const dir of ['desc', 'asc'] as const) {
        const label = `${words.join(' ')} ${JSON.stringify(filters ?? {})} ${dir}`;
        const expected = await matching(words, options, dir);
        expect(expected.length, label).toBeGreaterThan(5);
        expect(await pagedIds([token, url, words, filters], dir, 7, expected.length), label).toEqual(expected);
      }
    }
    // The page is read from the bitmaps: without those of `jade`, no ticket holds it with `ambar`.
    await sql`update ticket_attr_blocks set token = 'jade (aparte)' where token = 'jade'`.execute(db());
    const res = await t.call(admin, 'POST', '/api/general-tickets', { page: 1, per_page: 7, search: 'ambar jade' });
    expect(res.json()).toMatchObject({ data: [], meta: { total: 0 } });
    await sql`update ticket_attr_blocks set token = 'jade' where token = 'jade (aparte)'`.execute(db());
  });

  it('gives a word its bitmaps in the background once more tickets than the cap hold it', async () => {
    await insert(TICKET_COUNT_CAP + 1, `'Obsidiana ' || g`, `'Andén ' || g % 7`);
    expect(await listedWords()).not.toContain('obsidiana');
    expect(await addTicketWordBitmaps(db(), 1_000)).toBeGreaterThan(0);
    expect(await listedWords()).toContain('obsidiana');
    const { kept, recounted } = await bitmaps();
    expect(kept).toEqual(recounted);
    expect(await total(admin, '/api/general-tickets', 'obsidiana', { area_id: [2] })).toBe(
      await counted(['obsidiana'], { area: 2 }),
    );
  });

  it('tells a prefix of too many words to list over the cap when its common words alone are, else counts it', async () => {
    // `obsidiana` now starts more words than a search lists (obsidiana1, obsidiana2, …): it is read as a prefix.
    await insert(40, `'Obsidiana' || g || ' granate'`, `'Andén'`);
    const list = async (search: string) => {
      const res = await t.call(admin, 'POST', '/api/general-tickets', { page: 1, per_page: 10, search });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: { id: number }[]; meta: { total: number; total_is_lower_bound?: boolean } };
    };
    // Its listed word `obsidiana` with `anden` already hold more tickets than the cap.
    expect(await counted(['obsidiana', 'anden'])).toBeGreaterThan(TICKET_COUNT_CAP);
    const over = await list('obsidiana andén');
    expect(over.meta).toMatchObject({ total: TICKET_COUNT_CAP, total_is_lower_bound: true });
    expect(over.data.map((r) => r.id)).toEqual((await matching(['obsidiana', 'anden'], {}, 'desc')).slice(0, 10));
    // With `granate`, only the words the bitmaps lack (obsidiana1, …) match: the matches are counted.
    const few = await list('obsidiana granate');
    expect(few.meta.total).toBe(await counted(['obsidiana', 'granate']));
    expect(few.meta.total).toBe(40);
    expect(few.meta.total_is_lower_bound).toBeUndefined();
    // The bound is read from the bitmaps: given those of `anden`, `granate` is told over the cap too.
    await sql`update ticket_attr_blocks set token = 'granate (aparte)' where token = 'granate'`.execute(db());
    await sql`insert into ticket_attr_blocks (token, block, shard, bits)
      select 'granate', block, shard, bits from ticket_attr_blocks where token = 'anden'`.execute(db());
    expect((await list('obsidiana granate')).meta).toMatchObject({
      total: TICKET_COUNT_CAP,
      total_is_lower_bound: true,
    });
    await sql`delete from ticket_attr_blocks where token = 'granate'`.execute(db());
    await sql`update ticket_attr_blocks set token = 'granate' where token = 'granate (aparte)'`.execute(db());
  });

  it('counts and pages a short prefix of too many words to list from its prefix lexeme, in Mis Tickets too', async () => {
    // `kx` starts 45 words (kx1 … kx45): it is asked as the prefix lexeme `^kx`, which has bitmaps once common.
    await insert(45, `'Kx' || g`, `'Cuarzo ' || case when g % 3 = 0 then 'rosa' else 'ahumado' end`);
    await insert(20, `'Kx' || g`, `'Cuarzo rosa'`, 70_000);
    // `7` starts 40 numbers (71 … 740); a lone number also finds its ticket, #7, which holds none of them.
    await insert(40, `'Bahía 7' || g`, `'Muelle'`);
    await db()
      .updateTable('tickets')
      .set({ name: 'Muelle', description: 'Bahía', user_assigned_id: agenteId })
      .where('id', '=', 7)
      .execute();
    await sql`select portal_ticket_word_bitmaps(30)`.execute(db());
    expect(await listedWords()).toEqual(expect.arrayContaining(['^kx', '^7']));
    const { kept, recounted } = await bitmaps();
    expect(kept).toEqual(recounted);
    const cases: [string, string, string[], { mine?: boolean; area?: number }, Record<string, number[]>?][] = [
      [admin, '/api/general-tickets', ['kx'], {}],
      [agente, '/api/tickets', ['kx'], { mine: true }],
      [agente, '/api/tickets', ['kx', 'rosa'], { mine: true }],
      [admin, '/api/general-tickets', ['kx'], { area: 2 }, { area_id: [2] }],
      [admin, '/api/general-tickets', ['7'], {}],
      [admin, '/api/general-tickets', ['7'], { area: 2 }, { area_id: [2] }],
      [agente, '/api/tickets', ['7'], { mine: true }],
    ];
    // Both orders: #7 is the last of its pages newest first, and the first oldest first (every
    // next page then starts one id of the bitmaps earlier).
    for (const [[token, url, words, options, filters], dir] of cases.flatMap((c) =>
      (['desc', 'asc'] as const).map((dir) => [c, dir] as const),
    )) {
      const numbered = words.join() === '7' && (await matching([], options, dir)).includes(7) ? [7] : [];
      const expected = [...(await matching(words, options, dir)), ...numbered].sort((a, b) =>
        dir === 'desc' ? b - a : a - b,
      );
      const label = `${words.join(' ')} ${JSON.stringify(filters ?? {})} ${dir}`;
      expect(expected.length, label).toBeGreaterThan(10);
      expect(await pagedIds([token, url, words, filters], dir, 10, expected.length), label).toEqual(expected);
    }
    // Counted from the prefix lexeme's bitmaps: without them, no ticket holds it.
    await sql`update ticket_attr_blocks set token = '^kx (aparte)' where token = '^kx'`.execute(db());
    expect(await total(agente, '/api/tickets', 'kx')).toBe(0);
    await sql`update ticket_attr_blocks set token = '^kx' where token = '^kx (aparte)'`.execute(db());
    // And `7` from those of `^7`, plus its own ticket.
    await sql`update ticket_attr_blocks set token = '^7 (aparte)' where token = '^7'`.execute(db());
    expect(await total(admin, '/api/general-tickets', '7')).toBe(1);
    await sql`update ticket_attr_blocks set token = '^7' where token = '^7 (aparte)'`.execute(db());
  });

  it('finds a lone number’s own ticket first in id order when its prefix’s tickets are more than the cap', async () => {
    // `8` starts more numbers than the cap's tickets hold (81 … 8 10001); ticket #8 holds none of them.
    await insert(TICKET_COUNT_CAP + 1, `'Dársena 8' || g`, `'Grúa'`);
    await db().updateTable('tickets').set({ name: 'Grúa', description: 'Dársena' }).where('id', '=', 8).execute();
    await sql`select portal_ticket_word_bitmaps(${TICKET_COUNT_CAP})`.execute(db());
    expect(await listedWords()).toContain('^8');
    const res = await t.call(admin, 'POST', '/api/general-tickets', {
      page: 1,
      per_page: 10,
      search: '8',
      sort: { by: 'id', dir: 'asc' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: { id: number }[]; meta: { total: number; total_is_lower_bound?: boolean } };
    expect(body.meta).toMatchObject({ total: TICKET_COUNT_CAP, total_is_lower_bound: true });
    // The bitmaps do not hold #8: its page is read where the ticket is found too, in its place.
    const expected = [8, ...(await matching(['8'], {}, 'asc'))].sort((a, b) => a - b).slice(0, 10);
    expect(body.data.map((r) => r.id)).toEqual(expected);
  });

  it('pages a sparse Mis Tickets in id order from the bitmaps, however many tickets of others are newer', async () => {
    const adminId = (
      await db().selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
    ).id;
    const { rows } = await sql<{ id: number }>`select id from tickets
      where created_by = ${adminId} or user_assigned_id = ${adminId} order by id desc`.execute(db());
    const expected = rows.map((r) => r.id);
    const { rows: last } = await sql<{ id: number }>`select max(id) as id from tickets`.execute(db());
    expect(expected.length * 50).toBeLessThan(last[0]!.id);
    const page = async (n: number) => {
      const res = await t.call(admin, 'POST', '/api/tickets', { page: n, per_page: 10 });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: { id: number }[]; meta: { total: number } };
    };
    for (const n of [1, 2]) {
      const body = await page(n);
      expect(body.meta.total).toBe(expected.length);
      expect(body.data.map((r) => r.id)).toEqual(expected.slice((n - 1) * 10, n * 10));
    }
    // The page comes from the bitmaps of admin's tokens (the counters give the total): without them, none.
    const tokens = [`_creator${adminId}`, `_assignee${adminId}`];
    await sql`update ticket_attr_blocks set token = token || ' (aparte)' where token in (${sql.join(tokens)})`.execute(
      db(),
    );
    const hidden = await page(1);
    await sql`update ticket_attr_blocks set token = left(token, -9) where token like '% (aparte)'`.execute(db());
    expect(hidden.meta.total).toBe(expected.length);
    expect(hidden.data).toEqual([]);
  });

  it('pages a dense Mis Tickets by a short walk in id order, and from the bitmaps once newer tickets of others outnumber it', async () => {
    const mine = async () => {
      const { rows } = await sql<{ id: number }>`select id from tickets
        where created_by = ${agenteId} or user_assigned_id = ${agenteId} order by id desc`.execute(db());
      return rows.map((r) => r.id);
    };
    const page = async (n: number) => {
      const res = await t.call(agente, 'POST', '/api/tickets', { page: n, per_page: 10 });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: { id: number }[]; meta: { total: number } };
    };
    /** Page 1 with agente's creator and assignee bitmaps renamed away. */
    const withoutBitmaps = async () => {
      const tokens = [`_creator${agenteId}`, `_assignee${agenteId}`];
      const hide = sql`update ticket_attr_blocks set token = token || ' (aparte)' where token in (${sql.join(tokens)})`;
      await hide.execute(db());
      const body = await page(1);
      await sql`update ticket_attr_blocks set token = left(token, -9) where token like '% (aparte)'`.execute(db());
      return body;
    };
    const { rows: last } = await sql<{ id: number }>`select max(id) as id from tickets`.execute(db());
    const before = await mine();
    // Agente holds more than one id in 25 here, its newest tickets on top: the page is walked, not read from the bitmaps.
    expect(before.length * 25).toBeGreaterThan(last[0]!.id);
    expect((await withoutBitmaps()).data.map((r) => r.id)).toEqual(before.slice(0, 10));

    const supervisorId = (
      await db().selectFrom('users').select('id').where('username', '=', 'supervisor').executeTakeFirstOrThrow()
    ).id;
    await sql`insert into tickets (id, name, description, area_id, project_id, category_id, priority_type_id,
        difficulty_id, status_id, created_by, user_assigned_id, created_at, updated_at)
      select (select max(id) from tickets) + g, 'Revisión de ruta', 'Ruta revisada por supervisión', 1, 1, 1, 1, 1, 1,
        ${supervisorId}::int, null, now(), now()
      from generate_series(1, 6000) g`.execute(db());
    await sql`select setval(pg_get_serial_sequence('tickets', 'id'), (select max(id) from tickets))`.execute(db());
    const expected = await mine();
    expect(expected).toEqual(before);
    for (const n of [1, 2, 3]) {
      const body = await page(n);
      expect(body.meta.total).toBe(expected.length);
      expect(body.data.map((r) => r.id)).toEqual(expected.slice((n - 1) * 10, n * 10));
    }
    // 6,000 newer tickets of others are more than the bounded walk reads: the page comes from the bitmaps.
    const hidden = await withoutBitmaps();
    expect(hidden.meta.total).toBe(expected.length);
    expect(hidden.data).toEqual([]);
  });

  it('is rebuilt by a bulk load as the triggers kept it, common words included, block by block of ids', async () => {
    // Nine blocks past the others, with empty blocks between: the rebuild goes block by block.
    await insert(300, `'Obsidiana lejana ' || g`, `'Andén ' || g % 7`, 9 * 65_536);
    // A rebuild lists the words more tickets than the cap hold (the tests above listed rarer ones too).
    const common = (await keptWordCounts(db())).filter((w) => w.n > TICKET_COUNT_CAP).map((w) => w.word);
    expect(common).toContain('obsidiana');
    const kept = (await attrBitmaps(db())).filter((r) => r.token.startsWith('_') || common.includes(r.token));
    await db()
      .transaction()
      .execute((trx) => withTicketDerivationsSuspended<DB>(trx, 'postgres', () => Promise.resolve()));
    expect(await listedWords()).toEqual(common);
    expect(await attrBitmaps(db())).toEqual(kept);
  });
});
