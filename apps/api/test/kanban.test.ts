import {
  KANBAN_MSG,
  KANBAN_PAGE_SIZE,
  TICKET_MSG,
  type TicketStage,
  type TKanbanBoard,
  type TKanbanColumnPage,
  type TTicketFiltersInput,
  type TTicketSort,
} from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTicketDerivationsSuspended } from '../src/db/ticket-derivations.ts';
import { createTestApp, dialects, type TestApp } from './helper.ts';
import { meetsFilters, readRecountRows, sortedIds, type RecountRow } from './ticket-recount.ts';

const BULK = 900;
const HOUR = 3_600_000;

/**
 * Kanban: each column's first page and count against the recount (test/ticket-recount.ts),
 * keyset paging without gaps or repeats while tickets move, WIP limits, moves and refusals.
 */
describe.each(dialects)('kanban on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let agente: string;
  let agenteId: number;
  let rows: RecountRow[];
  let nameRank: Map<number, number>;
  let statuses: { id: number; stage: TicketStage; name: string }[];
  const db = () => t.services.database.db;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, agente] = await Promise.all([t.login('admin'), t.login('agente')]);
    const ids = async (table: 'areas' | 'projects' | 'categories' | 'priority_types' | 'difficulties' | 'users') =>
      (await db().selectFrom(table).select('id').orderBy('id').execute()).map((r) => r.id);
    const [areas, projects, categories, priorities, difficulties, users] = await Promise.all([
      ids('areas'),
      ids('projects'),
      ids('categories'),
      ids('priority_types'),
      ids('difficulties'),
      ids('users'),
    ]);
    agenteId = (await db().selectFrom('users').select('id').where('username', '=', 'agente').executeTakeFirstOrThrow())
      .id;
    statuses = (await db()
      .selectFrom('ticket_statuses')
      .select(['id', 'stage', 'name'])
      .orderBy('id')
      .execute()) as typeof statuses;
    const now = Date.now();
    const of = <T>(items: T[], n: number) => items[n % items.length]!;
    await withTicketDerivationsSuspended(db(), dialect, async () => {
      const values = Array.from({ length: BULK }, (_, n) => {
        const status = of(statuses, n * 7 + (n >> 4));
        return {
          name: `Tablero ${of(['bomba', 'cámara', 'andén', 'ruta'], n * 3)} ${n % 53}`,
          description: 'Carga del tablero',
          area_id: of(areas, n),
          project_id: of(projects, n >> 2),
          category_id: of(categories, n * 5),
          priority_type_id: of(priorities, n >> 3),
          difficulty_id: of(difficulties, n * 11),
          status_id: status.id,
          stage: status.stage,
          created_by: of(users, n * 13),
          user_assigned_id: n % 9 === 0 ? null : of(users, n * 17 + 1),
          group_id: null,
          created_at: new Date(now - (BULK - n) * 2 * HOUR).toISOString(),
          // About half changed within the last 7 days: the closed columns show only those.
          updated_at: new Date(now - ((n * 7_919) % (14 * 24)) * HOUR - HOUR).toISOString(),
        };
      });
      for (let i = 0; i < values.length; i += 300)
        await db()
          .insertInto('tickets')
          .values(values.slice(i, i + 300))
          .execute();
    });
    ({ rows, nameRank } = await readRecountRows(db()));
  }, 120_000);
  afterAll(() => t?.close());

  const board = async (token: string, body: object = {}) => {
    const res = await t.call(token, 'POST', '/api/tickets/board', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as TKanbanBoard;
  };
  const column = async (token: string, body: object) => {
    const res = await t.call(token, 'POST', '/api/tickets/board/column', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as TKanbanColumnPage;
  };

  /** The recount of a column: the rows of its status meeting the filters, closed ones changed since `since`. */
  function expectedColumn(
    statusId: number,
    since: string,
    filters: TTicketFiltersInput,
    sort: TTicketSort,
    mineOf?: number,
  ) {
    const stage = statuses.find((s) => s.id === statusId)!.stage;
    const matching = rows.filter(
      (r) =>
        r.status_id === statusId &&
        meetsFilters(r, filters) &&
        (stage !== 'closed' || String(r.updated_at) >= since) &&
        (mineOf === undefined || r.created_by === mineOf || r.user_assigned_id === mineOf),
    );
    return sortedIds(matching, sort, nameRank);
  }

  it('shows a column per active status in stage order, each first page and count as the recount', async () => {
    const sort: TTicketSort = { by: 'id', dir: 'desc' };
    const data = await board(admin);
    const order = { open: 0, started: 1, closed: 2 };
    expect(data.columns.map((c) => c.status.id)).toEqual(
      [...statuses].sort((a, b) => order[a.stage] - order[b.stage] || a.id - b.id).map((s) => s.id),
    );
    expect(Date.parse(data.closed_since)).toBeGreaterThan(Date.now() - 7 * 24 * HOUR - 60_000);
    for (const col of data.columns) {
      const expected = expectedColumn(col.status.id, data.closed_since, {}, sort);
      expect(
        col.cards.map((c) => c.id),
        col.status.name,
      ).toEqual(expected.slice(0, KANBAN_PAGE_SIZE));
      expect(col.count, col.status.name).toBe(expected.length);
      expect(col.count_is_lower_bound).toBe(false);
      expect(col.next_cursor === null, col.status.name).toBe(expected.length <= KANBAN_PAGE_SIZE);
    }
    // A card holds what it shows and what places it, not the whole ticket (its page has the rest).
    const card = data.columns.flatMap((c) => c.cards)[0]!;
    const ticket = await t.call(admin, 'GET', `/api/tickets/${card.id}`);
    const { id, name, status_id, priority_type_id, user_assigned_id, updated_at, priorities, assigned_to, sla_state } =
      ticket.json().data as Record<string, unknown>;
    expect(card).toEqual({
      id,
      name,
      status_id,
      priority_type_id,
      user_assigned_id,
      updated_at,
      priorities,
      assigned_to,
      sla_state,
    });
    // The closed columns leave out what changed more than 7 days ago.
    const closed = statuses.find((s) => s.stage === 'closed')!;
    expect(rows.filter((r) => r.status_id === closed.id).length).toBeGreaterThan(
      data.columns.find((c) => c.status.id === closed.id)!.count,
    );
  });

  it('filters and sorts as the lists do, and Mis tickets keeps the caller’s own', async () => {
    const cases: { filters: TTicketFiltersInput; sort: TTicketSort; mine?: boolean }[] = [
      { filters: { priority_type_id: [1, 2], area_id: [1] }, sort: { by: 'priority', dir: 'asc' } },
      { filters: { user_assigned_id: [null] }, sort: { by: 'name', dir: 'asc' } },
      { filters: {}, sort: { by: 'updated', dir: 'desc' }, mine: true },
    ];
    for (const { filters, sort, mine } of cases) {
      const data = await board(admin, { filters, sort, mine: mine ?? false });
      const adminId = (
        await db().selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
      ).id;
      for (const col of data.columns) {
        const expected = expectedColumn(col.status.id, data.closed_since, filters, sort, mine ? adminId : undefined);
        expect(
          col.cards.map((c) => c.id),
          JSON.stringify({ filters, sort, s: col.status.name }),
        ).toEqual(expected.slice(0, KANBAN_PAGE_SIZE));
        expect(col.count).toBe(expected.length);
      }
    }
    // Without Tickets Generales, an agent's board holds only their own tickets.
    const data = await board(agente);
    for (const col of data.columns) {
      expect(col.count).toBe(
        expectedColumn(col.status.id, data.closed_since, {}, { by: 'id', dir: 'desc' }, agenteId).length,
      );
    }
    // A status filter empties the other columns.
    const only = statuses[0]!.id;
    const filtered = await board(admin, { filters: { status_id: [only] } });
    for (const col of filtered.columns) if (col.status.id !== only) expect(col.count).toBe(0);
  });

  it('walks a column by keyset to its end, in the sort order, both ways', async () => {
    for (const sort of [
      { by: 'id', dir: 'desc' },
      { by: 'priority', dir: 'asc' },
      { by: 'name', dir: 'desc' },
    ] as TTicketSort[]) {
      const data = await board(admin, { sort });
      const col = data.columns.find((c) => c.count > 2 * KANBAN_PAGE_SIZE)!;
      const seen = col.cards.map((c) => c.id);
      let cursor = col.next_cursor;
      while (cursor) {
        const next = await column(admin, { sort, status_id: col.status.id, cursor });
        seen.push(...next.cards.map((c) => c.id));
        cursor = next.next_cursor;
      }
      expect(seen).toEqual(expectedColumn(col.status.id, data.closed_since, {}, sort));
    }
  });

  it('pages without gaps or repeats while tickets move in and out of the column', async () => {
    const data = await board(admin);
    const col = data.columns.find((c) => c.status.stage !== 'closed' && c.count > 3 * KANBAN_PAGE_SIZE)!;
    const other = data.columns.find((c) => c.status.id !== col.status.id && c.status.stage !== 'closed')!;
    const before = expectedColumn(col.status.id, data.closed_since, {}, { by: 'id', dir: 'desc' });
    const seen = col.cards.map((c) => c.id);
    // Between pages: a card already shown leaves, one not yet shown leaves, and one comes in.
    const leftShown = seen[3]!;
    const leftAhead = before[KANBAN_PAGE_SIZE + 5]!;
    const cameIn = expectedColumn(other.status.id, data.closed_since, {}, { by: 'id', dir: 'desc' })[0]!;
    for (const [id, to] of [
      [leftShown, other.status.id],
      [leftAhead, other.status.id],
      [cameIn, col.status.id],
    ] as const) {
      const res = await t.call(admin, 'PATCH', `/api/tickets/${id}/status`, { status_id: to });
      expect(res.statusCode, res.body).toBe(200);
    }
    let cursor = col.next_cursor;
    while (cursor) {
      const next = await column(admin, { status_id: col.status.id, cursor });
      seen.push(...next.cards.map((c) => c.id));
      cursor = next.next_cursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    // Every ticket that stayed in the column all along was shown once.
    const stayed = before.filter((id) => id !== leftShown && id !== leftAhead);
    expect(seen.filter((id) => stayed.includes(id))).toEqual(stayed);
    expect(seen).not.toContain(leftAhead);
    // Put them back for the other tests.
    for (const [id, to] of [
      [leftShown, col.status.id],
      [leftAhead, col.status.id],
      [cameIn, other.status.id],
    ] as const) {
      expect((await t.call(admin, 'PATCH', `/api/tickets/${id}/status`, { status_id: to })).statusCode).toBe(200);
    }
  });

  it('a move is a status change: the ticket, its column and its timeline show it', async () => {
    const [from, to] = [statuses.find((s) => s.stage === 'open')!, statuses.find((s) => s.stage === 'started')!];
    const id = rows.find((r) => r.status_id === from.id)!.id;
    const res = await t.call(admin, 'PATCH', `/api/tickets/${id}/status`, { status_id: to.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: KANBAN_MSG.moved, data: { id, status_id: to.id } });
    const detail = (await t.call(admin, 'GET', `/api/tickets/${id}`)).json().data;
    expect(detail.events).toContainEqual(
      expect.objectContaining({ kind: 'status_changed', from_value: from.name, to_value: to.name }),
    );
    // Searched by its number, the ticket is the one card of its new column.
    const data = await board(admin, { search: `#${id}` });
    for (const col of data.columns) expect(col.cards.map((c) => c.id)).toEqual(col.status.id === to.id ? [id] : []);
    await t.call(admin, 'PATCH', `/api/tickets/${id}/status`, { status_id: from.id });
  });

  it('shows each status’s WIP limit, set in the statuses catalogue (1 to 10.000 or empty)', async () => {
    const status = statuses[0]!;
    const put = (wip_limit: unknown) =>
      t.call(admin, 'PUT', `/api/ticket-statuses/update/${status.id}`, { name: status.name, wip_limit });
    for (const bad of [0, 10_001, '12a', -3, 2.5]) {
      const res = await put(bad);
      expect(res.statusCode, String(bad)).toBe(422);
      expect(res.json().errors.wip_limit[0]).toContain('límite WIP');
    }
    const five = await put('5');
    expect(five.statusCode, five.body).toBe(200);
    let col = (await board(admin)).columns.find((c) => c.status.id === status.id)!;
    expect(col.status.wip_limit).toBe(5);
    expect(col.count).toBeGreaterThan(5);
    // Leaving the other fields out keeps the limit.
    expect(
      (await t.call(admin, 'PUT', `/api/ticket-statuses/update/${status.id}`, { name: status.name })).statusCode,
    ).toBe(200);
    col = (await board(admin)).columns.find((c) => c.status.id === status.id)!;
    expect(col.status.wip_limit).toBe(5);
    expect((await put('')).statusCode).toBe(200);
    col = (await board(admin)).columns.find((c) => c.status.id === status.id)!;
    expect(col.status.wip_limit).toBeNull();
  });

  it('refuses without the screen, without u on the ticket, a bad cursor and an inactive status', async () => {
    expect((await t.call(null, 'POST', '/api/tickets/board', {})).statusCode).toBe(401);
    const section = await db()
      .selectFrom('sections')
      .select('id')
      .where('name', '=', 'kb_main')
      .executeTakeFirstOrThrow();
    const revoke = (r: number) =>
      db()
        .updateTable('sections_permission')
        .set({ r })
        .where('section_id', '=', section.id)
        .where('role_id', '=', 3)
        .execute();
    await revoke(0);
    try {
      expect((await t.call(agente, 'POST', '/api/tickets/board', {})).statusCode).toBe(403);
      expect(
        (await t.call(agente, 'POST', '/api/tickets/board/column', { status_id: 1, cursor: 'x' })).statusCode,
      ).toBe(403);
    } finally {
      await revoke(1);
    }
    // An agent may move only their own tickets (u on Mis Tickets); nothing is written.
    const foreign = rows.find((r) => r.created_by !== agenteId && r.user_assigned_id !== agenteId)!;
    const target = statuses.find((s) => s.id !== foreign.status_id)!;
    const refused = await t.call(agente, 'PATCH', `/api/tickets/${foreign.id}/status`, { status_id: target.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(TICKET_MSG.notYours);
    const after = await db()
      .selectFrom('tickets')
      .select('status_id')
      .where('id', '=', foreign.id)
      .executeTakeFirstOrThrow();
    expect(after.status_id).toBe(foreign.status_id);
    for (const cursor of ['no-es-un-cursor', Buffer.from('[1]').toString('base64url')]) {
      const res = await t.call(admin, 'POST', '/api/tickets/board/column', { status_id: statuses[0]!.id, cursor });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(KANBAN_MSG.badCursor);
    }
    const unknown = await t.call(admin, 'POST', '/api/tickets/board/column', {
      status_id: 9_999,
      cursor: Buffer.from('[1,1]').toString('base64url'),
    });
    expect(unknown.statusCode).toBe(422);
    expect((await t.call(admin, 'POST', '/api/tickets/board', { filters: { nada: [1] } })).statusCode).toBe(422);
    // Moving to a deactivated status is refused like the edit form refuses it.
    const status = (
      await t.call(admin, 'POST', '/api/ticket-statuses/create', { name: 'Temporal', stage: 'started', status_id: 2 })
    ).json().data;
    const mine = rows.find((r) => r.status_id !== status.id)!;
    const res = await t.call(admin, 'PATCH', `/api/tickets/${mine.id}/status`, { status_id: status.id });
    expect(res.statusCode).toBe(422);
    expect((await board(admin)).columns.map((c) => c.status.id)).not.toContain(status.id);
  });
});
