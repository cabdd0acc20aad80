import { TICKET_COUNT_CAP, type TTicket } from '@portal/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  COUNT_KIND,
  INDEX_SYNC_DELAY_MS,
  pgSearchDocOf,
  withTicketDerivationsSuspended,
} from '../src/db/ticket-derivations.ts';
import { foldText } from '../src/modules/tickets/ticket-search.ts';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

/** Deterministic, so a failure replays. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const words = (text: string) =>
  foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** What a search must find, computed from the rows without any index (ticket-search.ts's rules). */
function expectedMatches(tickets: { id: number; name: string; description: string }[], search: string): number[] {
  const exact = /^#\s*(\d+)$/.exec(search.trim());
  if (exact) return tickets.filter((t) => t.id === Number(exact[1])).map((t) => t.id);
  const query = words(search);
  const id = query.length === 1 && /^\d+$/.test(query[0]!) ? Number(query[0]) : null;
  return tickets
    .filter((t) => {
      const doc = words(`${t.name} ${t.description}`);
      return (query.length > 0 && query.every((q) => doc.some((w) => w.startsWith(q)))) || t.id === id;
    })
    .map((t) => t.id)
    .sort((a, b) => b - a);
}

describe.each(dialects)('tickets at scale on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let agente: string;
  let agenteId: number;
  const db = () => t.services.database.db;

  /** Every id of a list, page by page. */
  async function allIds(token: string, url: string, search: string): Promise<number[]> {
    const ids: number[] = [];
    for (let page = 1; page < 50; page++) {
      const res = await t.call(token, 'POST', url, { page, per_page: 50, search });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { data: TTicket[]; meta: { last_page: number; total: number } };
      ids.push(...body.data.map((x) => x.id));
      if (page >= body.meta.last_page) {
        expect(body.meta.total).toBe(ids.length);
        break;
      }
    }
    return ids;
  }

  const create = async (token: string, name: string, description: string, status_id = 1) => {
    const res = await t.call(token, 'POST', '/api/tickets/create', { ...ticketBody(name, description), status_id });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as TTicket;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.login('admin');
    agente = await t.login('agente');
    agenteId = (await db().selectFrom('users').select('id').where('username', '=', 'agente').executeTakeFirstOrThrow())
      .id;
    await create(admin, 'Refrigeración del andén norte', 'Cámara fría con alarma en Monterrey');
    await create(admin, 'Montacargas eléctrico', 'Revisar batería del MONTACARGAS 3 en Toluca');
    await create(agente, 'Pedido 4521 sin surtir', 'Folio 987654 pendiente en la ruta Bajío');
  });
  afterAll(() => t?.close());

  describe('search', () => {
    const searches = [
      'refrigeracion',
      'REFRIGERACIÓN',
      'montac',
      'Montacargas toluca',
      'monterrey camara',
      'ruta',
      'ruta bajio',
      'andén',
      '9876',
      '4521',
      'folio 987654',
      'zafiro',
      'montacargas zafiro',
      '%_%',
      '',
    ];

    it('is case- and accent-insensitive, matches word prefixes, narrows with each word (Tickets Generales)', async () => {
      const tickets = await db().selectFrom('tickets').select(['id', 'name', 'description']).execute();
      for (const search of searches) {
        const expected =
          search === '' ? tickets.map((x) => x.id).sort((a, b) => b - a) : expectedMatches(tickets, search);
        expect(await allIds(admin, '/api/general-tickets', search), search).toEqual(expected);
      }
      expect(expectedMatches(tickets, 'refrigeracion').length).toBeGreaterThan(0);
      expect(expectedMatches(tickets, 'montac').length).toBeGreaterThan(0);
    });

    it('reads a word that starts more words than a search lists as a prefix, and finds what the rows hold', async () => {
      // 120 words start with `7` and 90 with `70`: more than a search lists, so each is read as a prefix.
      for (let i = 0; i < 40; i++) await create(admin, `Caseta ${700 + i}`, `Tramo ${7000 + i} km ${70_000 + i * 3}`);
      const tickets = await db().selectFrom('tickets').select(['id', 'name', 'description']).execute();
      for (const search of ['7', '70', 'caseta 7', 'tramo 70', 'km 7003', 'caseta 70 tramo 7']) {
        const expected = expectedMatches(tickets, search);
        expect(expected.length, search).toBeGreaterThan(0);
        expect(await allIds(admin, '/api/general-tickets', search), search).toEqual(expected);
      }
    });

    it('finds a ticket by its number, with or without #', async () => {
      const tickets = await db().selectFrom('tickets').select(['id', 'name', 'description']).execute();
      const target = tickets[Math.floor(tickets.length / 2)]!;
      expect(await allIds(admin, '/api/general-tickets', `#${target.id}`)).toEqual([target.id]);
      const plain = await allIds(admin, '/api/general-tickets', String(target.id));
      expect(plain).toContain(target.id);
      expect(plain).toEqual(expectedMatches(tickets, String(target.id)));
      expect(await allIds(admin, '/api/general-tickets', '#999999')).toEqual([]);
    });

    it('searches inside Mis Tickets and the history tabs with the same index and scope', async () => {
      const mine = await db()
        .selectFrom('tickets')
        .select(['id', 'name', 'description', 'stage'])
        .where((eb) => eb.or([eb('created_by', '=', agenteId), eb('user_assigned_id', '=', agenteId)]))
        .execute();
      const closed = await db()
        .selectFrom('tickets')
        .select(['id', 'name', 'description'])
        .where('stage', '=', 'closed')
        .execute();
      const current = await db()
        .selectFrom('tickets')
        .select(['id', 'name', 'description'])
        .where('stage', '<>', 'closed')
        .execute();
      for (const search of ['ruta', 'pedido', 'folio 987654', 'montacargas', 'zafiro']) {
        expect(await allIds(agente, '/api/tickets', search), search).toEqual(expectedMatches(mine, search));
        expect(await allIds(admin, '/api/tickets/old', search), search).toEqual(expectedMatches(closed, search));
        expect(await allIds(admin, '/api/tickets/current', search), search).toEqual(expectedMatches(current, search));
        // The agente does not see Tickets Generales: history shows only their own tickets.
        const mineCurrent = mine.filter((x) => x.stage !== 'closed');
        expect(await allIds(agente, '/api/tickets/current', search), search).toEqual(
          expectedMatches(mineCurrent, search),
        );
      }
    });

    it('follows edits at once: the new name is found, the old one no longer', async () => {
      const ticket = await create(admin, 'Báscula descalibrada', 'Marca quince kilos de más');
      expect(await allIds(admin, '/api/general-tickets', 'bascula descal')).toContain(ticket.id);
      const res = await t.call(admin, 'PUT', `/api/tickets/update/${ticket.id}`, {
        name: 'Tarima rota',
        description: 'Reemplazar la tarima del pasillo 4',
        area_id: 1,
        project_id: 1,
        category_id: 1,
        priority_type_id: 1,
        difficulty_id: 1,
        status_id: 1,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await allIds(admin, '/api/general-tickets', 'bascula descal')).not.toContain(ticket.id);
      expect(await allIds(admin, '/api/general-tickets', 'tarima pasillo')).toContain(ticket.id);
      // A write that bypasses the API is found too: the database itself keeps the index in step.
      await db().updateTable('tickets').set({ name: 'Rampa hidráulica' }).where('id', '=', ticket.id).execute();
      expect(await allIds(admin, '/api/general-tickets', 'rampa hidraulica')).toContain(ticket.id);
      await db().deleteFrom('tickets').where('id', '=', ticket.id).execute();
      expect(await allIds(admin, '/api/general-tickets', 'rampa hidraulica')).not.toContain(ticket.id);
    });

    it('brings the text index up to new tickets by itself shortly after they are written (SQLite)', async () => {
      if (dialect !== 'sqlite') return;
      const ticket = await create(admin, 'Compresor ruidoso', 'Vibra el compresor del cuarto frío');
      const pending = async () =>
        (await sql<{ id: number }>`select id from tickets_fts_pending`.execute(db())).rows.map((r) => r.id);
      expect(await pending()).toContain(ticket.id);
      await vi.waitFor(async () => expect(await pending()).toEqual([]), {
        timeout: 10_000,
        interval: INDEX_SYNC_DELAY_MS,
      });
      const found = await sql<{
        rowid: number;
      }>`select rowid from tickets_fts where tickets_fts match 'compresor'`.execute(db());
      expect(found.rows.map((r) => r.rowid)).toContain(ticket.id);
      const word = await sql`select word from ticket_words where word = 'ruidoso'`.execute(db());
      expect(word.rows).toHaveLength(1);
    });

    it('answers a creation with the ticket as its page shows it', async () => {
      const created = await create(agente, 'Puerta de andén atorada', 'No abre la cortina 7');
      const page = await t.call(agente, 'GET', `/api/tickets/${created.id}`);
      expect(page.statusCode, page.body).toBe(200);
      // The page adds the SLA as it stands now (its business time left), the references found in the
      // text and a possible duplicate to the ticket as written.
      const { events, can, sla, references, possible_duplicate, ...shown } = page.json().data as TTicket & {
        events: { kind: string }[];
        can: unknown;
        sla: unknown;
        references: unknown[];
        possible_duplicate: unknown;
      };
      expect(created).toEqual(shown);
      expect(references).toEqual([]);
      expect(possible_duplicate).toBeNull();
      expect(sla).toBeDefined();
      expect(events.map((e) => e.kind).sort()).toEqual(['created', 'sla_assigned']);
      expect(can).toBeDefined();
    });

    it(`counts matches up to ${TICKET_COUNT_CAP.toLocaleString('en')} and then says the total is a lower bound`, async () => {
      const before = (
        await db()
          .selectFrom('tickets')
          .select(sql<number>`max(id)`.as('max'))
          .executeTakeFirstOrThrow()
      ).max;
      const count = TICKET_COUNT_CAP + 5;
      // In bulk, as the benchmark loads tickets: the counters and the index are rebuilt once.
      await withTicketDerivationsSuspended(db(), dialect, async () => {
        if (dialect === 'postgres') {
          await sql`insert into tickets (name, description, area_id, project_id, category_id, priority_type_id,
              difficulty_id, status_id, stage, created_by, user_assigned_id, created_at, updated_at, search_doc)
            select 'Lote masivo ' || g, 'Carga de prueba', 1, 1, 1, 1, 1, 1, 'open', 1, null, now(), now(),
              ${sql.raw(pgSearchDocOf(`'lote masivo ' || g || ' carga de prueba'`, 't'))}
            from generate_series(1, ${count}) g,
              lateral (select 1 as created_by, null::int as user_assigned_id, 'open' as stage, 1 as status_id,
                1 as priority_type_id, 1 as project_id, 1 as area_id, 1 as category_id, 1 as difficulty_id,
                null::int as group_id) t`.execute(db());
          await sql`insert into ticket_words (word) values ('lote'), ('masivo'), ('carga'), ('de'), ('prueba')
            on conflict do nothing`.execute(db());
        } else {
          await sql`with recursive g(n) as (select 1 union all select n + 1 from g where n < ${count})
            insert into tickets (name, description, area_id, project_id, category_id, priority_type_id,
              difficulty_id, status_id, stage, created_by, user_assigned_id, created_at, updated_at)
            select 'Lote masivo ' || n, 'Carga de prueba', 1, 1, 1, 1, 1, 1, 'open', 1, null,
              strftime('%Y-%m-%dT%H:%M:%fZ'), strftime('%Y-%m-%dT%H:%M:%fZ') from g`.execute(db());
          await sql`insert or ignore into ticket_words (word) values ('lote'), ('masivo'), ('carga'), ('de'), ('prueba')`.execute(
            db(),
          );
        }
      });
      const res = await t.call(admin, 'POST', '/api/general-tickets', { page: 1, per_page: 10, search: 'masivo' });
      const body = res.json();
      expect(body.meta).toMatchObject({ total: TICKET_COUNT_CAP, total_is_lower_bound: true, last_page: 1000 });
      const newest = (
        await db()
          .selectFrom('tickets')
          .select(sql<number>`max(id)`.as('max'))
          .executeTakeFirstOrThrow()
      ).max;
      expect(newest).toBeGreaterThanOrEqual(before + count);
      expect(body.data[0].id).toBe(newest);
      // In another order the page walks that column's index; the total stays a lower bound.
      const byPriority = (
        await t.call(admin, 'POST', '/api/general-tickets', {
          page: 1,
          per_page: 10,
          search: 'masivo',
          sort: { by: 'priority', dir: 'asc' },
        })
      ).json();
      expect(byPriority.meta).toMatchObject({ total: TICKET_COUNT_CAP, total_is_lower_bound: true });
      const oldest = await db()
        .selectFrom('tickets')
        .select(sql<number>`min(id)`.as('min'))
        .where('name', 'like', 'Lote masivo %')
        .executeTakeFirstOrThrow();
      expect(byPriority.data[0].id).toBe(oldest.min);
      const rare = await t.call(admin, 'POST', '/api/general-tickets', { page: 1, per_page: 10, search: 'bascula' });
      expect(rare.json().meta.total_is_lower_bound).toBeUndefined();
      // A status filter alone is counted by the counters, exactly, however many; with another filter, up to the cap.
      const inStatus = async (where: { created_by?: number; area_id?: number }) =>
        Number(
          (
            await db()
              .selectFrom('tickets')
              .select((eb) => eb.fn.countAll<number | string>().as('n'))
              .where('status_id', '=', 1)
              .$if(where.created_by !== undefined, (q) => q.where('created_by', '=', where.created_by!))
              .$if(where.area_id !== undefined, (q) => q.where('area_id', '=', where.area_id!))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const byStatus = async (filters: Record<string, number[]>) =>
        (await t.call(admin, 'POST', '/api/general-tickets', { page: 1, per_page: 10, filters })).json().meta;
      expect(await inStatus({})).toBeGreaterThan(TICKET_COUNT_CAP);
      const statusOnly = await byStatus({ status_id: [1] });
      expect(statusOnly.total).toBe(await inStatus({}));
      expect(statusOnly.total_is_lower_bound).toBeUndefined();
      expect(await byStatus({ status_id: [1], created_by: [1] })).toEqual(
        expect.objectContaining({ total: await inStatus({ created_by: 1 }) }),
      );
      expect(await byStatus({ status_id: [1], area_id: [1] })).toMatchObject({
        total: TICKET_COUNT_CAP,
        total_is_lower_bound: true,
      });
      const board = (await t.call(admin, 'POST', '/api/tickets/board', {})).json().data as {
        columns: { status: { id: number }; count: number; count_is_lower_bound: boolean }[];
      };
      expect(board.columns.find((c) => c.status.id === 1)).toMatchObject({
        count: await inStatus({}),
        count_is_lower_bound: false,
      });
      await withTicketDerivationsSuspended(db(), dialect, async () => {
        await sql`delete from tickets where name like 'Lote masivo %'`.execute(db());
      });
    });
  });

  describe('search past the newest tickets (PostgreSQL then reads its text index)', () => {
    const lists = {
      general: '/api/general-tickets',
      mine: '/api/tickets',
      current: '/api/tickets/current',
      old: '/api/tickets/old',
    } as const;
    type Filters = {
      priority_type_id?: number[];
      user_assigned_id?: (number | null)[];
      stage?: string[];
      created_by?: number[];
    };
    interface Row {
      id: number;
      name: string;
      description: string;
      stage: string;
      priority_type_id: number;
      created_by: number;
      user_assigned_id: number | null;
    }

    /** Every id and the total of a list with a search and filters, page by page. */
    async function listed(
      list: keyof typeof lists,
      search: string,
      filters: Filters,
      perPage: number,
      sort?: { by: 'priority'; dir: 'asc' },
    ) {
      const ids: number[] = [];
      for (let page = 1; page <= 100; page++) {
        const token = list === 'mine' ? agente : admin;
        const res = await t.call(token, 'POST', lists[list], { page, per_page: perPage, search, filters, sort });
        expect(res.statusCode, `${list} "${search}" ${JSON.stringify(filters)}: ${res.body}`).toBe(200);
        const body = res.json() as { data: TTicket[]; meta: { last_page: number; total: number } };
        ids.push(...body.data.map((x) => x.id));
        if (page >= body.meta.last_page) return { ids, total: body.meta.total };
      }
      throw new Error('more than 100 pages');
    }

    /** What the list shows, from the rows. */
    function recount(rows: Row[], list: keyof typeof lists, search: string, filters: Filters) {
      const inList = rows.filter(
        (r) =>
          (list !== 'mine' || r.created_by === agenteId || r.user_assigned_id === agenteId) &&
          (list !== 'current' || r.stage !== 'closed') &&
          (list !== 'old' || r.stage === 'closed') &&
          (!filters.priority_type_id || filters.priority_type_id.includes(r.priority_type_id)) &&
          (!filters.user_assigned_id || filters.user_assigned_id.includes(r.user_assigned_id)) &&
          (!filters.stage || filters.stage.includes(r.stage)) &&
          (!filters.created_by || filters.created_by.includes(r.created_by)),
      );
      return expectedMatches(inList, search);
    }

    async function expectRecount(searches: string[], filterSets: Filters[]) {
      const rows = (await db()
        .selectFrom('tickets')
        .select(['id', 'name', 'description', 'stage', 'priority_type_id', 'created_by', 'user_assigned_id'])
        .execute()) as Row[];
      for (const list of Object.keys(lists) as (keyof typeof lists)[]) {
        for (const search of searches) {
          for (const filters of filterSets) {
            const expected = recount(rows, list, search, filters);
            const perPage = expected.length > 300 ? 50 : 7;
            const got = await listed(list, search, filters, perPage);
            const label = `${list} "${search}" ${JSON.stringify(filters)}`;
            expect(got.ids, label).toEqual(expected);
            expect(got.total, label).toBe(expected.length);
            // In another order (priority, then id): the same tickets, sorted.
            if (expected.length > 300) continue;
            const byPriority = await listed(list, search, filters, perPage, { by: 'priority', dir: 'asc' });
            const priorityOf = new Map(rows.map((r) => [r.id, r.priority_type_id]));
            const sorted = [...expected].sort((a, b) => priorityOf.get(a)! - priorityOf.get(b)! || a - b);
            expect(byPriority.ids, `${label} by priority`).toEqual(sorted);
            expect(byPriority.total, `${label} by priority`).toBe(expected.length);
          }
        }
      }
    }

    it('gives the pages and totals of a recount, with scope, stages and filters, also after writes', async () => {
      const next = random(11);
      const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
      const users = (await db().selectFrom('users').select('id').where('status_id', '=', 1).execute()).map((u) => u.id);
      const statuses = (await db().selectFrom('ticket_statuses').select('id').execute()).map((s) => s.id);
      const vocabulary = ['ruta', 'rutas', 'montacargas', 'Refrigeración', 'Monterrey', 'andén', 'báscula'];
      const ours: number[] = [];
      for (let i = 0; i < 40; i++) {
        const ticket = await create(
          pick([admin, agente]),
          `${pick(vocabulary)} ${pick(vocabulary)}`,
          `${pick(vocabulary)} caso ${i}`,
          pick(statuses),
        );
        ours.push(ticket.id);
        if (next() < 0.6) {
          const res = await t.call(admin, 'PATCH', `/api/tickets/${ticket.id}/assign/${pick(users)}`);
          expect(res.statusCode, res.body).toBe(200);
        }
        // An attribute written outside the API: the trigger keeps the index's token of it.
        await db()
          .updateTable('tickets')
          .set({ priority_type_id: pick([1, 2, 3, 4]) })
          .where('id', '=', ticket.id)
          .execute();
      }
      // 2,100 newer tickets none of the searched words but one match: the searches are read past them.
      const count = 2_100;
      await withTicketDerivationsSuspended(db(), dialect, async () => {
        const assignee = sql`case when g % 3 = 0 then cast(${agenteId} as integer) end`;
        if (dialect === 'postgres') {
          await sql`insert into tickets (name, description, area_id, project_id, category_id, priority_type_id,
              difficulty_id, status_id, stage, created_by, user_assigned_id, created_at, updated_at, search_doc)
            select t.name, t.description, 1, 1, 1, t.priority_type_id, 1, 1, t.stage, t.created_by, t.user_assigned_id,
              now(), now(), ${sql.raw(pgSearchDocOf(`'relleno ' || t.name || ' ' || t.description`, 't'))}
            from generate_series(1, ${count}) g,
              lateral (select 'Relleno' as name, 'Sin coincidencias' as description, g % 4 + 1 as priority_type_id,
                'open' as stage, 1 as status_id, 1 as project_id, 1 as area_id, 1 as category_id, 1 as difficulty_id,
                1 as created_by, ${assignee} as user_assigned_id, null::int as group_id) t`.execute(db());
        } else {
          await sql`with recursive g(g) as (select 1 union all select g + 1 from g where g < ${count})
            insert into tickets (name, description, area_id, project_id, category_id, priority_type_id,
              difficulty_id, status_id, stage, created_by, user_assigned_id, created_at, updated_at)
            select 'Relleno', 'Sin coincidencias', 1, 1, 1, g % 4 + 1, 1, 1, 'open', 1, ${assignee},
              strftime('%Y-%m-%dT%H:%M:%fZ'), strftime('%Y-%m-%dT%H:%M:%fZ') from g`.execute(db());
        }
        await sql`insert into ticket_words (word) values ('relleno'), ('sin'), ('coincidencias')
          on conflict do nothing`.execute(db());
      });
      const searches = ['ruta', 'rut', 'montacargas monterrey', 'refrig andén', 'zafiro', 'relleno', `${ours[3]}`];
      const filterSets: Filters[] = [
        {},
        { priority_type_id: [2, 4] },
        { user_assigned_id: [null] },
        { stage: ['open', 'started'], created_by: [agenteId] },
      ];
      try {
        await expectRecount(searches, filterSets);

        // Words, assignees and stages change: the index follows each write.
        for (const id of ours.slice(0, 15)) {
          const res = await t.call(admin, 'PUT', `/api/tickets/update/${id}`, {
            name: `${pick(vocabulary)} zafiro`,
            description: `${pick(vocabulary)} editado`,
            area_id: 1,
            project_id: 1,
            category_id: 1,
            priority_type_id: pick([1, 2, 3, 4]),
            difficulty_id: 1,
            status_id: pick(statuses),
          });
          expect(res.statusCode, res.body).toBe(200);
          const assigned = await t.call(admin, 'PATCH', `/api/tickets/${id}/assign/${pick([agenteId, ...users])}`);
          expect([200, 409], assigned.body).toContain(assigned.statusCode);
        }
        await db()
          .updateTable('tickets')
          .set({ user_assigned_id: null })
          .where('id', 'in', ours.slice(15, 20))
          .execute();
        await expectRecount([...searches.filter((x) => x !== 'relleno'), 'zafiro ruta'], filterSets);
      } finally {
        await withTicketDerivationsSuspended(db(), dialect, async () => {
          await sql`delete from tickets where name = 'Relleno'`.execute(db());
        });
      }
    }, 120_000);
  });

  describe('counters', () => {
    /** The counters, and the same figures counted from the tickets. */
    async function countersAndRecount() {
      const counters = await db()
        .selectFrom('ticket_counts')
        .select(['kind', 'user_id', 'stage', 'status_id', (eb) => eb.fn.sum<number | string>('n').as('n')])
        .groupBy(['kind', 'user_id', 'stage', 'status_id'])
        .execute();
      const tickets = await db()
        .selectFrom('tickets')
        .select(['created_by', 'user_assigned_id', 'stage', 'status_id'])
        .execute();
      const stageOf = new Map(
        (await db().selectFrom('ticket_statuses').select(['id', 'stage']).execute()).map((s) => [s.id, s.stage]),
      );
      const recount = new Map<string, number>();
      const add = (kind: number, user: number, { stage, status_id }: { stage: string; status_id: number }) => {
        const key = `${kind}:${user}:${stage}:${status_id}`;
        recount.set(key, (recount.get(key) ?? 0) + 1);
      };
      for (const x of tickets) {
        expect(x.stage).toBe(stageOf.get(x.status_id));
        add(COUNT_KIND.all, 0, x);
        add(COUNT_KIND.created, x.created_by, x);
        add(COUNT_KIND.assigned, x.user_assigned_id ?? 0, x);
        if (x.created_by === x.user_assigned_id) add(COUNT_KIND.self, x.created_by, x);
      }
      const kept = new Map(
        counters
          .filter((c) => Number(c.n) !== 0)
          .map((c) => [`${c.kind}:${c.user_id}:${c.stage}:${c.status_id}`, Number(c.n)]),
      );
      return { kept, recount };
    }

    it('equal a recount after a random mix of creates, edits, status changes and reassignments', async () => {
      const next = random(7);
      const users = (await db().selectFrom('users').select('id').where('status_id', '=', 1).execute()).map((u) => u.id);
      const statuses = (await db().selectFrom('ticket_statuses').select('id').execute()).map((s) => s.id);
      const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
      const created: number[] = [];
      for (let i = 0; i < 40; i++) {
        const op = next();
        if (op < 0.3 || created.length === 0) {
          created.push((await create(pick([admin, agente]), `Caso ${i}`, `Descripción ${i}`, pick(statuses))).id);
        } else if (op < 0.6) {
          const id = pick(created);
          const res = await t.call(admin, 'PUT', `/api/tickets/update/${id}`, {
            name: `Caso editado ${i}`,
            description: 'Otra descripción',
            area_id: 1,
            project_id: 1,
            category_id: 1,
            priority_type_id: 1,
            difficulty_id: 1,
            status_id: pick(statuses),
          });
          expect(res.statusCode, res.body).toBe(200);
        } else {
          const id = pick(created);
          const res = await t.call(admin, 'PATCH', `/api/tickets/${id}/assign/${pick(users)}`);
          expect([200, 409], res.body).toContain(res.statusCode);
        }
      }
      // Writes outside the API keep them too: the triggers live in the database.
      await db().updateTable('tickets').set({ user_assigned_id: null }).where('id', '=', created[0]!).execute();
      await db().deleteFrom('tickets').where('id', '=', created[1]!).execute();
      const { kept, recount } = await countersAndRecount();
      expect(kept).toEqual(recount);
    });

    it('equal a recount after creates, status changes and reassignments sent concurrently (sharded rows, no deadlock)', async () => {
      const next = random(11);
      const users = (await db().selectFrom('users').select('id').where('status_id', '=', 1).execute()).map((u) => u.id);
      const statuses = (await db().selectFrom('ticket_statuses').select('id').execute()).map((s) => s.id);
      const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
      const created = await Promise.all(
        Array.from({ length: 12 }, (_, i) => create(pick([admin, agente]), `Concurrente ${i}`, 'En paralelo')),
      );
      for (let round = 0; round < 4; round++) {
        const results = await Promise.all([
          ...Array.from({ length: 4 }, (_, i) => create(admin, `Ronda ${round} ${i}`, 'En paralelo', pick(statuses))),
          ...Array.from({ length: 6 }, async () => {
            const ticket = pick(created);
            return next() < 0.5
              ? t.call(admin, 'PATCH', `/api/tickets/${ticket.id}/assign/${pick(users)}`)
              : t.call(admin, 'PUT', `/api/tickets/update/${ticket.id}`, {
                  name: ticket.name,
                  description: ticket.description,
                  area_id: pick([1, 2]),
                  project_id: 1,
                  category_id: 1,
                  priority_type_id: pick([1, 4]),
                  difficulty_id: 1,
                  status_id: pick(statuses),
                });
          }),
        ]);
        for (const r of results) if ('statusCode' in r) expect([200, 409], r.body).toContain(r.statusCode);
      }
      const { kept, recount } = await countersAndRecount();
      expect(kept).toEqual(recount);
      // The dashboard's backlog, kept in sharded rows, adds up to the open tickets too.
      const now = await db()
        .selectFrom('ticket_report_now')
        .select([
          'area_id',
          'project_id',
          'stage',
          'priority_type_id',
          'user_id',
          (eb) => eb.fn.sum<number>('n').as('n'),
        ])
        .groupBy(['area_id', 'project_id', 'stage', 'priority_type_id', 'user_id'])
        .execute();
      const open = await db()
        .selectFrom('tickets')
        .select(['area_id', 'project_id', 'stage', 'priority_type_id', 'user_assigned_id'])
        .where('stage', '<>', 'closed')
        .execute();
      const key = (r: { area_id: number; project_id: number; stage: string; priority_type_id: number }, u: number) =>
        `${r.area_id}:${r.project_id}:${r.stage}:${r.priority_type_id}:${u}`;
      const expected = new Map<string, number>();
      for (const r of open)
        expected.set(key(r, r.user_assigned_id ?? 0), (expected.get(key(r, r.user_assigned_id ?? 0)) ?? 0) + 1);
      expect(new Map(now.filter((r) => Number(r.n) !== 0).map((r) => [key(r, r.user_id), Number(r.n)]))).toEqual(
        expected,
      );
    });

    it('move the tickets of a status whose stage changes, and the lists follow', async () => {
      const status = await db()
        .selectFrom('ticket_statuses')
        .select(['id', 'stage'])
        .where('stage', '=', 'started')
        .executeTakeFirstOrThrow();
      const oldBefore = (await t.call(admin, 'POST', '/api/tickets/old', { page: 1, per_page: 5 })).json().meta.total;
      const moved = await db()
        .selectFrom('tickets')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('status_id', '=', status.id)
        .executeTakeFirstOrThrow();
      expect(Number(moved.n)).toBeGreaterThan(0);
      await db().updateTable('ticket_statuses').set({ stage: 'closed' }).where('id', '=', status.id).execute();
      const { kept, recount } = await countersAndRecount();
      expect(kept).toEqual(recount);
      const oldAfter = (await t.call(admin, 'POST', '/api/tickets/old', { page: 1, per_page: 5 })).json().meta.total;
      expect(oldAfter).toBe(oldBefore + Number(moved.n));
      await db().updateTable('ticket_statuses').set({ stage: status.stage }).where('id', '=', status.id).execute();
    });

    it('give Mis Tickets and the history tabs exact totals (a ticket created and assigned to oneself counts once)', async () => {
      const mine = await create(agente, 'Propio', 'Creado y tomado por el agente');
      expect((await t.call(agente, 'PATCH', `/api/tickets/${mine.id}/assign/${agenteId}`)).statusCode).toBe(200);
      const recount = async (where: (q: ReturnType<typeof base>) => ReturnType<typeof base>) =>
        Number(
          (
            await where(base())
              .select((eb) => eb.fn.countAll<number | string>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const base = () => db().selectFrom('tickets');
      const mineOf = (q: ReturnType<typeof base>) =>
        q.where((eb) => eb.or([eb('created_by', '=', agenteId), eb('user_assigned_id', '=', agenteId)]));
      const total = async (token: string, url: string) =>
        (await t.call(token, 'POST', url, { page: 1, per_page: 5 })).json().meta.total as number;
      expect(await total(agente, '/api/tickets')).toBe(await recount(mineOf));
      expect(await total(agente, '/api/tickets/current')).toBe(
        await recount((q) => mineOf(q).where('stage', '<>', 'closed')),
      );
      expect(await total(agente, '/api/tickets/old')).toBe(
        await recount((q) => mineOf(q).where('stage', '=', 'closed')),
      );
      expect(await total(admin, '/api/general-tickets')).toBe(await recount((q) => q));
      expect(await total(admin, '/api/tickets/current')).toBe(await recount((q) => q.where('stage', '<>', 'closed')));
    });
  });
});
