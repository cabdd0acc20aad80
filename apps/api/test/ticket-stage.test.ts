import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrator.ts';
import type { DB } from '../src/db/schema.ts';
import { rebuildTicketCounts } from '../src/db/ticket-derivations.ts';
import { rebuildTicketReportDerivations } from '../src/db/ticket-report-derivations.ts';
import { createTestApp, dialects, type TestApp } from './helper.ts';

/**
 * The database derives `tickets.stage` from the status (migration 0017), whoever writes the
 * row: tickets written here by SQL, with no stage or a wrong one, land in the right history tab
 * and the right counters.
 */
describe.each(dialects)('a ticket stage written outside the application, on %s', (dialect) => {
  let t: TestApp;
  let agente: string;
  let supervisor: string;
  let agenteId: number;
  const db = () => t.services.database.db;
  const statusOf = {} as Record<'open' | 'started' | 'closed', number>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [agente, supervisor] = (await Promise.all(['agente', 'supervisor'].map((u) => t.login(u)))) as [string, string];
    agenteId = (await db().selectFrom('users').select('id').where('username', '=', 'agente').executeTakeFirstOrThrow())
      .id;
    for (const stage of ['open', 'started', 'closed'] as const) {
      statusOf[stage] = (
        await db().selectFrom('ticket_statuses').select('id').where('stage', '=', stage).executeTakeFirstOrThrow()
      ).id;
    }
  });
  afterAll(() => t?.close());

  /** A ticket of agente's, inserted by SQL with the given status and, if any, stage. */
  async function insert(name: string, status: number, stage?: 'open' | 'started' | 'closed'): Promise<number> {
    const now = new Date().toISOString();
    const row = {
      name,
      description: 'Escrito por un script de datos',
      area_id: 1,
      project_id: 1,
      category_id: 1,
      priority_type_id: 1,
      difficulty_id: 1,
      status_id: status,
      created_by: agenteId,
      user_assigned_id: agenteId,
      created_at: now,
      updated_at: now,
    };
    const { id } = await db()
      .insertInto('tickets')
      .values(stage ? { ...row, stage } : row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  /** What agente's history tabs hold (ids of a search, totals without one) and their workload row. */
  async function seen() {
    const tab = async (history: 'current' | 'old') => {
      const all = (await t.call(agente, 'POST', `/api/tickets/${history}`, { page: 1, per_page: 10 })).json();
      const found = (
        await t.call(agente, 'POST', `/api/tickets/${history}`, { page: 1, per_page: 50, search: 'zafiro' })
      ).json();
      return { total: all.meta.total as number, ids: (found.data as { id: number }[]).map((x) => x.id).sort() };
    };
    const workload = (await t.call(supervisor, 'POST', '/api/tickets/count-per-user', { search: 'Diego' })).json()
      .data[0] as { ticket_count: number; started_count: number; completed_count: number; open_count: number };
    return { current: await tab('current'), old: await tab('old'), workload };
  }

  /** Every maintained figure (counters and report), shards added up: what a rebuild from the tickets must give again. */
  async function figures() {
    const read = async <R>(query: ReturnType<typeof sql<R>>) => (await query.execute(db())).rows;
    return {
      counts: await read(sql`select kind, user_id, stage, sum(n) as n from ticket_counts
        group by kind, user_id, stage having sum(n) <> 0 order by kind, user_id, stage`),
      now: await read(sql`select area_id, project_id, stage, priority_type_id, user_id, sum(n) as n
        from ticket_report_now group by area_id, project_id, stage, priority_type_id, user_id having sum(n) <> 0
        order by 1, 2, 3, 4, 5`),
      daily: await read(sql`select day, area_id, project_id, sum(created) as created, sum(closed) as closed
        from ticket_report_daily group by day, area_id, project_id
        having sum(created) <> 0 or sum(closed) <> 0 order by 1, 2, 3`),
      closures: await read(sql`select ticket_id, area_id, project_id, user_id from ticket_closures order by ticket_id`),
    };
  }

  it('puts each ticket in the tab and counters of its status, on insert and on a status update', async () => {
    const before = await seen();

    const closedNoStage = await insert('Zafiro cerrado sin etapa', statusOf.closed);
    const openWrongStage = await insert('Zafiro abierto con etapa errónea', statusOf.open, 'closed');
    const startedNoStage = await insert('Zafiro iniciado sin etapa', statusOf.started);
    const closedWrongStage = await insert('Zafiro cerrado con etapa errónea', statusOf.closed, 'started');
    // Updates that name only the status, or the status with a wrong stage.
    await db().updateTable('tickets').set({ status_id: statusOf.closed }).where('id', '=', startedNoStage).execute();
    await db()
      .updateTable('tickets')
      .set({ status_id: statusOf.started, stage: 'closed' })
      .where('id', '=', openWrongStage)
      .execute();

    const stages = await db()
      .selectFrom('tickets')
      .select(['id', 'stage'])
      .where('id', 'in', [closedNoStage, openWrongStage, startedNoStage, closedWrongStage])
      .orderBy('id')
      .execute();
    expect(stages).toEqual([
      { id: closedNoStage, stage: 'closed' },
      { id: openWrongStage, stage: 'started' },
      { id: startedNoStage, stage: 'closed' },
      { id: closedWrongStage, stage: 'closed' },
    ]);

    const after = await seen();
    expect(after.current.ids).toEqual([openWrongStage].sort());
    expect(after.old.ids).toEqual([closedNoStage, startedNoStage, closedWrongStage].sort());
    expect(after.current.total).toBe(before.current.total + 1);
    expect(after.old.total).toBe(before.old.total + 3);
    expect(after.workload).toEqual({
      ...before.workload,
      ticket_count: before.workload.ticket_count + 4,
      started_count: before.workload.started_count + 1,
      completed_count: before.workload.completed_count + 3,
      open_count: before.workload.open_count + 1,
    });

    // The triggers' counters and report are what a rebuild from the tickets gives.
    const maintained = await figures();
    await rebuildTicketCounts(db());
    await rebuildTicketReportDerivations(db() as unknown as Kysely<DB>, dialect);
    expect(await figures()).toEqual(maintained);
  });

  it('migration 0017 corrects the stages it finds wrong, counters and report included', async () => {
    // The database as it was before 0017, with stages a script left wrong.
    const drops =
      dialect === 'postgres'
        ? ['drop trigger tickets_derive_stage on tickets', 'drop function portal_ticket_stage()']
        : ['drop trigger tickets_stage_insert', 'drop trigger tickets_stage_update'];
    for (const statement of drops) await sql.raw(statement).execute(db());
    await sql`delete from kysely_migration where name = '0017-ticket-stage-follows-status'`.execute(db());
    const wrong = await insert('Zafiro de antes', statusOf.closed, 'open');
    const demo = await db().selectFrom('tickets').select('id').where('stage', '=', 'open').executeTakeFirstOrThrow();
    await db().updateTable('tickets').set({ stage: 'closed' }).where('id', '=', demo.id).execute();
    expect(
      (await db().selectFrom('tickets').select('stage').where('id', '=', wrong).executeTakeFirstOrThrow()).stage,
    ).toBe('open');

    expect(await migrateToLatest(t.services.database)).toEqual(['0017-ticket-stage-follows-status']);
    const wrongStages = await sql`select t.id from tickets t join ticket_statuses s on s.id = t.status_id
      where t.stage <> s.stage`.execute(db());
    expect(wrongStages.rows).toEqual([]);
    expect((await seen()).old.ids).toContain(wrong);
    expect(
      (await db().selectFrom('tickets').select('stage').where('id', '=', demo.id).executeTakeFirstOrThrow()).stage,
    ).toBe('open');
    const maintained = await figures();
    await rebuildTicketCounts(db());
    await rebuildTicketReportDerivations(db() as unknown as Kysely<DB>, dialect);
    expect(await figures()).toEqual(maintained);
  });
});
