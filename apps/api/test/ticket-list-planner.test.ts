import { TICKET_COUNT_CAP, type TTicketFilters, type TTicketSort, type TicketStage } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTicketDerivationsSuspended } from '../src/db/ticket-derivations.ts';
import {
  createTicketListQueries,
  type ListPlanOptions,
  type ListSpec,
} from '../src/modules/tickets/ticket-list.repository.ts';
import { createTestApp, dialects, type TestApp } from './helper.ts';
import { readRecountRows, sortedIds, type RecountRow } from './ticket-recount.ts';

/** Enough tickets to pass the count cap, spread over every filter value. */
const BULK = TICKET_COUNT_CAP + 2_000;

/**
 * The list planner (ticket-list.repository.ts) has several ways to read one page: FTS5 in id
 * order, a walk of the sort index, a gather of the matches; exact totals from the counters or
 * counted in id windows, up to the cap or a time budget. Each is forced here and must give the
 * rows of a naive recount, and totals that are exact or honest lower bounds.
 */
describe.each(dialects)('ticket list planner on %s', (dialect) => {
  let t: TestApp;
  let rows: RecountRow[];
  let nameRank: Map<number, number>;
  let users: number[];
  let priorityIds: number[];
  let statuses: { id: number; stage: TicketStage }[];
  const db = () => t.services.database.db;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const ids = async (table: 'areas' | 'projects' | 'categories' | 'priority_types' | 'difficulties') =>
      (await db().selectFrom(table).select('id').orderBy('id').execute()).map((r) => r.id);
    const [areas, projects, categories, priorities, difficulties] = await Promise.all([
      ids('areas'),
      ids('projects'),
      ids('categories'),
      ids('priority_types'),
      ids('difficulties'),
    ]);
    priorityIds = priorities;
    users = (await db().selectFrom('users').select('id').orderBy('id').execute()).map((r) => r.id);
    statuses = (await db().selectFrom('ticket_statuses').select(['id', 'stage']).orderBy('id').execute()) as {
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
          const created = new Date(start + n * 3_600_000).toISOString();
          return {
            name: `Planificador ${of(['bomba', 'cámara', 'andén', 'montacargas', 'ruta'], n * 3)} ${n % 97}`,
            description: 'Carga del planificador',
            area_id: of(areas, n),
            project_id: of(projects, n >> 2),
            category_id: of(categories, n * 5),
            priority_type_id: of(priorities, n >> 3),
            difficulty_id: of(difficulties, n * 11),
            status_id: status.id,
            stage: status.stage,
            created_by: of(users, n * 13),
            // Sparse assignees: one ticket in 40 unassigned, the rest spread over users.
            user_assigned_id: n % 40 === 0 ? null : of(users, n * 17 + 1),
            created_at: created,
            updated_at: new Date(start + ((n * 7_919) % BULK) * 3_600_000).toISOString(),
          };
        });
        await db().insertInto('tickets').values(values).execute();
      }
    });
    ({ rows, nameRank } = await readRecountRows(db()));
  }, 120_000);
  afterAll(() => t?.close());

  /** The naive recount: every row tested in JavaScript, then sorted. */
  function recount(spec: ListSpec): number[] {
    const { filters: f, scope, stages } = spec;
    const pick = <V>(values: readonly V[] | undefined, v: V) => !values?.length || values.includes(v);
    const day = (d: string | undefined, plus = 0) =>
      d && new Date(Date.parse(`${d}T00:00:00.000Z`) + plus).toISOString();
    const matched = rows.filter(
      (r) =>
        (scope.kind === 'all' || r.created_by === scope.userId || r.user_assigned_id === scope.userId) &&
        (!stages || stages.includes(r.stage)) &&
        pick(f.stage, r.stage) &&
        pick(f.status_id, r.status_id) &&
        pick(f.priority_type_id, r.priority_type_id) &&
        pick(f.project_id, r.project_id) &&
        pick(f.area_id, r.area_id) &&
        pick(f.category_id, r.category_id) &&
        pick(f.difficulty_id, r.difficulty_id) &&
        pick(f.created_by, r.created_by) &&
        pick(f.user_assigned_id, r.user_assigned_id) &&
        (!f.created_from || r.created_at >= day(f.created_from)!) &&
        (!f.created_to || r.created_at < day(f.created_to, 86_400_000)!),
    );
    return sortedIds(matched, spec.sort, nameRank);
  }

  const spec = (
    filters: TTicketFilters,
    sort: TTicketSort,
    scope: ListSpec['scope'] = { kind: 'all' },
    stages: TicketStage[] | null = null,
  ): ListSpec => ({ scope, stages, search: { kind: 'none' }, filters, sort });

  /** Specs that cover the counters, the windowed count, sparse and dense matches, every sort. */
  const cases = (): [string, ListSpec][] => {
    const [u1, u2, u3] = [users[1]!, users[2]!, users[3]!];
    const closed = statuses.find((s) => s.stage === 'closed')!.id;
    return [
      [
        'priority + project + unassigned, by update',
        spec({ priority_type_id: [1], project_id: [2], user_assigned_id: [null] }, { by: 'updated', dir: 'desc' }),
      ],
      [
        'same, newest first',
        spec({ priority_type_id: [1], project_id: [2], user_assigned_id: [null] }, { by: 'id', dir: 'desc' }),
      ],
      ['area + status, by priority', spec({ area_id: [1], status_id: [closed] }, { by: 'priority', dir: 'desc' })],
      ['creator, by name', spec({ created_by: [u1] }, { by: 'name', dir: 'asc' })],
      ['Mis Tickets, closed', spec({ stage: ['closed'] }, { by: 'id', dir: 'desc' }, { kind: 'mine', userId: u2 })],
      [
        'Mis Tickets + priority, by project',
        spec({ priority_type_id: [1, 2] }, { by: 'project', dir: 'asc' }, { kind: 'mine', userId: u3 }),
      ],
      [
        'current + category + difficulty, by status',
        spec({ category_id: [1], difficulty_id: [2] }, { by: 'status', dir: 'asc' }, { kind: 'all' }, [
          'open',
          'started',
        ]),
      ],
      [
        'dates + area, by update ascending',
        spec({ created_from: '2024-03-01', created_to: '2024-09-30', area_id: [2] }, { by: 'updated', dir: 'asc' }),
      ],
      [
        'two assignees (one is nobody), by name descending',
        spec({ user_assigned_id: [u1, null] }, { by: 'name', dir: 'desc' }),
      ],
      [
        'every priority (dense, past the cap), by created',
        spec({ priority_type_id: priorityIds }, { by: 'created', dir: 'asc' }),
      ],
      ['no match', spec({ area_id: [1], created_by: [999_999] }, { by: 'name', dir: 'asc' })],
    ];
  };

  const plans: [string, ListPlanOptions][] = [
    ['the planner', {}],
    ['a forced walk (short, so it falls back)', { force: 'walk', walkRows: 40 }],
    ['a forced gather', { force: 'gather' }],
    ['walks of one row at most', { walkRows: 1 }],
  ];

  it.each(plans)('gives the rows of a recount with %s, on a first and a deeper page', async (_, options) => {
    const queries = createTicketListQueries(t.services.database, options);
    for (const [label, s] of cases()) {
      const expected = recount(s);
      for (const offset of [0, 35]) {
        const slice = await queries.slice(s, 10, offset);
        expect(slice.ids, `${label} @${offset}`).toEqual(expected.slice(offset, offset + 10));
        expect(slice.total, label).toBe(Math.min(expected.length, TICKET_COUNT_CAP));
        expect(slice.isLowerBound, label).toBe(expected.length > TICKET_COUNT_CAP);
      }
    }
  });

  it('stops counting when the budget is spent and then reports an honest lower bound', async () => {
    // Tiny windows and no time at all: two windows are counted, then it stops.
    const queries = createTicketListQueries(t.services.database, { countBudgetMs: 0, firstWindow: 50 });
    let stopped = 0;
    for (const [label, s] of cases()) {
      const expected = recount(s);
      const slice = await queries.slice(s, 10, 0);
      expect(slice.ids, label).toEqual(expected.slice(0, 10));
      if (slice.isLowerBound) {
        // "More than total": at least one more match than it says.
        expect(expected.length, label).toBeGreaterThan(slice.total);
        if (slice.total < TICKET_COUNT_CAP) stopped += 1;
      } else {
        expect(slice.total, label).toBe(expected.length);
      }
    }
    // Windowed counts really stopped early (the counters' exact totals never do).
    expect(stopped).toBeGreaterThanOrEqual(3);
  });

  it('counts exactly from the counters when only stage, creator or assignee filter the list', async () => {
    const queries = createTicketListQueries(t.services.database, { countBudgetMs: 0, firstWindow: 1 });
    const [u1, u2] = [users[1]!, users[2]!];
    for (const s of [
      spec({ stage: ['open', 'closed'] }, { by: 'name', dir: 'asc' }),
      spec({ created_by: [u1, u2, u1] }, { by: 'updated', dir: 'desc' }),
      spec({ user_assigned_id: [null, u2] }, { by: 'id', dir: 'asc' }),
      spec({ stage: ['started'] }, { by: 'priority', dir: 'asc' }, { kind: 'mine', userId: u1 }),
      spec({ created_by: [u1] }, { by: 'id', dir: 'desc' }, { kind: 'mine', userId: u1 }),
    ]) {
      const expected = recount(s);
      const slice = await queries.slice(s, 10, 0);
      expect(slice.ids).toEqual(expected.slice(0, 10));
      // A budget of zero would have stopped a windowed count, and the cap does not apply: the counters answer.
      expect({ total: slice.total, isLowerBound: slice.isLowerBound }).toEqual({
        total: expected.length,
        isLowerBound: false,
      });
    }
  });
});
