import { addDays, REPORT_MAX_DAYS, type TReportSummary } from '@portal/contract';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTicketDerivationsSuspended } from '../src/db/ticket-derivations.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { dropTicketReportTriggers, rebuildTicketReportDerivations } from '../src/db/ticket-report-derivations.ts';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

/** Deterministic, so a failure replays. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

interface TicketRow {
  id: number;
  area_id: number;
  project_id: number;
  priority_type_id: number;
  status_id: number;
  stage: string;
  user_assigned_id: number | null;
  created_at: string;
  updated_at: string;
  sla_state?: 'none' | 'ok' | 'at_risk' | 'breached' | 'met' | 'paused';
  resolution_due_at?: string | null;
  resolved_at?: string | null;
  first_response_due_at?: string | null;
  first_responded_at?: string | null;
}

/**
 * A ticket's SLA outcomes as the Tablero counts them: its resolution once decided (met on the
 * day resolved in time; breached on its due date, resolved late or still overdue) and its first
 * response once given (on the earlier of the response and its due date).
 */
function slaOutcomes(t: TicketRow) {
  const out: { day: string; kind: 'resolution_met' | 'resolution_breached' | 'response_met' | 'response_breached' }[] =
    [];
  const due = t.resolution_due_at ?? null;
  const resolved = t.resolved_at ?? null;
  if (due !== null && (resolved !== null || t.sla_state === 'breached')) {
    const met = resolved !== null && ms(resolved) <= ms(due);
    out.push({ day: (met ? resolved : due).slice(0, 10), kind: met ? 'resolution_met' : 'resolution_breached' });
  }
  const responseDue = t.first_response_due_at ?? null;
  const responded = t.first_responded_at ?? null;
  if (responseDue !== null && responded !== null) {
    const met = ms(responded) <= ms(responseDue);
    out.push({ day: (met ? responded : responseDue).slice(0, 10), kind: met ? 'response_met' : 'response_breached' });
  }
  return out;
}

interface Filter {
  from: string;
  to: string;
  area_id?: number;
  project_id?: number;
}

const DAY = 86_400_000;
const ms = (iso: string) => Date.parse(iso);
const median = (values: number[]) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor((sorted.length - 1) / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid]! + sorted[mid + 1]!) / 2;
};

/**
 * Every figure of the summary counted from the tickets themselves, plus the instant each
 * closed ticket last entered a closed stage (the one fact the row does not keep), which the
 * test records as it closes and reopens tickets.
 */
function recount(tickets: TicketRow[], closedAt: Map<number, string>, f: Filter) {
  const start = ms(`${f.from}T00:00:00.000Z`);
  const end = ms(`${f.to}T00:00:00.000Z`) + DAY;
  const inRange = (iso: string) => ms(iso) >= start && ms(iso) < end;
  const rows = tickets.filter(
    (t) =>
      (f.area_id === undefined || t.area_id === f.area_id) &&
      (f.project_id === undefined || t.project_id === f.project_id),
  );
  const notClosed = rows.filter((t) => t.stage !== 'closed');
  const closures = rows
    .filter((t) => t.stage === 'closed' && inRange(closedAt.get(t.id)!))
    .map((t) => ({
      user: t.user_assigned_id ?? 0,
      day: closedAt.get(t.id)!.slice(0, 10),
      seconds: Math.max(0, Math.floor(ms(closedAt.get(t.id)!) / 1000) - Math.floor(ms(t.created_at) / 1000)),
    }));
  const countBy = <K>(items: TicketRow[], key: (t: TicketRow) => K) => {
    const m = new Map<K, number>();
    for (const t of items) m.set(key(t), (m.get(key(t)) ?? 0) + 1);
    return m;
  };
  const agents = new Map<number, { assigned: number; seconds: number[] }>();
  const agent = (id: number) => agents.get(id) ?? agents.set(id, { assigned: 0, seconds: [] }).get(id)!;
  for (const t of notClosed) if (t.user_assigned_id !== null) agent(t.user_assigned_id).assigned += 1;
  for (const c of closures) if (c.user !== 0) agent(c.user).seconds.push(c.seconds);
  return {
    totals: {
      open_now: notClosed.filter((t) => t.stage === 'open').length,
      started_now: notClosed.filter((t) => t.stage === 'started').length,
      unassigned_now: notClosed.filter((t) => t.user_assigned_id === null).length,
      created: rows.filter((t) => inRange(t.created_at)).length,
      closed: closures.length,
      median_close_seconds: median(closures.map((c) => c.seconds)),
      sla_at_risk_now: rows.filter((t) => t.sla_state === 'at_risk').length,
      sla_breached_now: rows.filter((t) => t.sla_state === 'breached' && (t.resolved_at ?? null) === null).length,
    },
    slaOn: (day: string) => {
      const sums = { resolution_met: 0, resolution_breached: 0, response_met: 0, response_breached: 0 };
      for (const t of rows) for (const o of slaOutcomes(t)) if (o.day === day) sums[o.kind] += 1;
      return sums;
    },
    byPriority: countBy(notClosed, (t) => t.priority_type_id),
    byArea: countBy(notClosed, (t) => t.area_id),
    byProject: countBy(notClosed, (t) => t.project_id),
    agents: new Map(
      [...agents].map(([id, a]) => [
        id,
        { assigned_now: a.assigned, closed: a.seconds.length, median: median(a.seconds) },
      ]),
    ),
    createdOn: (day: string) => rows.filter((t) => t.created_at.slice(0, 10) === day).length,
    closedOn: (day: string) => closures.filter((c) => c.day === day).length,
  };
}

describe.each(dialects)('dashboard summary on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let supervisor: string;
  let agente: string;
  const closedAt = new Map<number, string>();
  let stageOf: Map<number, string>;
  let userIds: number[];
  const db = () => t.services.database.db;

  const summary = async (token: string, query: Record<string, string | number>) => {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return t.call(token, 'GET', `/api/reports/summary${qs ? `?${qs}` : ''}`);
  };

  const tickets = () =>
    db()
      .selectFrom('tickets')
      .select([
        'id',
        'area_id',
        'project_id',
        'priority_type_id',
        'status_id',
        'stage',
        'user_assigned_id',
        'created_at',
        'updated_at',
        'sla_state',
        'resolution_due_at',
        'resolved_at',
        'first_response_due_at',
        'first_responded_at',
      ])
      .execute() as Promise<TicketRow[]>;

  /** The API's answer for a filter equals the recount, figure by figure. */
  async function expectRecount(f: Filter) {
    const res = await summary(supervisor, { ...f });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as TReportSummary;
    const expected = recount(await tickets(), closedAt, f);
    const label = JSON.stringify(f);
    expect(data.totals, label).toEqual(expected.totals);
    expect(data.backlog_by_stage, label).toEqual([
      { stage: 'open', count: expected.totals.open_now },
      { stage: 'started', count: expected.totals.started_now },
    ]);
    for (const p of data.backlog_by_priority) expect(p.count, label).toBe(expected.byPriority.get(p.id) ?? 0);
    expect(data.backlog_by_priority.reduce((s, p) => s + p.count, 0)).toBe(
      expected.totals.open_now + expected.totals.started_now,
    );
    expect(new Map(data.open_by_area.map((a) => [a.id, a.count])), label).toEqual(expected.byArea);
    expect(new Map(data.open_by_project.map((p) => [p.id, p.count])), label).toEqual(expected.byProject);
    expect(data.open_by_area.map((a) => a.count)).toEqual(
      [...data.open_by_area.map((a) => a.count)].sort((a, b) => b - a),
    );
    expect(
      new Map(
        data.agents.map((a) => [
          a.user_id,
          { assigned_now: a.assigned_now, closed: a.closed, median: a.median_close_seconds },
        ]),
      ),
      label,
    ).toEqual(expected.agents);
    // Weeks run Monday to Sunday, cut to the range, and hold exactly the range's days.
    expect(data.weekly[0]!.week_start).toBe(f.from);
    let day = f.from;
    for (const week of data.weekly) {
      expect(week.week_start).toBe(day);
      let created = 0;
      let closed = 0;
      for (let i = 0; i < week.days; i++, day = addDays(day, 1)) {
        created += expected.createdOn(day);
        closed += expected.closedOn(day);
        if (i > 0) expect(new Date(`${day}T00:00:00Z`).getUTCDay(), day).not.toBe(1);
      }
      expect({ created: week.created, closed: week.closed }, `${label} ${week.week_start}`).toEqual({
        created,
        closed,
      });
      expect(new Date(`${day}T00:00:00Z`).getUTCDay() === 1 || day === addDays(f.to, 1)).toBe(true);
    }
    expect(day).toBe(addDays(f.to, 1));
    // SLA outcomes on the same weeks.
    expect(data.sla_weekly.map((w) => w.week_start)).toEqual(data.weekly.map((w) => w.week_start));
    day = f.from;
    for (const [i, week] of data.sla_weekly.entries()) {
      const sums = { resolution_met: 0, resolution_breached: 0, response_met: 0, response_breached: 0 };
      for (let d = 0; d < data.weekly[i]!.days; d++, day = addDays(day, 1)) {
        const on = expected.slaOn(day);
        for (const k of Object.keys(sums) as (keyof typeof sums)[]) sums[k] += on[k];
      }
      expect({ ...week, week_start: undefined }, `${label} SLA ${week.week_start}`).toEqual({
        ...sums,
        week_start: undefined,
      });
    }
    return data;
  }

  let n = 0;
  const insertTicket = async (values: Omit<TicketRow, 'id' | 'stage' | 'updated_at'> & { updated_at?: string }) => {
    const { id } = await db()
      .insertInto('tickets')
      .values({
        name: `Ticket de reporte ${++n}`,
        description: 'Generado para el tablero',
        category_id: 1,
        difficulty_id: 1,
        created_by: userIds[0]!,
        stage: stageOf.get(values.status_id) as 'open',
        ...values,
        updated_at: values.updated_at ?? values.created_at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (stageOf.get(values.status_id) === 'closed') closedAt.set(id, values.updated_at ?? values.created_at);
    return id;
  };

  /** A write as the tickets service makes it: the new values and `updated_at`; records when it closes. */
  const updateTicket = async (id: number, at: string, values: Partial<TicketRow>) => {
    const before = (await db().selectFrom('tickets').select('stage').where('id', '=', id).executeTakeFirstOrThrow())
      .stage;
    const stage = values.status_id === undefined ? before : stageOf.get(values.status_id)!;
    await db()
      .updateTable('tickets')
      .set({ ...values, stage: stage as 'open', updated_at: at })
      .where('id', '=', id)
      .execute();
    if (stage !== 'closed') closedAt.delete(id);
    else if (before !== 'closed') closedAt.set(id, at);
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, supervisor, agente] = await Promise.all([t.login('admin'), t.login('supervisor'), t.login('agente')]);
    const statuses = await db().selectFrom('ticket_statuses').select(['id', 'stage']).execute();
    stageOf = new Map(statuses.map((s) => [s.id, s.stage]));
    userIds = (await db().selectFrom('users').select('id').orderBy('id').execute()).map((u) => u.id);
    // The demo tickets closed when they were written: their closing instant is their updated_at.
    for (const row of await tickets()) if (row.stage === 'closed') closedAt.set(row.id, row.updated_at);
  });
  afterAll(() => t?.close());

  describe('access', () => {
    it('lets the supervisor and the administrator read it, refuses the agente (403) and anonymous callers (401)', async () => {
      expect((await summary(supervisor, {})).statusCode).toBe(200);
      expect((await summary(admin, {})).statusCode).toBe(200);
      const refused = await summary(agente, {});
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ status: false, message: 'No tienes permiso para realizar esta acción.' });
      expect((await t.call(null, 'GET', '/api/reports/summary')).statusCode).toBe(401);
    });

    it('is a screen granted to Administrador and Supervisor, not to Agente', async () => {
      const sections = async (token: string) =>
        (await t.call(token, 'POST', '/api/check-permission', { route_name: 'dashboard' })).json().sections as {
          name: string;
          r: number;
        }[];
      expect(await sections(admin)).toEqual([expect.objectContaining({ name: 'db_main', r: 1 })]);
      expect(await sections(supervisor)).toEqual([expect.objectContaining({ name: 'db_main', r: 1, w: 0 })]);
      expect(await sections(agente)).toEqual([expect.objectContaining({ name: 'db_main', r: 0 })]);
    });
  });

  describe('input', () => {
    it('defaults to the last 12 weeks up to today', async () => {
      const res = await summary(supervisor, {});
      const data = res.json().data as TReportSummary;
      const today = new Date().toISOString().slice(0, 10);
      expect(data).toMatchObject({ from: addDays(today, -83), to: today, area_id: null, project_id: null });
      expect(data.weekly.reduce((s, w) => s + w.days, 0)).toBe(84);
      expect((await summary(supervisor, { to: '2025-03-31' })).json().data).toMatchObject({
        from: '2025-01-07',
        to: '2025-03-31',
      });
      // Empty filters are no filters.
      expect((await summary(supervisor, { area_id: '', project_id: '' })).statusCode).toBe(200);
    });

    it.each([
      [
        { from: '2025-02-30', to: '2025-03-01' },
        'from',
        'La fecha inicial debe ser una fecha válida con el formato AAAA-MM-DD.',
      ],
      [
        { from: '2025-1-5', to: '2025-03-01' },
        'from',
        'La fecha inicial debe ser una fecha válida con el formato AAAA-MM-DD.',
      ],
      [
        { from: '2025-01-01', to: 'mañana' },
        'to',
        'La fecha final debe ser una fecha válida con el formato AAAA-MM-DD.',
      ],
      [
        { from: '2025-03-02', to: '2025-03-01' },
        'from',
        'La fecha inicial debe ser anterior o igual a la fecha final.',
      ],
      [
        { from: '2020-01-01', to: '2025-01-01' },
        'to',
        `El rango no puede superar ${REPORT_MAX_DAYS.toLocaleString('es-MX')} días.`,
      ],
      [{ area_id: 'x' }, 'area_id', 'Debe ser un identificador válido.'],
      [{ area_id: 99_999 }, 'area_id', 'El área no existe.'],
      [{ project_id: 99_999 }, 'project_id', 'El proyecto no existe.'],
    ])('refuses %j with a Spanish 422', async (query, field, message) => {
      const res = await summary(supervisor, query);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ status: false, message: 'Error de validación' });
      expect(res.json().errors[field]).toContain(message);
    });

    it(`accepts a range of exactly ${REPORT_MAX_DAYS} days`, async () => {
      const res = await summary(supervisor, { from: '2023-01-01', to: addDays('2023-01-01', REPORT_MAX_DAYS - 1) });
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  describe('figures equal a recount of the tickets', () => {
    beforeAll(async () => {
      const next = random(dialect === 'sqlite' ? 7 : 11);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
      const statusIds = [...stageOf.keys()];
      const areas = [1, 2, 3, 4];
      const projects = [1, 2, 3];
      const assignees = [...userIds.slice(1, 5), null];
      const base = ms('2025-03-01T00:00:00.000Z');
      const spanDays = 120;
      const at = (offsetMs: number) => new Date(offsetMs).toISOString();
      // Whole seconds, as the portal writes them at times; and some with milliseconds.
      const when = (from: number, maxDays: number) =>
        from + Math.floor((next() * maxDays * DAY) / 1000) * 1000 + (next() < 0.3 ? Math.floor(next() * 1000) : 0);

      const slaStates = ['ok', 'at_risk', 'breached', 'met', 'paused'] as const;
      /** Random SLA columns of a ticket created at `created` (none for some). */
      const randomSla = (created: number): Partial<TicketRow> =>
        next() < 0.25
          ? {}
          : {
              sla_state: pick(slaStates),
              resolution_due_at: at(when(created, 10)),
              first_response_due_at: at(when(created, 2)),
              resolved_at: next() < 0.4 ? at(when(created, 12)) : null,
              first_responded_at: next() < 0.5 ? at(when(created, 3)) : null,
            };
      const ids: number[] = [];
      for (let i = 0; i < 160; i++) {
        const created = when(base, spanDays);
        ids.push(
          await insertTicket({
            area_id: pick(areas),
            project_id: pick(projects),
            priority_type_id: pick([1, 2, 3, 4]),
            status_id: pick(statusIds),
            user_assigned_id: pick(assignees),
            created_at: at(created),
            updated_at: at(created + Math.floor(next() * 5 * DAY)),
            ...randomSla(created),
          }),
        );
      }
      // Tickets on the edges of the range 2025-04-01 .. 2025-04-30.
      const edges = [
        '2025-03-31T23:59:59.999Z',
        '2025-04-01T00:00:00.000Z',
        '2025-04-30T23:59:59.999Z',
        '2025-05-01T00:00:00.000Z',
      ];
      for (const created of edges) {
        ids.push(
          await insertTicket({
            area_id: 1,
            project_id: 1,
            priority_type_id: 1,
            status_id: 1,
            user_assigned_id: userIds[2]!,
            created_at: created,
          }),
        );
      }
      for (const [i, closed] of edges.entries()) {
        const id = await insertTicket({
          area_id: 2,
          project_id: 2,
          priority_type_id: 2,
          status_id: 1,
          user_assigned_id: userIds[3]!,
          created_at: '2025-03-15T10:00:00.000Z',
        });
        ids.push(id);
        await updateTicket(id, closed, { status_id: i % 2 === 0 ? 4 : 5 });
      }

      // Status changes (closing, moving between closed statuses, reopening, closing again),
      // reassignments (of open and of closed tickets), moves between areas and projects.
      const lastWrite = new Map<number, number>();
      for (let step = 0; step < 500; step++) {
        const id = pick(ids);
        const row = (await db()
          .selectFrom('tickets')
          .select(['created_at', 'updated_at'])
          .where('id', '=', id)
          .executeTakeFirst())!;
        const time = at(when(Math.max(ms(row.updated_at), ms(row.created_at), lastWrite.get(id) ?? 0), 6));
        lastWrite.set(id, ms(time));
        const r = next();
        if (r < 0.5) await updateTicket(id, time, { status_id: pick(statusIds) });
        else if (r < 0.75) await updateTicket(id, time, { user_assigned_id: pick(assignees) });
        else if (r < 0.85) await updateTicket(id, time, { area_id: pick(areas), project_id: pick(projects) });
        else if (r < 0.9) await updateTicket(id, time, { priority_type_id: pick([1, 2, 3, 4]) });
        else await updateTicket(id, time, randomSla(ms(row.created_at)));
      }
      // A few tickets removed.
      for (const id of ids.slice(0, 3)) {
        await db().deleteFrom('tickets').where('id', '=', id).execute();
        closedAt.delete(id);
      }
      expect(closedAt.size).toBeGreaterThan(20);
    });

    const filters: Filter[] = [
      { from: '2025-04-01', to: '2025-04-30' },
      { from: '2025-04-01', to: '2025-04-30', area_id: 2 },
      { from: '2025-04-01', to: '2025-04-30', project_id: 2 },
      { from: '2025-04-01', to: '2025-04-30', area_id: 1, project_id: 1 },
      { from: '2025-04-01', to: '2025-04-01' },
      { from: '2025-04-30', to: '2025-04-30' },
      { from: '2025-02-01', to: '2025-12-31' },
      { from: '2025-03-05', to: '2025-06-18', area_id: 3 },
      { from: '2024-01-01', to: '2024-02-01' },
    ];

    it.each(filters)('%j', async (f) => {
      const data = await expectRecount(f);
      if (f.from === '2025-02-01') {
        expect(data.totals.closed).toBeGreaterThan(50);
        // Every SLA figure is exercised.
        expect(data.totals.sla_at_risk_now).toBeGreaterThan(5);
        expect(data.totals.sla_breached_now).toBeGreaterThan(5);
        for (const k of ['resolution_met', 'resolution_breached', 'response_met', 'response_breached'] as const) {
          expect(
            data.sla_weekly.reduce((sum, w) => sum + w[k], 0),
            k,
          ).toBeGreaterThan(5);
        }
      }
    });

    it('counts the edges of the range: from 00:00 and to 23:59:59.999 (UTC) in, a millisecond beyond out', async () => {
      const data = (
        await summary(supervisor, { from: '2025-04-01', to: '2025-04-30', area_id: 1, project_id: 1 })
      ).json().data as TReportSummary;
      const all = recount(await tickets(), closedAt, {
        from: '2025-04-01',
        to: '2025-04-30',
        area_id: 1,
        project_id: 1,
      });
      expect(data.totals.created).toBe(all.totals.created);
      const edgeTickets = (await tickets()).filter(
        (x) => x.created_at.endsWith('59.999Z') || x.created_at.endsWith(':00:00.000Z'),
      );
      expect(edgeTickets.length).toBeGreaterThanOrEqual(4);
    });

    it('stays equal after a rebuild, which keeps the closing instants', async () => {
      const before = (await summary(supervisor, { from: '2025-02-01', to: '2025-12-31' })).json().data;
      await sql`update ticket_report_daily set closed = closed + 5`.execute(db());
      await sql`delete from ticket_report_now`.execute(db());
      await sql`update ticket_report_sla_daily set resolution_met = resolution_met + 3`.execute(db());
      await sql`delete from ticket_report_sla_now`.execute(db());
      await rebuildTicketReportDerivations(db() as unknown as Kysely<unknown>, dialect);
      expect((await summary(supervisor, { from: '2025-02-01', to: '2025-12-31' })).json().data).toEqual(before);
      await expectRecount({ from: '2025-04-01', to: '2025-04-30' });
    });

    it('follows one statement that moves many tickets at once, as the alert sweep writes', async () => {
      const range = { from: '2025-02-01', to: '2025-12-31' };
      // States moved, resolutions and area changes in one update: several tickets move each
      // counter row, some of them one way and others back.
      await sql`update tickets set
          sla_state = case when id % 3 = 0 then 'breached' when id % 3 = 1 then 'at_risk' else sla_state end,
          resolved_at = case when id % 5 = 0 then coalesce(resolved_at, resolution_due_at) else resolved_at end,
          area_id = case when id % 7 = 0 then 2 else area_id end
        where resolution_due_at is not null`.execute(db());
      const maintained = (await summary(supervisor, range)).json().data as TReportSummary;
      expect(maintained.totals.sla_breached_now).toBeGreaterThan(5);
      await rebuildTicketReportDerivations(db() as unknown as Kysely<unknown>, dialect);
      expect((await summary(supervisor, range)).json().data).toEqual(maintained);
    });

    it('follows a bulk load with the triggers suspended (the benchmark generator)', async () => {
      await withTicketDerivationsSuspended(db() as unknown as Kysely<unknown>, dialect, async () => {
        for (let i = 0; i < 20; i++) {
          const created = `2025-04-${String(10 + (i % 10)).padStart(2, '0')}T08:00:00.000Z`;
          const closed = i % 3 === 0;
          await insertTicket({
            area_id: 1 + (i % 3),
            project_id: 1,
            priority_type_id: 1,
            status_id: closed ? 5 : 2,
            user_assigned_id: userIds[1 + (i % 4)]!,
            created_at: created,
            updated_at: closed ? `2025-04-${20 + (i % 5)}T12:00:00.000Z` : created,
          });
        }
      });
      await expectRecount({ from: '2025-04-01', to: '2025-04-30' });
      await expectRecount({ from: '2025-04-01', to: '2025-04-30', area_id: 2 });
    });

    it('follows the portal writing tickets through its API: create, assign, close, reopen', async () => {
      const body = {
        name: 'Rampa del andén 2 dañada',
        description: 'No baja la rampa hidráulica',
        area_id: 1,
        project_id: 1,
        category_id: 1,
        priority_type_id: 4,
        difficulty_id: 1,
        status_id: 1,
      };
      const created = await t.call(supervisor, 'POST', '/api/tickets/create', body);
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().data.id as number;
      const agenteId = userIds[2]!;
      expect((await t.call(supervisor, 'PATCH', `/api/tickets/${id}/assign/${agenteId}`)).statusCode).toBe(200);
      const today = new Date().toISOString().slice(0, 10);
      const range = { from: addDays(today, -1), to: today };
      const before = (await summary(supervisor, range)).json().data as TReportSummary;

      expect((await t.call(supervisor, 'PUT', `/api/tickets/update/${id}`, { ...body, status_id: 5 })).statusCode).toBe(
        200,
      );
      const row = await db().selectFrom('tickets').select('updated_at').where('id', '=', id).executeTakeFirstOrThrow();
      closedAt.set(id, row.updated_at);
      const closed = await expectRecount(range);
      expect(closed.totals.closed).toBe(before.totals.closed + 1);
      expect(closed.agents.find((a) => a.user_id === agenteId)?.closed).toBe(
        (before.agents.find((a) => a.user_id === agenteId)?.closed ?? 0) + 1,
      );

      expect((await t.call(supervisor, 'PUT', `/api/tickets/update/${id}`, { ...body, status_id: 2 })).statusCode).toBe(
        200,
      );
      closedAt.delete(id);
      const reopened = await expectRecount(range);
      expect(reopened.totals.closed).toBe(before.totals.closed);
      expect(reopened.totals.started_now).toBe(before.totals.started_now + 1);
    });
  });
});

/** The supervisor's token, the summary URL of the last year and its answer now (before a migration is replayed). */
async function yearSummary(t: TestApp) {
  const supervisor = await t.login('supervisor');
  const today = new Date().toISOString().slice(0, 10);
  const url = `/api/reports/summary?from=${addDays(today, -365)}&to=${today}`;
  const expected = (await t.call(supervisor, 'GET', url)).json().data as TReportSummary;
  return { supervisor, url, expected };
}

describe.each(dialects)('migration 0010 on an existing database (%s)', (dialect) => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('adds the screen for Administrador and Supervisor and backfills the figures from the tickets', async () => {
    t = await createTestApp(dialect);
    const { db } = t.services.database;
    const { supervisor, url, expected } = await yearSummary(t);
    expect(expected.totals.closed).toBeGreaterThan(5);

    // The database as it was before 0010: no report tables, no dashboard screen.
    await dropTicketReportTriggers(db as unknown as Kysely<unknown>, dialect);
    for (const table of ['ticket_report_now', 'ticket_report_daily', 'ticket_closures']) {
      await db.schema.dropTable(table).execute();
    }
    const section = await db
      .selectFrom('sections')
      .select(['id', 'route_id'])
      .where('name', '=', 'db_main')
      .executeTakeFirstOrThrow();
    await db.deleteFrom('sections_permission').where('section_id', '=', section.id).execute();
    await db.deleteFrom('routes_permission').where('route_id', '=', section.route_id).execute();
    await db.deleteFrom('sections').where('id', '=', section.id).execute();
    await db.deleteFrom('routes').where('id', '=', section.route_id).execute();
    await sql`delete from kysely_migration where name = '0010-dashboard'`.execute(db);
    t.services.permissions.invalidate();
    expect((await t.call(supervisor, 'GET', '/api/reports/summary')).statusCode).toBe(403);

    expect(await migrateToLatest(t.services.database)).toEqual(['0010-dashboard']);
    t.services.permissions.invalidate();
    const res = await t.call(supervisor, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual(expected);
    const agente = await t.login('agente');
    expect((await t.call(agente, 'GET', '/api/reports/summary')).statusCode).toBe(403);
    const admin = await t.login('admin');
    expect((await t.call(admin, 'GET', '/api/reports/summary')).statusCode).toBe(200);
  });
});

describe.each(dialects)('migration 0013 on a database with unsharded report counters (%s)', (dialect) => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('spreads the counters over their shards and keeps every figure', async () => {
    t = await createTestApp(dialect);
    const { db } = t.services.database;
    const { supervisor, url, expected } = await yearSummary(t);
    expect(expected.totals.created).toBeGreaterThan(5);

    // The counter tables as the first 0010 made them: one row per key, no shard.
    await dropTicketReportTriggers(db as unknown as Kysely<unknown>, dialect);
    for (const table of ['ticket_report_now', 'ticket_report_daily']) await db.schema.dropTable(table).execute();
    await sql`create table ticket_report_now (area_id integer not null, project_id integer not null,
      stage varchar(10) not null, priority_type_id integer not null, user_id integer not null, n integer not null,
      primary key (area_id, project_id, stage, priority_type_id, user_id))`.execute(db);
    await sql`create table ticket_report_daily (day varchar(10) not null, area_id integer not null,
      project_id integer not null, created integer not null default 0, closed integer not null default 0,
      primary key (day, area_id, project_id))`.execute(db);
    await sql`delete from kysely_migration where name = '0013-report-shards'`.execute(db);

    expect(await migrateToLatest(t.services.database)).toEqual(['0013-report-shards']);
    const shards = await db.selectFrom('ticket_report_daily').select('shard').distinct().execute();
    expect(shards.length).toBeGreaterThan(1);
    const res = await t.call(supervisor, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual(expected);
    // The triggers write the sharded tables again.
    const admin = await t.login('admin');
    const created = await t.call(
      admin,
      'POST',
      '/api/tickets/create',
      ticketBody('Ticket tras la migración', 'Cuenta en el tablero'),
    );
    expect(created.statusCode, created.body).toBe(201);
    const after = (await t.call(supervisor, 'GET', url)).json().data as TReportSummary;
    expect(after.totals.created).toBe(expected.totals.created + 1);
  });
});
