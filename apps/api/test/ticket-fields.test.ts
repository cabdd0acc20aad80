import {
  TICKET_COUNT_CAP,
  TICKET_EXPORT_COLUMNS,
  TICKET_FIELDS,
  ticketExportFields,
  ticketSortColumns,
  type TicketField,
  type TicketFieldKey,
  type TicketStage,
  type TTicket,
  type TTicketFiltersInput,
} from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTicketDerivationsSuspended } from '../src/db/ticket-derivations.ts';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';
import { meetsFilters, parseCsv, readRecountRows, sortedIds, type RecountRow } from './ticket-recount.ts';

/** Past the count cap, so a dense filter's total is "más de 10.000". */
const BULK = TICKET_COUNT_CAP + 1_500;
const PAGE = 50;

const fieldsOf = (test: (f: TicketField) => boolean) =>
  (Object.keys(TICKET_FIELDS) as TicketFieldKey[]).filter((k) => test(TICKET_FIELDS[k]));

/**
 * Every field of TICKET_FIELDS, walked: each filterable one filters, each sortable one sorts
 * (both directions) and each exported one exports, through the API, and each answer equals
 * the recount of the rows (test/ticket-recount.ts), which uses no index.
 */
describe.each(dialects)('the ticket fields on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let rows: RecountRow[];
  let nameRank: Map<number, number>;
  const db = () => t.services.database.db;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.login('admin');
    const ids = async (
      table: 'areas' | 'projects' | 'categories' | 'priority_types' | 'difficulties' | 'groups' | 'users',
    ) => (await db().selectFrom(table).select('id').orderBy('id').execute()).map((r) => r.id);
    const [areas, projects, categories, priorities, difficulties, groups, users] = await Promise.all([
      ids('areas'),
      ids('projects'),
      ids('categories'),
      ids('priority_types'),
      ids('difficulties'),
      ids('groups'),
      ids('users'),
    ]);
    const statuses = (await db().selectFrom('ticket_statuses').select(['id', 'stage']).orderBy('id').execute()) as {
      id: number;
      stage: TicketStage;
    }[];
    const start = Date.parse('2024-01-01T00:00:00.000Z');
    const of = <T>(items: T[], n: number) => items[n % items.length]!;
    await withTicketDerivationsSuspended(db(), dialect, async () => {
      for (let from = 0; from < BULK; from += 1_000) {
        const values = Array.from({ length: Math.min(1_000, BULK - from) }, (_, i) => {
          const n = from + i;
          const status = of(statuses, n * 7 + (n >> 5));
          return {
            name: `Campo ${of(['bomba', 'cámara', 'andén', 'montacargas', 'ruta'], n * 3)} ${n % 97}`,
            description: 'Carga de los campos',
            area_id: of(areas, n),
            project_id: of(projects, n >> 2),
            category_id: of(categories, n * 5),
            priority_type_id: of(priorities, n >> 3),
            difficulty_id: of(difficulties, n * 11),
            status_id: status.id,
            stage: status.stage,
            created_by: of(users, n * 13),
            user_assigned_id: n % 40 === 0 ? null : of(users, n * 17 + 1),
            group_id: n % 7 === 0 ? null : of(groups, n * 19 + (n >> 4)),
            created_at: new Date(start + n * 3_600_000).toISOString(),
            updated_at: new Date(start + ((n * 7_919) % BULK) * 3_600_000).toISOString(),
            // One in nine without an SLA (no due dates); the others' due dates repeat (ties on the id).
            ...(n % 9 === 0
              ? { sla_state: 'none' as const, first_response_due_at: null, resolution_due_at: null }
              : {
                  sla_state: of(['ok', 'at_risk', 'breached', 'met', 'paused'] as const, n * 23 + (n >> 6)),
                  first_response_due_at: new Date(start + ((n * 4_987) % 2_000) * 1_800_000).toISOString(),
                  resolution_due_at: new Date(start + ((n * 6_911) % 3_000) * 3_600_000).toISOString(),
                }),
          };
        });
        await db().insertInto('tickets').values(values).execute();
      }
    });
    ({ rows, nameRank } = await readRecountRows(db()));
  }, 120_000);
  afterAll(() => t?.close());

  async function page(filters: TTicketFiltersInput, sort: { by: string; dir: 'asc' | 'desc' }, at: number) {
    const res = await t.call(admin, 'POST', '/api/general-tickets', { page: at, per_page: PAGE, filters, sort });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: TTicket[]; meta: { total: number; total_is_lower_bound?: boolean } };
  }

  /** The list's first two pages and total equal the recount's. */
  async function expectRecount(label: string, filters: TTicketFiltersInput, sort: { by: never; dir: 'asc' | 'desc' }) {
    const expected = sortedIds(
      rows.filter((r) => meetsFilters(r, filters)),
      sort,
      nameRank,
    );
    for (const at of [1, 3]) {
      const answer = await page(filters, sort, at);
      expect(
        answer.data.map((x) => x.id),
        `${label} page ${at}`,
      ).toEqual(expected.slice((at - 1) * PAGE, at * PAGE));
      // Without a filter the counters give the exact total; with one it is counted up to the cap.
      const isCapped = Object.keys(filters).length > 0 && expected.length > TICKET_COUNT_CAP;
      expect(answer.meta.total, label).toBe(isCapped ? TICKET_COUNT_CAP : expected.length);
      expect(answer.meta.total_is_lower_bound ?? false, label).toBe(isCapped);
    }
  }

  /** Two values of a field that some ticket holds (none, for a field that may be empty), or a date range. */
  function filterOn(key: TicketFieldKey): TTicketFiltersInput {
    const field: TicketField = TICKET_FIELDS[key];
    const sorted = [...rows].sort((a, b) => a.id - b.id);
    const at = (share: number) => sorted[Math.floor(sorted.length * share)]!;
    const valueAt = (share: number) => at(share)[field.column as keyof RecountRow];
    if (field.kind === 'dates') {
      const day = (share: number) => String(valueAt(share)).slice(0, 10);
      return { [`${key}_from`]: day(0.3), [`${key}_to`]: day(0.35) };
    }
    const values = [...new Set([valueAt(0.1), valueAt(0.6)])];
    return { [field.column]: field.kind === 'optional-ids' ? [...values, null] : values };
  }

  it.each(fieldsOf((f) => f.isFilterable === true))('filters by %s against the recount', async (key) => {
    const filters = filterOn(key);
    await expectRecount(`${key} newest first`, filters, { by: 'id' as never, dir: 'desc' });
    // With a second, dense filter: the conditions intersect.
    const priority = { priority_type_id: [rows[0]!.priority_type_id, rows[200]!.priority_type_id] };
    await expectRecount(`${key} + priority`, { ...filters, ...priority }, { by: 'updated' as never, dir: 'asc' });
  });

  it.each(ticketSortColumns)('sorts by %s both ways against the recount, alone and filtered', async (by) => {
    for (const dir of ['asc', 'desc'] as const) {
      await expectRecount(`${by} ${dir}`, {}, { by: by as never, dir });
      await expectRecount(`${by} ${dir}, filtered`, filterOn('area'), { by: by as never, dir });
    }
  });

  it('sorts the at-risk and breached by each due date both ways, pages and export, against the recount', async () => {
    const filters: TTicketFiltersInput = { sla_state: ['breached', 'at_risk'] };
    for (const by of ['resolution_due_at', 'first_response_due_at'] as const) {
      for (const dir of ['asc', 'desc'] as const) {
        await expectRecount(`at risk by ${by} ${dir}`, filters, { by: by as never, dir });
        const withArea = { ...filters, ...filterOn('area') };
        await expectRecount(`at risk in an area by ${by} ${dir}`, withArea, { by: by as never, dir });
        const res = await t.call(admin, 'POST', '/api/tickets/export', {
          list: 'general',
          search: '',
          filters,
          sort: { by, dir },
        });
        expect(res.statusCode).toBe(200);
        const [, ...lines] = parseCsv(res.body.replace(/^\uFEFF/, ''));
        const expected = sortedIds(
          rows.filter((r) => meetsFilters(r, filters)),
          { by, dir },
          nameRank,
        );
        expect(
          lines.map((l) => Number(l[0])),
          `export at risk by ${by} ${dir}`,
        ).toEqual(expected);
      }
    }
  });

  it('exports every exported field, in the list order of the recount', async () => {
    const filters = { ...filterOn('creator'), ...filterOn('created') };
    for (const by of ticketSortColumns) {
      const sort = { by, dir: 'asc' as const };
      const res = await t.call(admin, 'POST', '/api/tickets/export', { list: 'general', search: '', filters, sort });
      expect(res.statusCode).toBe(200);
      const [header, ...lines] = parseCsv(res.body.replace(/^\uFEFF/, ''));
      expect(header).toEqual([...TICKET_EXPORT_COLUMNS]);
      const expected = sortedIds(
        rows.filter((r) => meetsFilters(r, filters)),
        sort,
        nameRank,
      );
      expect(
        lines.map((l) => Number(l[0])),
        by,
      ).toEqual(expected);
      // Each cell is its field's value of the ticket as the list shows it.
      const shown = new Map((await page(filters, sort, 1)).data.map((x) => [x.id, x]));
      for (const line of lines.filter((l) => shown.has(Number(l[0])))) {
        const ticket = shown.get(Number(line[0]))!;
        ticketExportFields.forEach((key, i) => {
          const field: TicketField = TICKET_FIELDS[key];
          const value = String(field.cell!(ticket));
          expect(line[i], `${key} of #${ticket.id}`).toBe(
            field.kind === 'dates' ? value.slice(0, 19).replace('T', ' ') : value,
          );
        });
      }
    }
  });

  it('answers one total for a counted filter asked 20 times while tickets are written', async () => {
    const sparse = { ...filterOn('priority'), ...filterOn('assignee'), ...filterOn('project') };
    const dense = { priority_type_id: [...new Set(rows.map((r) => r.priority_type_id))] };
    const totalOf = async (filters: TTicketFiltersInput) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/general-tickets',
        headers: { authorization: `Bearer ${admin}`, 'cache-control': 'no-cache' },
        payload: { page: 1, per_page: 10, filters, sort: { by: 'updated', dir: 'desc' } },
      });
      const { meta } = res.json() as { meta: { total: number; total_is_lower_bound?: boolean } };
      return `${meta.total}${meta.total_is_lower_bound ? '+' : ''}`;
    };
    // Tickets written meanwhile match neither filter: their priority and project are the
    // lowest ids' and the filters ask for others; so each answer must be the same.
    const other = { ...ticketBody('Escritura concurrente', 'No coincide con el filtro') };
    let writing = true;
    const writer = (async () => {
      let n = 0;
      while (writing && n < 200) {
        const res = await t.call(admin, 'POST', '/api/tickets/create', other);
        expect(res.statusCode, res.body).toBe(201);
        n++;
      }
    })();
    const totals = new Set<string>();
    const denseTotals = new Set<string>();
    for (let i = 0; i < 20; i++) {
      totals.add(await totalOf(sparse));
      denseTotals.add(await totalOf(dense));
    }
    writing = false;
    await writer;
    const expected = rows.filter((r) => meetsFilters(r, sparse)).length;
    expect([...totals]).toEqual([String(expected)]);
    expect([...denseTotals]).toEqual([`${TICKET_COUNT_CAP}+`]);
  });

  it('finds a ticket under the SLA state a statement moved it to, as the alert sweep moves them', async () => {
    const moved = rows.filter((r) => r.sla_state === 'ok' && r.id % 3 === 0).map((r) => r.id);
    expect(moved.length).toBeGreaterThan(0);
    await db().updateTable('tickets').set({ sla_state: 'breached' }).where('id', 'in', moved).execute();
    ({ rows, nameRank } = await readRecountRows(db()));
    const priority = { priority_type_id: [rows[0]!.priority_type_id] };
    for (const state of ['ok', 'breached'] as const) {
      await expectRecount(
        `${state} + priority`,
        { sla_state: [state], ...priority },
        { by: 'id' as never, dir: 'desc' },
      );
    }
  });
});
