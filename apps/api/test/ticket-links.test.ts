import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

describe.each(dialects)('ticket relations on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let agente: string;
  const db = () => t.services.database.db;

  const create = async (token: string, name: string) => {
    const res = await t.call(token, 'POST', '/api/tickets/create', ticketBody(name, `Descripción de ${name}`));
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; name: string };
  };
  const link = (token: string, id: number, relation: string, other: number) =>
    t.call(token, 'POST', `/api/tickets/${id}/links`, { relation, ticket_id: other });
  const linksOf = async (token: string, id: number) => {
    const res = await t.call(token, 'GET', `/api/tickets/${id}/links`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      data: { id: number; relation: string; ticket: { id: number; name: string; visible: boolean } }[];
      children: { total: number; resolved: number };
      can_edit: boolean;
    };
  };
  const statusId = async (name: string) =>
    (await db().selectFrom('ticket_statuses').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const linkCount = async () =>
    Number(
      (
        await db()
          .selectFrom('ticket_links')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const update = (token: string, id: number, name: string, status: number, extra: object = {}) =>
    t.call(token, 'PUT', `/api/tickets/update/${id}`, {
      ...ticketBody(name, `Descripción de ${name}`),
      status_id: status,
      ...extra,
    });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, agente] = await Promise.all([t.login('admin'), t.login('agente')]);
  });
  afterAll(() => t?.close());

  it('links a parent and its children, read from both ends, with the children’s progress and timeline events', async () => {
    const parent = await create(admin, 'Cámara fría de Monterrey sin energía');
    const a = await create(admin, 'Revisar planta de emergencia');
    const b = await create(admin, 'Reubicar producto perecedero');
    expect((await link(admin, parent.id, 'child', a.id)).statusCode).toBe(201);
    const added = await link(admin, b.id, 'parent', parent.id);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().message).toBe('Relación agregada.');

    const ofParent = await linksOf(admin, parent.id);
    expect(ofParent.data.map((l) => [l.relation, l.ticket.id])).toEqual([
      ['child', a.id],
      ['child', b.id],
    ]);
    expect(ofParent.children).toEqual({ total: 2, resolved: 0 });
    expect(ofParent.can_edit).toBe(true);
    expect((await linksOf(admin, a.id)).data).toEqual([
      expect.objectContaining({
        relation: 'parent',
        ticket: expect.objectContaining({ id: parent.id, name: parent.name, visible: true }),
      }),
    ]);

    await update(admin, a.id, a.name, await statusId('Resuelto'));
    expect((await linksOf(admin, parent.id)).children).toEqual({ total: 2, resolved: 1 });

    const page = (await t.call(admin, 'GET', `/api/tickets/${b.id}`)).json().data;
    expect(page.events.at(-1)).toMatchObject({
      kind: 'linked',
      field: 'parent',
      to_value: `#${parent.id} ${parent.name}`,
    });
  });

  it('refuses cycles, a second parent, a second original, a link to itself and a pair linked twice, writing nothing', async () => {
    const [x, y, z, w] = [
      await create(admin, 'Ticket X'),
      await create(admin, 'Ticket Y'),
      await create(admin, 'Ticket Z'),
      await create(admin, 'Ticket W'),
    ];
    expect((await link(admin, x.id, 'child', y.id)).statusCode).toBe(201);
    expect((await link(admin, y.id, 'child', z.id)).statusCode).toBe(201);
    expect((await link(admin, w.id, 'duplicate_of', x.id)).statusCode).toBe(201);
    const before = await linkCount();

    const refusals: [number, string, number, string][] = [
      [z.id, 'child', x.id, 'La relación formaría un ciclo: un ticket no puede ser su propio antecesor.'],
      [x.id, 'parent', z.id, 'La relación formaría un ciclo: un ticket no puede ser su propio antecesor.'],
      [x.id, 'duplicate_of', w.id, 'Estos tickets ya están relacionados.'],
      [z.id, 'parent', w.id, 'El ticket hijo ya tiene un ticket padre.'],
      [w.id, 'duplicate_of', z.id, 'El ticket ya está marcado como duplicado de otro.'],
      [x.id, 'related', x.id, 'Un ticket no puede relacionarse consigo mismo.'],
      [y.id, 'related', x.id, 'Estos tickets ya están relacionados.'],
      [x.id, 'related', 99_999_999, 'El ticket indicado no existe.'],
    ];
    for (const [id, relation, other, message] of refusals) {
      const res = await link(admin, id, relation, other);
      expect(res.statusCode, `${id} ${relation} ${other}`).toBe(422);
      expect(res.json().errors.ticket_id).toEqual([message]);
    }
    // A duplicate chain may not loop either.
    const v = await create(admin, 'Ticket V');
    expect((await link(admin, x.id, 'duplicate_of', v.id)).statusCode).toBe(201);
    const loop = await link(admin, v.id, 'duplicate_of', w.id);
    expect(loop.statusCode).toBe(422);
    expect(loop.json().errors.ticket_id).toEqual([
      'La relación formaría un ciclo: un ticket no puede ser su propio antecesor.',
    ]);
    expect(await linkCount()).toBe(before + 1);

    const bad = await t.call(admin, 'POST', `/api/tickets/${x.id}/links`, { relation: 'abuelo', ticket_id: y.id });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['relation']);
  });

  it('removes a link from either end; a link of another ticket is not found', async () => {
    const p = await create(admin, 'Ticket con relacion');
    const q = await create(admin, 'Ticket relacionado');
    const other = await create(admin, 'Ticket ajeno');
    expect((await link(admin, q.id, 'related', p.id)).statusCode).toBe(201);
    const [rel] = (await linksOf(admin, p.id)).data;
    expect(rel).toMatchObject({ relation: 'related', ticket: { id: q.id } });
    expect((await t.call(admin, 'DELETE', `/api/tickets/${other.id}/links/${rel!.id}`)).statusCode).toBe(404);
    const removed = await t.call(admin, 'DELETE', `/api/tickets/${q.id}/links/${rel!.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await linksOf(admin, p.id)).data).toEqual([]);
    expect((await t.call(admin, 'GET', `/api/tickets/${p.id}`)).json().data.events.at(-1)).toMatchObject({
      kind: 'unlinked',
      from_value: `#${q.id}`,
    });
  });

  it('closing a parent with open children answers 409 listing them unless confirmed; closed children do not hold it', async () => {
    const parent = await create(admin, 'Incidente padre');
    const open = await create(admin, 'Hijo abierto');
    const done = await create(admin, 'Hijo resuelto');
    await link(admin, parent.id, 'child', open.id);
    await link(admin, parent.id, 'child', done.id);
    const resolved = await statusId('Resuelto');
    await update(admin, done.id, done.name, resolved);

    const refused = await update(admin, parent.id, 'Incidente padre cerrado', resolved);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({
      status: false,
      message: `El ticket tiene tickets hijos abiertos: #${open.id}. Confirma para cerrarlo.`,
      errors: { open_children: [`#${open.id} Hijo abierto`] },
    });
    const unchanged = await db()
      .selectFrom('tickets')
      .select(['name', 'status_id'])
      .where('id', '=', parent.id)
      .executeTakeFirstOrThrow();
    expect(unchanged).toEqual({ name: 'Incidente padre', status_id: await statusId('Abierto') });

    // Other edits of an open parent are not held.
    expect((await update(admin, parent.id, 'Incidente padre editado', await statusId('En progreso'))).statusCode).toBe(
      200,
    );
    const confirmed = await update(admin, parent.id, 'Incidente padre cerrado', resolved, {
      close_with_open_children: true,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data.status_id).toBe(resolved);

    const lone = await create(admin, 'Padre con hijos cerrados');
    const child = await create(admin, 'Otro hijo');
    await link(admin, lone.id, 'child', child.id);
    await update(admin, child.id, child.name, resolved);
    expect((await update(admin, lone.id, lone.name, resolved)).statusCode).toBe(200);
  });

  it('refuses the relations of a ticket the caller may not see or update, and links to a ticket they may not see', async () => {
    const foreign = await create(admin, 'Ticket de administracion');
    const mine = await create(agente, 'Ticket del agente');
    const another = await create(agente, 'Otro ticket del agente');

    expect((await t.call(agente, 'GET', `/api/tickets/${foreign.id}/links`)).statusCode).toBe(403);
    expect((await link(agente, foreign.id, 'related', mine.id)).statusCode).toBe(403);
    const hidden = await link(agente, mine.id, 'related', foreign.id);
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json().message).toBe('No tienes permiso para ver el ticket indicado.');
    expect((await t.call(null, 'GET', `/api/tickets/${mine.id}/links`)).statusCode).toBe(401);

    // Linked by someone who sees both, the agent sees the foreign ticket's number and status, not its name.
    expect((await link(admin, mine.id, 'related', foreign.id)).statusCode).toBe(201);
    const seen = await linksOf(agente, mine.id);
    expect(seen.data[0]!.ticket).toMatchObject({ id: foreign.id, name: '', visible: false });
    const foreignLink = seen.data[0]!.id;
    expect((await t.call(agente, 'DELETE', `/api/tickets/${foreign.id}/links/${foreignLink}`)).statusCode).toBe(403);

    expect((await link(agente, mine.id, 'child', another.id)).statusCode).toBe(201);
    const section = db().selectFrom('sections').select('id').where('name', '=', 'tickets_main');
    await db()
      .updateTable('sections_permission')
      .set({ u: 0 })
      .where('role_id', '=', 3)
      .where('section_id', '=', section)
      .execute();
    t.services.permissions.invalidate();
    try {
      expect((await link(agente, mine.id, 'related', another.id)).statusCode).toBe(403);
      expect((await t.call(agente, 'DELETE', `/api/tickets/${mine.id}/links/${foreignLink}`)).statusCode).toBe(403);
      expect((await linksOf(agente, mine.id)).can_edit).toBe(false);
    } finally {
      await db()
        .updateTable('sections_permission')
        .set({ u: 1 })
        .where('role_id', '=', 3)
        .where('section_id', '=', section)
        .execute();
      t.services.permissions.invalidate();
    }
    expect((await linksOf(agente, mine.id)).data).toHaveLength(2);
  });
});
