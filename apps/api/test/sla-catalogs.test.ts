import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';

const nineToSix = [{ start: '09:00', end: '18:00' }];
const week = (day: { start: string; end: string }[]) => Array.from({ length: 7 }, (_, i) => (i < 5 ? day : []));

describe.each(dialects)('business calendars and SLA policies on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let supervisor: string;
  let agente: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, supervisor, agente] = await Promise.all([t.login('admin'), t.login('supervisor'), t.login('agente')]);
  });
  afterAll(() => t?.close());

  const count = async (table: 'business_calendars' | 'sla_policies') =>
    Number(
      (
        await t.services.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('seeds Horario corporativo with the rest days of 2026 and 2027, and Frontera', async () => {
    const res = await t.call(admin, 'POST', '/api/business-calendars', { per_page: 50 });
    expect(res.statusCode, res.body).toBe(200);
    const byName = Object.fromEntries(res.json().data.map((c: { name: string }) => [c.name, c]));
    const corporate = byName['Horario corporativo'];
    expect(corporate).toMatchObject({ time_zone: 'America/Mexico_City', week: week(nineToSix) });
    expect(corporate.holidays.map((h: { date: string }) => h.date)).toEqual([
      '2026-01-01',
      '2026-02-02',
      '2026-03-16',
      '2026-05-01',
      '2026-09-16',
      '2026-11-16',
      '2026-12-25',
      '2027-01-01',
      '2027-02-01',
      '2027-03-15',
      '2027-05-01',
      '2027-09-16',
      '2027-11-15',
      '2027-12-25',
    ]);
    expect(byName['Frontera']).toMatchObject({
      time_zone: 'America/Matamoros',
      week: [...Array(6).fill([{ start: '08:00', end: '17:00' }]), []],
      holidays: [],
    });
  });

  it('seeds a policy for each demo priority and En espera pauses the SLA', async () => {
    const res = await t.call(admin, 'POST', '/api/sla-policies', { per_page: 50 });
    const policies = res.json().data as { priority_type: { name: string }; area: null; calendar: { name: string } }[];
    expect(policies.map((p) => p.priority_type.name).sort()).toEqual(['Alta', 'Baja', 'Media', 'Urgente']);
    expect(policies.every((p) => p.area === null && p.calendar.name === 'Horario corporativo')).toBe(true);
    const statuses = (await t.call(admin, 'POST', '/api/ticket-statuses', { per_page: 50 })).json().data;
    const paused = statuses
      .filter((s: { pauses_sla: number }) => s.pauses_sla === 1)
      .map((s: { name: string }) => s.name);
    expect(paused).toEqual(['En espera']);
  });

  it('creates and updates a calendar with split days and holidays', async () => {
    const split = [
      { start: '09:00', end: '14:00' },
      { start: '15:00', end: '18:00' },
    ];
    const body = {
      name: 'Turno partido',
      time_zone: 'America/Monterrey',
      week: week(split),
      holidays: [{ date: '2026-12-24', name: 'Nochebuena' }],
    };
    const created = await t.call(admin, 'POST', '/api/business-calendars/create', body);
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json().data;
    expect(created.json().data).toMatchObject({ week: week(split), holidays: [{ date: '2026-12-24' }] });
    const updated = await t.call(admin, 'PUT', `/api/business-calendars/update/${id}`, { ...body, holidays: [] });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({ week: week(split), holidays: [] });
  });

  const badCalendars: [string, Record<string, unknown>, string, string][] = [
    [
      'overlapping intervals',
      {
        week: week([
          { start: '09:00', end: '14:00' },
          { start: '13:00', end: '18:00' },
        ]),
      },
      'week',
      'Los horarios de un mismo día no pueden traslaparse.',
    ],
    [
      'an end before a start',
      { week: week([{ start: '18:00', end: '09:00' }]) },
      'week',
      'La hora de fin debe ser posterior a la hora de inicio.',
    ],
    ['no working day', { week: week([]).map(() => []) }, 'week', 'El calendario debe tener al menos un día laborable.'],
    [
      'a holiday outside any year',
      { holidays: [{ date: '2026-02-30', name: 'Inventado' }] },
      'holidays',
      'El día festivo debe ser una fecha válida (AAAA-MM-DD) entre 2000 y 2100.',
    ],
    [
      'an unknown time zone',
      { time_zone: 'America/Atlantida' },
      'time_zone',
      'La zona horaria no es válida: use una zona IANA, por ejemplo America/Mexico_City.',
    ],
  ];

  it.each(badCalendars)(
    'refuses a calendar with %s (422 in Spanish) and writes nothing',
    async (_, bad, field, message) => {
      const before = await count('business_calendars');
      const res = await t.call(admin, 'POST', '/api/business-calendars/create', {
        name: 'Calendario malo',
        time_zone: 'America/Mexico_City',
        week: week(nineToSix),
        ...bad,
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toBe('Error de validación');
      expect(JSON.stringify(res.json().errors)).toContain(message);
      expect(Object.keys(res.json().errors).some((k) => k.startsWith(field))).toBe(true);
      expect(await count('business_calendars')).toBe(before);
    },
  );

  it('creates an area policy beside the priority one, and refuses a second for the same priority and area', async () => {
    const priorities = (await t.call(admin, 'GET', '/api/priority-types/active-records')).json().data;
    const urgent = priorities.find((p: { name: string }) => p.name === 'Urgente').id;
    const areas = (await t.call(admin, 'GET', '/api/areas/active-records')).json().data;
    const calendars = (await t.call(admin, 'GET', '/api/business-calendars/active-records')).json().data;
    const body = {
      name: 'Urgente Aduanas',
      priority_type_id: urgent,
      area_id: areas[0].id,
      calendar_id: calendars[0].id,
      first_response_minutes: 15,
      resolution_minutes: 120,
    };
    const res = await t.call(admin, 'POST', '/api/sla-policies/create', body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ area: { id: areas[0].id }, resolution_minutes: 120 });
    const again = await t.call(admin, 'POST', '/api/sla-policies/create', { ...body, name: 'Otra Urgente Aduanas' });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors).toMatchObject({ area_id: ['Ya existe un registro con este valor.'] });
    // Urgente for any area already exists (seeded).
    const anyArea = await t.call(admin, 'POST', '/api/sla-policies/create', {
      ...body,
      name: 'Urgente general',
      area_id: null,
    });
    expect(anyArea.statusCode).toBe(422);
    expect(anyArea.json().errors).toMatchObject({ priority_type_id: ['Ya existe un registro con este valor.'] });
  });

  it.each([
    ['0', 0, 'El objetivo debe ser de al menos 1 minuto.'],
    ['over 10 years', 10 * 365 * 24 * 60 + 1, 'El objetivo no puede superar 10 años.'],
  ])('refuses a target of %s and writes nothing', async (_, minutes, message) => {
    const before = await count('sla_policies');
    const res = await t.call(admin, 'POST', '/api/sla-policies/create', {
      name: 'Objetivo malo',
      priority_type_id: 1,
      area_id: 1,
      calendar_id: 1,
      first_response_minutes: 30,
      resolution_minutes: minutes,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ resolution_minutes: [message] });
    expect(await count('sla_policies')).toBe(before);
  });

  it('a supervisor reads both catalogues but may not write them; an agent may not read them', async () => {
    expect((await t.call(supervisor, 'POST', '/api/sla-policies', {})).statusCode).toBe(200);
    expect((await t.call(supervisor, 'POST', '/api/business-calendars', {})).statusCode).toBe(200);
    const write = await t.call(supervisor, 'POST', '/api/business-calendars/create', {
      name: 'Del supervisor',
      time_zone: 'UTC',
      week: week(nineToSix),
    });
    expect(write.statusCode).toBe(403);
    expect((await t.call(agente, 'POST', '/api/sla-policies', {})).statusCode).toBe(403);
    expect((await t.call(agente, 'GET', '/api/business-calendars/active-records')).statusCode).toBe(403);
  });
});
