import { NOTIFICATION_TEXT } from '@portal/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SWEEP_LOCK_KEY } from '../src/modules/sla/sla-alerts.repository.ts';
import { createSiblingApp, createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

// Demo ids: Urgente 4 (30 minutes to respond, 4 business hours to resolve, at risk with one left);
// statuses Abierto 1, En progreso 2, Resuelto 4; area 1 Almacén (supervised by Sofía, 'supervisor').
const URGENTE = 4;
const [EN_PROGRESO, RESUELTO] = [2, 4];

/** Instants in Mexico City (UTC-6 all year): Horario corporativo works Monday–Friday 09:00–18:00. */
const mx = (local: string) => Date.parse(`${local}-06:00`);
const iso = (local: string) => new Date(mx(local)).toISOString();

describe.each(dialects)('SLA alerts on %s', (dialect) => {
  let t: TestApp;
  let supervisor: string;
  let supervisorId: number;
  let agenteId: number;
  let now: number;
  const db = () => t.services.database.db;
  const sweep = () => t.services.slaAlerts.runOnce();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.services.clock.now = () => now;
    supervisor = await t.login('supervisor');
    const users = await db().selectFrom('users').select(['id', 'username']).execute();
    supervisorId = users.find((u) => u.username === 'supervisor')!.id;
    agenteId = users.find((u) => u.username === 'agente')!.id;
  });
  afterAll(() => t?.close());
  beforeEach(() => {
    now = mx('2026-11-18T09:00');
  });

  const create = async (body: Partial<ReturnType<typeof ticketBody>> = {}) => {
    const res = await t.call(supervisor, 'POST', '/api/tickets/create', {
      ...ticketBody('Montacargas sin frenos', 'Urgente'),
      priority_type_id: URGENTE,
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as number;
  };
  /** The SLA alerts a ticket's people received in the portal: [recipient, message, type], oldest first. */
  const alertsOf = async (ticketId: number) =>
    (
      await db()
        .selectFrom('notifications')
        .select(['user_id', 'message', 'type'])
        .where('ticket_id', '=', ticketId)
        .where('message', 'in', [NOTIFICATION_TEXT.slaAtRisk, NOTIFICATION_TEXT.slaBreached])
        .orderBy('id')
        .execute()
    ).map((n) => [n.user_id, n.message, n.type]);
  const stateOf = async (ticketId: number) =>
    (await db().selectFrom('tickets').select('sla_state').where('id', '=', ticketId).executeTakeFirstOrThrow())
      .sla_state;
  const breachEvents = async (ticketId: number) =>
    db()
      .selectFrom('ticket_events')
      .select(['user_id', 'to_value'])
      .where('ticket_id', '=', ticketId)
      .where('kind', '=', 'sla_breached')
      .execute();

  const alertRowsOf = (ticketId: number) =>
    db()
      .selectFrom('sla_alerts')
      .select(['threshold', 'notify_at', 'sent_at'])
      .where('ticket_id', '=', ticketId)
      .orderBy('threshold')
      .execute();

  it('alerts once per threshold: the area supervisors while unassigned, then the assignee', async () => {
    const id = await create();
    // Due at 13:00, at risk from 12:00.
    now = mx('2026-11-18T11:59');
    await sweep();
    expect(await stateOf(id)).toBe('ok');
    expect(await alertsOf(id)).toEqual([]);

    now = mx('2026-11-18T12:05');
    await sweep();
    expect(await stateOf(id)).toBe('at_risk');
    const atRisk = [supervisorId, NOTIFICATION_TEXT.slaAtRisk, 'warning'];
    expect(await alertsOf(id)).toEqual([atRisk]);
    // Due at once (the calendar is open): written delivered.
    expect(await alertRowsOf(id)).toEqual([
      { threshold: 'at_risk', notify_at: iso('2026-11-18T12:05'), sent_at: iso('2026-11-18T12:05') },
    ]);
    now = mx('2026-11-18T12:10');
    await sweep();
    expect(await alertsOf(id)).toEqual([atRisk]);

    now = mx('2026-11-18T12:20');
    expect((await t.call(supervisor, 'PATCH', `/api/tickets/${id}/assign/${agenteId}`)).statusCode).toBe(200);
    now = mx('2026-11-18T13:01');
    await sweep();
    await sweep();
    expect(await stateOf(id)).toBe('breached');
    const breached = [agenteId, NOTIFICATION_TEXT.slaBreached, 'error'];
    expect(await alertsOf(id)).toEqual([atRisk, breached]);
    // The timeline says so once, written by the portal itself.
    expect(await breachEvents(id)).toEqual([{ user_id: null, to_value: iso('2026-11-18T13:00') }]);
    const page = (await t.call(supervisor, 'GET', `/api/tickets/${id}`)).json().data;
    expect(page.events.filter((e: { kind: string }) => e.kind === 'sla_breached')).toHaveLength(1);

    // And by mail, as 'SLA por vencer o vencido' defaults to both channels.
    const mails = await db()
      .selectFrom('mail_outbox')
      .select(['user_id', 'text_body'])
      .where('ticket_id', '=', id)
      .execute();
    const slaMails = mails.filter((m) => m.text_body.includes('SLA del ticket'));
    expect(slaMails.map((m) => m.user_id).sort()).toEqual([supervisorId, agenteId].sort());
    expect(slaMails.find((m) => m.user_id === agenteId)!.text_body).toContain(NOTIFICATION_TEXT.slaBreached);
  });

  it('alerts a ticket whose state moved at write time, and honours the channel each person chose', async () => {
    // The supervisor takes SLA alerts in the portal only.
    const saved = await t.call(supervisor, 'PUT', '/api/users/notification-preferences', {
      channels: { assigned: 'both', status_changed: 'portal', activity_added: 'portal', sla: 'portal' },
      rhythm: 'immediate',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const id = await create();
    now = mx('2026-11-18T12:30');
    const body = {
      ...ticketBody('Montacargas sin frenos', 'Urgente'),
      priority_type_id: URGENTE,
      status_id: EN_PROGRESO,
    };
    expect((await t.call(supervisor, 'PUT', `/api/tickets/update/${id}`, body)).statusCode).toBe(200);
    expect(await stateOf(id)).toBe('at_risk');
    await sweep();
    expect(await alertsOf(id)).toEqual([[supervisorId, NOTIFICATION_TEXT.slaAtRisk, 'warning']]);
    const mails = await db().selectFrom('mail_outbox').select('text_body').where('ticket_id', '=', id).execute();
    expect(mails.filter((m) => m.text_body.includes('SLA del ticket'))).toEqual([]);
  });

  it('holds an alert found after hours until the calendar opens, and sends only the breach when both passed', async () => {
    // Friday 20 November 14:00: due at 18:00 sharp, the close of the day.
    now = mx('2026-11-20T14:00');
    const id = await create();
    now = mx('2026-11-20T18:30');
    await sweep();
    expect(await stateOf(id)).toBe('breached');
    expect(await alertsOf(id)).toEqual([]);
    const pending = await db()
      .selectFrom('sla_alerts')
      .select(['threshold', 'notify_at', 'sent_at'])
      .where('ticket_id', '=', id)
      .execute();
    expect(pending).toEqual([{ threshold: 'breached', notify_at: iso('2026-11-23T09:00'), sent_at: null }]);

    for (const local of ['2026-11-21T12:00', '2026-11-22T23:00', '2026-11-23T08:59']) {
      now = mx(local);
      await sweep();
      expect(await alertsOf(id), local).toEqual([]);
    }
    now = mx('2026-11-23T09:00');
    await sweep();
    expect(await alertsOf(id)).toEqual([[supervisorId, NOTIFICATION_TEXT.slaBreached, 'error']]);
    now = mx('2026-11-23T10:00');
    await sweep();
    expect(await alertsOf(id)).toHaveLength(1);
  });

  it('delivers in one round the alerts it writes and those that waited for the calendar', async () => {
    now = mx('2026-11-20T14:00');
    const waited = await create();
    now = mx('2026-11-20T18:30');
    await sweep();
    expect(await alertRowsOf(waited)).toEqual([
      { threshold: 'breached', notify_at: iso('2026-11-23T09:00'), sent_at: null },
    ]);
    // Monday: a new ticket at risk from 12:00; no round until 12:05.
    now = mx('2026-11-23T09:00');
    const fresh = await create();
    now = mx('2026-11-23T12:05');
    await sweep();
    expect(await alertsOf(waited)).toEqual([[supervisorId, NOTIFICATION_TEXT.slaBreached, 'error']]);
    expect(await alertsOf(fresh)).toEqual([[supervisorId, NOTIFICATION_TEXT.slaAtRisk, 'warning']]);
    const sent = iso('2026-11-23T12:05');
    expect(await alertRowsOf(waited)).toEqual([
      { threshold: 'breached', notify_at: iso('2026-11-23T09:00'), sent_at: sent },
    ]);
    expect(await alertRowsOf(fresh)).toEqual([{ threshold: 'at_risk', notify_at: sent, sent_at: sent }]);
  });

  it('drops a waiting alert of a ticket resolved before the calendar opened', async () => {
    now = mx('2026-11-20T14:00');
    const id = await create();
    now = mx('2026-11-20T18:30');
    await sweep();
    const body = { ...ticketBody('Montacargas sin frenos', 'Urgente'), priority_type_id: URGENTE, status_id: RESUELTO };
    expect((await t.call(supervisor, 'PUT', `/api/tickets/update/${id}`, body)).statusCode).toBe(200);
    now = mx('2026-11-23T09:30');
    await sweep();
    expect(await alertsOf(id)).toEqual([]);
  });

  it('reads an index for every search of the sweep, never the whole table', async () => {
    const indexes = {
      staleOk: 'ticket_sla_watch_risk_idx',
      staleDue: 'ticket_sla_watch_breach_idx',
      unalertedAtRisk: 'ticket_sla_watch_risk_idx',
      unalertedDue: 'ticket_sla_watch_breach_idx',
      due: 'sla_alerts_pending_idx',
    } as const;
    for (const [search, index] of Object.entries(indexes)) {
      const plan = await t.services.slaAlerts.explain(search as keyof typeof indexes, new Date(now).toISOString());
      expect(plan, search).toContain(index);
      expect(plan, search).not.toMatch(
        dialect === 'postgres' ? /Seq Scan/ : /SCAN (tickets|ticket_sla_watch|sla_alerts|a|t|w)(?! USING)\b/,
      );
    }
    // And the four ticket searches as a round makes them, in one statement: each its own index.
    const plan = await t.services.slaAlerts.explain('tickets', new Date(now).toISOString());
    for (const index of Object.values(indexes).filter((i) => i.startsWith('ticket_sla_watch_')))
      expect(plan).toContain(index);
    // (SQLite's `SCAN s` reads a subquery's rows as the union takes them, not a table.)
    expect(plan).not.toMatch(dialect === 'postgres' ? /Seq Scan/ : /SCAN (tickets|ticket_sla_watch|t|w)(?! USING)\b/);
  });

  it("keeps each ticket's SLA clock columns in ticket_sla_watch, whoever writes the ticket", async () => {
    const columns = sql.raw(
      'sla_state, sla_alerted, sla_at_risk_at, resolution_due_at, resolved_at, sla_paused_at, resolution_due_sort, first_response_due_sort',
    );
    const both = async (id: number) => ({
      ticket: (await sql`select ${columns} from tickets where id = ${id}`.execute(db())).rows[0],
      watch: (await sql`select ${columns} from ticket_sla_watch where ticket_id = ${id}`.execute(db())).rows[0],
    });
    const id = await create();
    const created = await both(id);
    expect(created.ticket).toMatchObject({ sla_state: 'ok', sla_alerted: 0 });
    expect(created.watch).toEqual(created.ticket);
    // A data fix in SQL, outside the portal: the copy follows in the same statement.
    await sql`update tickets set sla_state = 'breached', sla_alerted = 2, resolution_due_at = ${iso('2026-11-20T10:00')}
      where id = ${id}`.execute(db());
    const fixed = await both(id);
    expect(fixed.ticket).toMatchObject({ sla_state: 'breached', sla_alerted: 2 });
    expect(fixed.watch).toEqual(fixed.ticket);
  });

  it.runIf(dialect === 'postgres')('skips a round while another process holds the sweep', async () => {
    const id = await create();
    now = mx('2026-11-18T13:05');
    await db()
      .connection()
      .execute(async (other) => {
        await sql`select pg_advisory_lock(${SWEEP_LOCK_KEY})`.execute(other);
        try {
          expect(await sweep()).toEqual({ ran: false, moved: 0, scheduled: 0, delivered: 0 });
          expect(await stateOf(id)).toBe('ok');
        } finally {
          await sql`select pg_advisory_unlock(${SWEEP_LOCK_KEY})`.execute(other);
        }
      });
    expect(await sweep()).toMatchObject({ ran: true });
    expect(await stateOf(id)).toBe('breached');
    expect(await alertsOf(id)).toEqual([[supervisorId, NOTIFICATION_TEXT.slaBreached, 'error']]);
  });

  it.runIf(dialect === 'postgres')('two processes sweeping at once send each alert once', async () => {
    const sibling = await createSiblingApp(t);
    try {
      sibling.services.clock.now = () => now;
      const ids = [await create(), await create(), await create()];
      for (const local of ['2026-11-18T12:01', '2026-11-18T12:02', '2026-11-18T13:00', '2026-11-18T13:05']) {
        now = mx(local);
        const results = await Promise.all([
          t.services.slaAlerts.runOnce(),
          sibling.services.slaAlerts.runOnce(),
          t.services.slaAlerts.runOnce(),
          sibling.services.slaAlerts.runOnce(),
        ]);
        expect(results.some((r) => r.ran)).toBe(true);
      }
      for (const id of ids) {
        expect(await alertsOf(id)).toEqual([
          [supervisorId, NOTIFICATION_TEXT.slaAtRisk, 'warning'],
          [supervisorId, NOTIFICATION_TEXT.slaBreached, 'error'],
        ]);
        expect(await breachEvents(id)).toHaveLength(1);
      }
    } finally {
      await sibling.close();
    }
  });
});
