import type { TTicketFiltersInput, TicketSortColumn } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';
import { meetsFilters, readRecountRows, sortedIds, type RecountRow } from './ticket-recount.ts';

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

describe.each(dialects)('ticket list filters and sorts on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let agente: string;
  let agenteId: number;
  let rows: RecountRow[];
  let nameRank: Map<number, number>;

  const db = () => t.services.database.db;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, agente] = await Promise.all([t.login('admin'), t.login('agente')]);
    agenteId = (await db().selectFrom('users').select('id').where('username', '=', 'agente').executeTakeFirstOrThrow())
      .id;
    ({ rows, nameRank } = await readRecountRows(db()));
  });
  afterAll(() => t?.close());

  /** The recount: which rows a list with these filters shows, in the sort order. */
  function recount(
    list: 'mine' | 'general' | 'current' | 'old',
    filters: TTicketFiltersInput,
    sort: { by: TicketSortColumn; dir: 'asc' | 'desc' },
    search = '',
  ): number[] {
    const words = fold(search)
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
    const matched = rows.filter(
      (r) =>
        (list !== 'mine' || r.created_by === agenteId || r.user_assigned_id === agenteId) &&
        (list !== 'current' || r.stage !== 'closed') &&
        (list !== 'old' || r.stage === 'closed') &&
        meetsFilters(r, filters) &&
        words.every((w) =>
          fold(`${r.name} ${r.description}`)
            .split(/[^\p{L}\p{N}]+/u)
            .some((x) => x.startsWith(w)),
        ),
    );
    return sortedIds(matched, sort, nameRank);
  }

  const paths = {
    mine: '/api/tickets',
    general: '/api/general-tickets',
    current: '/api/tickets/current',
    old: '/api/tickets/old',
  };

  /** Every page of the list, through the API. */
  async function listAll(
    token: string,
    list: keyof typeof paths,
    body: Record<string, unknown>,
  ): Promise<{ ids: number[]; total: number }> {
    const ids: number[] = [];
    let total = 0;
    for (let page = 1; page < 50; page++) {
      const res = await t.call(token, 'POST', paths[list], { ...body, page, per_page: 7 });
      expect(res.statusCode, res.body).toBe(200);
      const json = res.json();
      total = json.meta.total;
      ids.push(...json.data.map((x: { id: number }) => x.id));
      if (page >= json.meta.last_page) break;
    }
    return { ids, total };
  }

  const sample = () => {
    const sorted = [...rows].sort((a, b) => a.id - b.id);
    const at = (i: number) => sorted[Math.floor(sorted.length * i)]!;
    return {
      priority: at(0.3).priority_type_id,
      project: at(0.5).project_id,
      area: at(0.2).area_id,
      category: at(0.7).category_id,
      difficulty: at(0.4).difficulty_id,
      status: at(0.9).status_id,
      creator: at(0.1).created_by,
      assignee: rows.find((r) => r.user_assigned_id !== null)!.user_assigned_id!,
      from: at(0.25).created_at.slice(0, 10),
      to: at(0.6).created_at.slice(0, 10),
    };
  };

  it('filters by each field, alone, against a recount (totals exact)', async () => {
    const s = sample();
    const cases: TTicketFiltersInput[] = [
      { stage: ['started'] },
      { status_id: [s.status] },
      { priority_type_id: [s.priority, 1] },
      { project_id: [s.project] },
      { area_id: [s.area] },
      { category_id: [s.category] },
      { difficulty_id: [s.difficulty] },
      { user_assigned_id: null },
      { user_assigned_id: [null, s.assignee] },
      { user_assigned_id: [s.assignee] },
      { created_by: [s.creator] },
      { created_from: s.from },
      { created_to: s.to },
      { created_from: s.from, created_to: s.to },
    ];
    let nonEmpty = 0;
    for (const filters of cases) {
      const expected = recount('general', filters, { by: 'id', dir: 'desc' });
      if (expected.length > 0 && expected.length < rows.length) nonEmpty += 1;
      const got = await listAll(admin, 'general', { filters });
      expect(got.ids, JSON.stringify(filters)).toEqual(expected);
      expect(got.total, JSON.stringify(filters)).toBe(expected.length);
    }
    // The cases really narrow the list (none is trivially empty or everything).
    expect(nonEmpty).toBeGreaterThanOrEqual(cases.length - 1);
  });

  it('combines filters with each other, with search and with every list (scope and stage)', async () => {
    const s = sample();
    const combos: [keyof typeof paths, string, TTicketFiltersInput][] = [
      ['general', '', { priority_type_id: [s.priority], user_assigned_id: null }],
      ['general', 'andén', { stage: ['open', 'started'] }],
      ['general', 'montacargas', { project_id: [s.project, 1, 2] }],
      ['general', '', { area_id: [s.area], created_from: s.from, stage: ['closed'] }],
      ['mine', '', { stage: ['closed'] }],
      ['mine', 'falla', { priority_type_id: [1, 2, 3] }],
      ['mine', '', { user_assigned_id: [agenteId], created_to: s.to }],
      ['current', '', { stage: ['closed'] }],
      ['current', '', { priority_type_id: [s.priority] }],
      ['old', 'en', { created_by: [s.creator] }],
    ];
    for (const [list, search, filters] of combos) {
      const token = list === 'mine' ? agente : admin;
      const expected = recount(list, filters, { by: 'id', dir: 'desc' }, search);
      const got = await listAll(token, list, { search, filters });
      expect(got.ids, `${list} ${search} ${JSON.stringify(filters)}`).toEqual(expected);
      expect(got.total).toBe(expected.length);
    }
  });

  it('sorts by every column in both directions, with and without filters and search, against a recount', async () => {
    const s = sample();
    const columns: TicketSortColumn[] = ['id', 'name', 'priority', 'status', 'project', 'created', 'updated'];
    for (const by of columns) {
      for (const dir of ['asc', 'desc'] as const) {
        for (const [list, search, filters] of [
          ['general', '', {}],
          ['general', 'en', { stage: ['open', 'started'] }],
          ['mine', '', { priority_type_id: [s.priority, 4] }],
          ['old', '', {}],
        ] as [keyof typeof paths, string, TTicketFiltersInput][]) {
          const token = list === 'mine' ? agente : admin;
          const expected = recount(list, filters, { by, dir }, search);
          const got = await listAll(token, list, { search, filters, sort: { by, dir } });
          expect(got.ids, `${list} ${by} ${dir} ${search} ${JSON.stringify(filters)}`).toEqual(expected);
          expect(got.total).toBe(expected.length);
        }
      }
    }
  });

  it('refuses an unknown sort column, an unknown filter and bad dates with a Spanish 422', async () => {
    const badSort = await t.call(admin, 'POST', '/api/general-tickets', { sort: { by: 'color', dir: 'asc' } });
    expect(badSort.statusCode).toBe(422);
    expect(JSON.stringify(badSort.json().errors)).toMatch(/Columna de orden no válida/);
    const badFilter = await t.call(admin, 'POST', '/api/general-tickets', { filters: { color_id: [1] } });
    expect(badFilter.statusCode).toBe(422);
    expect(JSON.stringify(badFilter.json().errors)).toMatch(/Filtro desconocido/);
    const badDate = await t.call(admin, 'POST', '/api/tickets', { filters: { created_from: '2024-02-30' } });
    expect(badDate.statusCode).toBe(422);
    const reversed = await t.call(admin, 'POST', '/api/tickets', {
      filters: { created_from: '2025-02-01', created_to: '2025-01-01' },
    });
    expect(reversed.statusCode).toBe(422);
    expect(JSON.stringify(reversed.json().errors)).toMatch(/fecha inicial/);
    const badIds = await t.call(admin, 'POST', '/api/tickets', { filters: { project_id: ['x'] } });
    expect(badIds.statusCode).toBe(422);
  });

  it('keeps the list scope: filters never widen Mis Tickets, and a range with no ticket is empty', async () => {
    const others = rows.filter((r) => r.created_by !== agenteId && r.user_assigned_id !== agenteId);
    const creator = others[0]!.created_by;
    const got = await listAll(agente, 'mine', { filters: { created_by: [creator] } });
    for (const id of got.ids) {
      const r = rows.find((x) => x.id === id)!;
      expect(r.created_by === agenteId || r.user_assigned_id === agenteId).toBe(true);
    }
    const future = await t.call(admin, 'POST', '/api/general-tickets', { filters: { created_from: '2999-01-01' } });
    expect(future.json().data).toEqual([]);
    expect(future.json().meta.total).toBe(0);
  });
});

/** Filtered lists read the text index (SQLite: FTS5 `attrs`), which writers bring up to date a moment later. */
describe.each(dialects)('a filtered list right after a write on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t?.close());

  it('shows a ticket just created and just assigned, before the index would catch up by itself', async () => {
    const [admin, agente] = await Promise.all([t.login('admin'), t.login('agente')]);
    const agenteId = (
      await t.services.database.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'agente')
        .executeTakeFirstOrThrow()
    ).id;
    const created = await t.call(admin, 'POST', '/api/tickets/create', {
      name: 'Rampa recién asignada',
      description: 'Aparece en la lista filtrada al momento',
      area_id: 1,
      project_id: 1,
      category_id: 1,
      priority_type_id: 4,
      difficulty_id: 1,
      status_id: 1,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { data: { id: number } }).data.id;
    const assigned = await t.call(admin, 'PATCH', `/api/tickets/${id}/assign/${agenteId}`, {});
    expect(assigned.statusCode, assigned.body).toBeLessThan(300);

    const mine = await t.call(agente, 'POST', '/api/tickets', { filters: { priority_type_id: [4] } });
    expect((mine.json() as { data: { id: number }[] }).data.map((r) => r.id)).toContain(id);
    const general = await t.call(admin, 'POST', '/api/general-tickets', {
      filters: { user_assigned_id: [agenteId], priority_type_id: [4] },
    });
    expect((general.json() as { data: { id: number }[] }).data.map((r) => r.id)).toContain(id);
  });
});
