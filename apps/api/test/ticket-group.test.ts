import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

/** A ticket's group: written by the form, shown on the ticket and its rows, filtered, and in the timeline. */
describe.each(dialects)('the group of a ticket on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let almacen: number;
  let flota: number;
  let closed: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.login('admin');
    const create = async (name: string) =>
      ((await t.call(admin, 'POST', '/api/groups/create', { name })).json() as { data: { id: number } }).data.id;
    [almacen, flota, closed] = [
      await create('Almacén'),
      await create('Flota Refrigerada'),
      await create('Cerrado Nocturno'),
    ];
    await t.call(admin, 'PATCH', `/api/groups/${closed}/change-status`, { status_id: 2 });
  });
  afterAll(() => t?.close());

  const list = async (filters: object) =>
    (await t.call(admin, 'POST', '/api/general-tickets', { page: 1, per_page: 50, filters })).json() as {
      data: { id: number; group_id: number | null; group: { id: number; name: string } | null }[];
    };

  it('creates a ticket with a group, shows it on the ticket and its rows, and filters by it (none too)', async () => {
    const res = await t.call(admin, 'POST', '/api/tickets/create', {
      ...ticketBody('Cámara fría sin temperatura', 'La cámara 3 marca 12 grados'),
      group_id: almacen,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as number;
    expect(res.json().data).toMatchObject({ group_id: almacen, group: { id: almacen, name: 'Almacén' } });
    const none = await t.call(admin, 'POST', '/api/tickets/create', ticketBody('Sin equipo', 'Nadie lo atiende'));
    expect(none.json().data).toMatchObject({ group_id: null, group: null });

    const page = await t.call(admin, 'GET', `/api/tickets/${id}`);
    expect(page.json().data.group).toEqual({ id: almacen, name: 'Almacén' });
    const inGroup = await list({ group_id: [almacen] });
    expect(inGroup.data.map((x) => x.id)).toEqual([id]);
    expect(inGroup.data[0]!.group).toEqual({ id: almacen, name: 'Almacén' });
    const withoutGroup = await list({ group_id: [null] });
    expect(withoutGroup.data.map((x) => x.id)).toContain(none.json().data.id);
    expect(withoutGroup.data.every((x) => x.group_id === null)).toBe(true);
  });

  it('writes a change of group to the timeline by names, and keeps the group when an edit leaves it out', async () => {
    const created = await t.call(admin, 'POST', '/api/tickets/create', {
      ...ticketBody('Rampa dañada', 'La rampa del andén 2 no baja'),
      group_id: almacen,
    });
    const id = created.json().data.id as number;
    const edit = await t.call(admin, 'PUT', `/api/tickets/update/${id}`, {
      ...ticketBody('Rampa dañada', 'La rampa del andén 2 no baja'),
      group_id: flota,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().data.group).toEqual({ id: flota, name: 'Flota Refrigerada' });
    // Left out: the group stays.
    const kept = await t.call(admin, 'PUT', `/api/tickets/update/${id}`, ticketBody('Rampa dañada', 'Ya no baja'));
    expect(kept.json().data.group_id).toBe(flota);
    const cleared = await t.call(admin, 'PUT', `/api/tickets/update/${id}`, {
      ...ticketBody('Rampa dañada', 'Ya no baja'),
      group_id: null,
    });
    expect(cleared.json().data.group).toBeNull();
    const events = (await t.call(admin, 'GET', `/api/tickets/${id}`)).json().data.events as {
      kind: string;
      field: string | null;
      from_value: string;
      to_value: string;
    }[];
    expect(events.filter((e) => e.field === 'group_id').map((e) => [e.kind, e.from_value, e.to_value])).toEqual([
      ['edited', 'Almacén', 'Flota Refrigerada'],
      ['edited', 'Flota Refrigerada', 'Sin grupo'],
    ]);
    // The index follows the change: the ticket is now among those without a group.
    expect((await list({ group_id: [flota] })).data.map((x) => x.id)).not.toContain(id);
    expect((await list({ group_id: [null] })).data.map((x) => x.id)).toContain(id);
  });

  it('refuses an inactive or unknown group with a Spanish 422 and writes nothing', async () => {
    const count = async () =>
      Number(
        (
          await t.services.database.db
            .selectFrom('tickets')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    for (const group_id of [closed, 999_999]) {
      const res = await t.call(admin, 'POST', '/api/tickets/create', {
        ...ticketBody('Con grupo', 'Inactivo'),
        group_id,
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toEqual({ group_id: ['El valor seleccionado no existe o está inactivo.'] });
    }
    const bad = await t.call(admin, 'POST', '/api/tickets/create', {
      ...ticketBody('Con grupo', 'Texto'),
      group_id: 'x',
    });
    expect(bad.statusCode).toBe(422);
    expect(await count()).toBe(before);
  });
});
