import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';

interface Item {
  id: number;
  username: string;
  user_name: string;
  ticket_count: number;
  started_count: number;
  completed_count: number;
}

describe.each(dialects)('workload on %s', (dialect) => {
  let t: TestApp;
  let supervisor: string;
  let agente: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [supervisor, agente] = (await Promise.all(['supervisor', 'agente'].map((u) => t.login(u)))) as [string, string];
  });
  afterAll(() => t?.close());

  /** The workload counts, computed independently from the rows. */
  async function expectedCounts() {
    const rows = await t.services.database.db
      .selectFrom('tickets as t')
      .innerJoin('ticket_statuses as s', 's.id', 't.status_id')
      .select(['t.user_assigned_id', 's.stage'])
      .execute();
    const counts = new Map<number, { ticket_count: number; started_count: number; completed_count: number }>();
    for (const r of rows) {
      if (r.user_assigned_id === null) continue;
      const c = counts.get(r.user_assigned_id) ?? { ticket_count: 0, started_count: 0, completed_count: 0 };
      c.ticket_count++;
      if (r.stage === 'started') c.started_count++;
      if (r.stage === 'closed') c.completed_count++;
      counts.set(r.user_assigned_id, c);
    }
    return counts;
  }

  it('counts per active user the assigned, started and completed tickets, matching the data', async () => {
    const res = await t.call(supervisor, 'POST', '/api/tickets/count-per-user', { page: 1, per_page: 100, search: '' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: true, current_page: 1, last_page: 1 });
    const expected = await expectedCounts();
    const items = body.data as Item[];
    expect(items.length).toBe(6);
    for (const item of items) {
      const c = expected.get(item.id) ?? { ticket_count: 0, started_count: 0, completed_count: 0 };
      expect(item, item.username).toMatchObject(c);
    }
    const agent = items.find((i) => i.username === 'agente')!;
    expect(agent.user_name).toBe('Diego Hernández López');
    expect(agent.ticket_count).toBeGreaterThan(agent.started_count + agent.completed_count - 1);
    expect(agent.started_count).toBeGreaterThan(0);
    expect(agent.completed_count).toBeGreaterThan(0);
  });

  it('follows a new assignment and a status change', async () => {
    const before = (await t.call(supervisor, 'POST', '/api/tickets/count-per-user', { search: 'Castillo' })).json()
      .data[0] as Item;
    const ticket = (
      await t.call(supervisor, 'POST', '/api/tickets/create', {
        name: 'Revisar tarimas',
        description: 'Tarimas rotas en la zona de recibo',
        area_id: 1,
        project_id: 1,
        category_id: 1,
        priority_type_id: 1,
        difficulty_id: 1,
        status_id: 2,
      })
    ).json().data;
    expect((await t.call(supervisor, 'PATCH', `/api/tickets/${ticket.id}/assign/${before.id}`)).statusCode).toBe(200);
    const after = (await t.call(supervisor, 'POST', '/api/tickets/count-per-user', { search: 'Castillo' })).json()
      .data[0] as Item;
    expect(after.ticket_count).toBe(before.ticket_count + 1);
    expect(after.started_count).toBe(before.started_count + 1);
    expect(after.completed_count).toBe(before.completed_count);
  });

  it('searches by name or last name and pages', async () => {
    const byLastName = (await t.call(supervisor, 'POST', '/api/tickets/count-per-user', { search: 'martínez' })).json();
    expect(byLastName.data.map((i: Item) => i.username)).toEqual(['lmartinez']);
    const byFullName = (
      await t.call(supervisor, 'POST', '/api/tickets/count-per-user', { search: 'Diego Hern' })
    ).json();
    expect(byFullName.data.map((i: Item) => i.username)).toEqual(['agente']);
    const none = (await t.call(supervisor, 'POST', '/api/tickets/count-per-user', { search: 'zzz' })).json();
    expect(none).toMatchObject({ data: [], total: 0, last_page: 1 });
    const paged = (await t.call(supervisor, 'POST', '/api/tickets/count-per-user', { page: 2, per_page: 4 })).json();
    expect(paged).toMatchObject({ current_page: 2, last_page: 2, total: 6 });
    expect(paged.data).toHaveLength(2);
  });

  it('lists the tickets of one user for the details modal', async () => {
    const agentId = (
      await t.services.database.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'agente')
        .executeTakeFirstOrThrow()
    ).id;
    const res = await t.call(supervisor, 'POST', '/api/tickets/activities-per-user', { user_id: agentId });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const expected = (await expectedCounts()).get(agentId)!;
    expect(body.meta.total).toBe(expected.ticket_count);
    expect(body.activities.length).toBe(expected.ticket_count);
    expect(body.activities[0]).toMatchObject({
      id: expect.any(Number),
      description: expect.any(String),
      priority: expect.any(String),
      difficulty: expect.any(String),
      stage: expect.stringMatching(/^(open|started|closed)$/),
      activity_count: expect.any(Number),
    });
    const withActivities = body.activities.filter((a: { activity_count: number }) => a.activity_count > 0);
    expect(withActivities.length).toBeGreaterThan(0);
    const unknown = await t.call(supervisor, 'POST', '/api/tickets/activities-per-user', { user_id: 999999 });
    expect(unknown.statusCode).toBe(404);
    const bad = await t.call(supervisor, 'POST', '/api/tickets/activities-per-user', {});
    expect(bad.statusCode).toBe(422);
  });

  it('refuses both calls to a role without the workload section', async () => {
    expect((await t.call(agente, 'POST', '/api/tickets/count-per-user', {})).statusCode).toBe(403);
    expect((await t.call(agente, 'POST', '/api/tickets/activities-per-user', { user_id: 1 })).statusCode).toBe(403);
    expect((await t.call(null, 'POST', '/api/tickets/count-per-user', {})).statusCode).toBe(401);
  });
});
