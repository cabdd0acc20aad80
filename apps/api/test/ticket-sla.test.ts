import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

// Demo ids: priorities Baja 1, Media 2, Alta 3, Urgente 4; statuses Abierto 1, En progreso 2,
// En espera 3 (pauses the SLA), Resuelto 4 (closed).
const URGENTE = 4;
const ALTA = 3;
const [ABIERTO, EN_PROGRESO, EN_ESPERA, RESUELTO] = [1, 2, 3, 4];

/** Instants in Mexico City (UTC-6 all year): Horario corporativo works Monday–Friday 09:00–18:00. */
const mx = (local: string) => Date.parse(`${local}-06:00`);
const iso = (local: string) => new Date(mx(local)).toISOString();

describe.each(dialects)('ticket SLA on %s', (dialect) => {
  let t: TestApp;
  let supervisor: string;
  let agente: string;
  let agenteId: number;
  let now: number;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.services.clock.now = () => now;
    [supervisor, agente] = await Promise.all([t.login('supervisor'), t.login('agente')]);
    const users = (await t.call(supervisor, 'GET', '/api/users/active-records')).json().data;
    agenteId = users.find((u: { name: string }) => u.name.startsWith('Diego')).id;
  });
  afterAll(() => t?.close());
  beforeEach(() => {
    now = mx('2026-11-13T17:50');
  });

  const create = async (body: Partial<ReturnType<typeof ticketBody>>) => {
    const res = await t.call(supervisor, 'POST', '/api/tickets/create', {
      ...ticketBody('Con SLA', 'Prueba'),
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; sla_state: string; resolution_due_at: string | null };
  };
  const update = async (id: number, body: Partial<ReturnType<typeof ticketBody>>) => {
    const current = (await t.call(supervisor, 'GET', `/api/tickets/${id}`)).json().data;
    const res = await t.call(supervisor, 'PUT', `/api/tickets/update/${id}`, {
      ...ticketBody(current.name, current.description),
      area_id: current.area_id,
      priority_type_id: current.priority_type_id,
      status_id: current.status_id,
      ...body,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const page = async (id: number) => (await t.call(supervisor, 'GET', `/api/tickets/${id}`)).json().data;
  const slaEvents = async (id: number) =>
    (await page(id)).events
      .filter((e: { kind: string }) => e.kind.startsWith('sla_'))
      .map((e: { kind: string; from_value: string | null; to_value: string | null }) => [
        e.kind,
        e.from_value,
        e.to_value,
      ]);

  it('an Urgente ticket at 17:50 on a Friday is due on business hours, past the Monday rest day', async () => {
    const ticket = await create({ priority_type_id: URGENTE });
    // 30 minutes to first response and 4 business hours to resolve: 10 minutes on Friday; Monday
    // 16 November 2026 is a rest day (third Monday of November): on to Tuesday.
    expect(ticket).toMatchObject({ sla_state: 'ok', resolution_due_at: iso('2026-11-17T12:50') });
    const detail = await page(ticket.id);
    expect(detail.sla).toMatchObject({
      state: 'ok',
      policy: { name: 'Urgente' },
      first_response_due_at: iso('2026-11-17T09:20'),
      resolution_due_at: iso('2026-11-17T12:50'),
      business_minutes_left: 240,
    });
    expect(await slaEvents(ticket.id)).toEqual([['sla_assigned', null, iso('2026-11-17T12:50')]]);
  });

  it('pauses while En espera and, on resume, moves both due dates by the paused business minutes', async () => {
    now = mx('2026-11-18T09:00');
    const { id } = await create({ priority_type_id: URGENTE });
    expect((await page(id)).sla.resolution_due_at).toBe(iso('2026-11-18T13:00'));
    now = mx('2026-11-18T10:00');
    await update(id, { status_id: EN_ESPERA });
    now = mx('2026-11-18T17:00');
    expect((await page(id)).sla).toMatchObject({ state: 'paused', business_minutes_left: 180 });
    // Paused from 10:00 to 11:30 the next morning: 8 + 2.5 business hours.
    now = mx('2026-11-19T11:30');
    await update(id, { status_id: EN_PROGRESO });
    const { sla } = await page(id);
    expect(sla).toMatchObject({
      state: 'ok',
      paused_minutes: 10.5 * 60,
      paused_since: null,
      first_response_due_at: iso('2026-11-19T11:00'),
      resolution_due_at: iso('2026-11-19T14:30'),
      business_minutes_left: 180,
    });
    expect(await slaEvents(id)).toEqual([
      ['sla_assigned', null, iso('2026-11-18T13:00')],
      ['sla_paused', iso('2026-11-18T13:00'), iso('2026-11-18T13:00')],
      ['sla_resumed', iso('2026-11-18T13:00'), iso('2026-11-19T14:30')],
    ]);
  });

  it('a priority change recomputes from the creation under the new policy, keeping the paused minutes', async () => {
    now = mx('2026-11-18T09:00');
    const { id } = await create({ priority_type_id: URGENTE });
    now = mx('2026-11-18T10:00');
    await update(id, { status_id: EN_ESPERA });
    now = mx('2026-11-18T11:00');
    await update(id, { status_id: EN_PROGRESO });
    now = mx('2026-11-18T11:30');
    // Alta: 8 business hours from 09:00, plus the paused hour: the whole working day.
    await update(id, { priority_type_id: ALTA });
    expect((await page(id)).sla).toMatchObject({
      policy: { name: 'Alta' },
      paused_minutes: 60,
      resolution_due_at: iso('2026-11-18T18:00'),
    });
    expect((await slaEvents(id)).at(-1)).toEqual([
      'sla_recalculated',
      iso('2026-11-18T14:00'),
      iso('2026-11-18T18:00'),
    ]);
  });

  it('resolving in time is met; reopening continues the same clock; resolving late is breached', async () => {
    now = mx('2026-11-18T09:00');
    const { id } = await create({ priority_type_id: URGENTE });
    now = mx('2026-11-18T12:00');
    await update(id, { status_id: RESUELTO });
    expect((await page(id)).sla).toMatchObject({ state: 'met', resolved_at: iso('2026-11-18T12:00') });
    now = mx('2026-11-18T12:30');
    await update(id, { status_id: ABIERTO });
    expect((await page(id)).sla).toMatchObject({
      state: 'at_risk',
      resolved_at: null,
      resolution_due_at: iso('2026-11-18T13:00'),
      business_minutes_left: 30,
    });
    now = mx('2026-11-18T15:00');
    await update(id, { status_id: RESUELTO });
    expect((await page(id)).sla).toMatchObject({ state: 'breached', business_minutes_left: null });
    expect((await slaEvents(id)).map((e: string[]) => e[0])).toEqual([
      'sla_assigned',
      'sla_met',
      'sla_recalculated',
      'sla_breached',
    ]);
  });

  it("the assignee's first activity is the first response; the creator's own is not", async () => {
    now = mx('2026-11-18T09:00');
    const { id } = await create({ priority_type_id: URGENTE });
    await t.call(supervisor, 'PATCH', `/api/tickets/${id}/assign/${agenteId}`);
    now = mx('2026-11-18T09:10');
    const added = await t.call(agente, 'POST', '/api/activities/create', { name: 'Revisando', ticket_id: id });
    expect(added.statusCode, added.body).toBe(201);
    now = mx('2026-11-18T09:40');
    await t.call(agente, 'POST', '/api/activities/create', { name: 'Otra', ticket_id: id });
    expect((await page(id)).sla.first_responded_at).toBe(iso('2026-11-18T09:10'));
  });

  it('a ticket of a priority without a policy has none', async () => {
    const res = await t.call(await t.login('admin'), 'POST', '/api/priority-types/create', { name: 'Sin Acuerdo' });
    const ticket = await create({ priority_type_id: res.json().data.id });
    expect(ticket).toMatchObject({ sla_state: 'none', resolution_due_at: null });
    expect((await page(ticket.id)).sla).toMatchObject({ state: 'none', policy: null, business_minutes_left: null });
  });
});
