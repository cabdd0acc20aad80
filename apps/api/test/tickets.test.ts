import { isClean, TICKET_TEXT_RULE } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';

const form = {
  name: 'Revisar rampa del andén 7',
  description: 'La rampa hidráulica del andén 7 no sube por completo',
  area_id: 1,
  project_id: '1',
  category_id: 1,
  priority_type_id: 3,
  difficulty_id: 2,
  status_id: 1,
};

describe.each(dialects)('tickets on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let supervisor: string;
  let agente: string;
  let lmartinez: string;
  const ids: Record<string, number> = {};

  const db = () => t.services.database.db;
  const idOf = (username: string) => ids[username]!;
  const notificationsOf = (userId: number) =>
    db().selectFrom('notifications').selectAll().where('user_id', '=', userId).orderBy('id').execute();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, supervisor, agente, lmartinez] = (await Promise.all(
      ['admin', 'supervisor', 'agente', 'lmartinez'].map((u) => t.login(u)),
    )) as [string, string, string, string];
    for (const u of await db().selectFrom('users').select(['id', 'username']).execute()) ids[u.username] = u.id;
  });
  afterAll(() => t?.close());

  it('seeds about 60 demo tickets across statuses, priorities, areas and users, with activities', async () => {
    const tickets = await db().selectFrom('tickets').selectAll().execute();
    expect(tickets.length).toBeGreaterThanOrEqual(55);
    expect(tickets.length).toBeLessThanOrEqual(65);
    const distinct = (f: (x: (typeof tickets)[number]) => unknown) => new Set(tickets.map(f)).size;
    expect(distinct((x) => x.status_id)).toBeGreaterThanOrEqual(5);
    expect(distinct((x) => x.priority_type_id)).toBe(4);
    expect(distinct((x) => x.area_id)).toBeGreaterThanOrEqual(6);
    expect(distinct((x) => x.user_assigned_id)).toBeGreaterThanOrEqual(5);
    expect(tickets.some((x) => x.user_assigned_id === null)).toBe(true);
    for (const x of tickets) {
      // Saving a seeded ticket from the edit modal must pass the form's rules.
      expect(isClean(TICKET_TEXT_RULE, x.name), x.name).toBe(true);
      expect(isClean(TICKET_TEXT_RULE, x.description), x.description).toBe(true);
    }
    const activities = await db().selectFrom('activities').select(['ticket_id', 'user_id', 'status_id']).execute();
    expect(activities.length).toBeGreaterThan(30);
    const byTicket = new Map(tickets.map((x) => [x.id, x]));
    for (const a of activities) expect(a.user_id).toBe(byTicket.get(a.ticket_id)!.user_assigned_id);
  });

  describe('Mis Tickets', () => {
    it('lists the tickets the caller created or is assigned to, newest first, with the names of their catalogue values and users', async () => {
      const me = idOf('agente');
      const expected = await db()
        .selectFrom('tickets')
        .select('id')
        .where((eb) => eb.or([eb('created_by', '=', me), eb('user_assigned_id', '=', me)]))
        .orderBy('id', 'desc')
        .execute();
      expect(expected.length).toBeGreaterThan(10);
      const res = await t.call(agente, 'POST', '/api/tickets', { page: 1, per_page: 10, search: '' });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.status).toBe(true);
      expect(body.meta).toEqual({
        total: expected.length,
        current_page: 1,
        last_page: Math.ceil(expected.length / 10),
        per_page: 10,
      });
      expect(body.data.map((x: { id: number }) => x.id)).toEqual(expected.slice(0, 10).map((x) => x.id));
      const first = body.data[0];
      expect(first).toMatchObject({
        priorities: { name: expect.any(String) },
        status_tickets: { name: expect.any(String), stage: expect.stringMatching(/^(open|started|closed)$/) },
        projects: { name: expect.any(String) },
        users: { id: expect.any(Number), name: expect.any(String) },
      });
      expect(typeof first.created_at).toBe('string');
      expect(Number.isNaN(Date.parse(first.created_at))).toBe(false);
      for (const ticket of body.data) {
        expect(ticket.created_by === me || ticket.user_assigned_id === me).toBe(true);
        if (ticket.user_assigned_id !== null) expect(ticket.assigned_to.id).toBe(ticket.user_assigned_id);
      }
    });

    it('pages in the database: pages are disjoint and the last one holds the rest', async () => {
      const first = (await t.call(agente, 'POST', '/api/tickets', { page: 1, per_page: 5 })).json();
      const second = (await t.call(agente, 'POST', '/api/tickets', { page: 2, per_page: 5 })).json();
      const last = (await t.call(agente, 'POST', '/api/tickets', { page: first.meta.last_page, per_page: 5 })).json();
      const firstIds = first.data.map((x: { id: number }) => x.id);
      expect(second.data.map((x: { id: number }) => x.id).some((id: number) => firstIds.includes(id))).toBe(false);
      expect(Math.max(...second.data.map((x: { id: number }) => x.id))).toBeLessThan(Math.min(...firstIds));
      expect(last.data).toHaveLength(first.meta.total - (first.meta.last_page - 1) * 5);
      const beyond = (await t.call(agente, 'POST', '/api/tickets', { page: 999, per_page: 5 })).json();
      expect(beyond.data).toEqual([]);
      expect(beyond.meta.total).toBe(first.meta.total);
    });

    it('searches name and description, case-insensitively, with wildcards taken literally', async () => {
      const byName = (
        await t.call(admin, 'POST', '/api/general-tickets', { per_page: 100, search: 'MONTACARGAS' })
      ).json();
      expect(byName.meta.total).toBeGreaterThan(0);
      for (const x of byName.data) expect(`${x.name} ${x.description}`.toLowerCase()).toContain('montacargas');

      const byDescription = (
        await t.call(admin, 'POST', '/api/general-tickets', { per_page: 100, search: 'conteo cíclico' })
      ).json();
      expect(byDescription.meta.total).toBeGreaterThan(0);
      for (const x of byDescription.data) expect(x.name).not.toContain('conteo');

      const wildcard = (await t.call(admin, 'POST', '/api/general-tickets', { search: '%' })).json();
      expect(wildcard.meta.total).toBe(0);
      expect(wildcard.data).toEqual([]);

      const mine = (await t.call(agente, 'POST', '/api/tickets', { per_page: 100, search: 'andén' })).json();
      const me = idOf('agente');
      for (const x of mine.data) {
        expect(x.created_by === me || x.user_assigned_id === me).toBe(true);
        expect(`${x.name} ${x.description}`).toContain('andén');
      }
    });

    it('answers bad list input with a Spanish 422 and no session with 401', async () => {
      const bad = await t.call(agente, 'POST', '/api/tickets', { page: 0, per_page: 1000, search: 'x'.repeat(101) });
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().errors).sort()).toEqual(['page', 'per_page', 'search']);
      expect((await t.call(null, 'POST', '/api/tickets', {})).statusCode).toBe(401);
    });
  });

  describe('Tickets Generales', () => {
    it('shows every ticket to a role with gt_main and refuses the agent', async () => {
      const { total } = await db()
        .selectFrom('tickets')
        .select((eb) => eb.fn.countAll().as('total'))
        .executeTakeFirstOrThrow();
      const res = await t.call(supervisor, 'POST', '/api/general-tickets', { page: 1, per_page: 7 });
      expect(res.statusCode).toBe(200);
      expect(res.json().meta.total).toBe(Number(total));
      expect(res.json().data).toHaveLength(7);
      const refused = await t.call(agente, 'POST', '/api/general-tickets', { page: 1, per_page: 7 });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ status: false, message: expect.stringMatching(/permiso/) });
    });
  });

  describe('create and update', () => {
    let ticketId: number;

    it('creates a ticket whose creator is the caller, whatever the body says', async () => {
      const res = await t.call(agente, 'POST', '/api/tickets/create', { ...form, created_by: 1, user_assigned_id: 1 });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({ status: true, message: 'Ticket creado exitosamente.' });
      expect(body.data).toMatchObject({
        name: form.name,
        created_by: idOf('agente'),
        user_assigned_id: null,
        assigned_to: null,
        project_id: 1,
        status_tickets: { name: 'Abierto', stage: 'open' },
      });
      ticketId = body.data.id;
      const mine = (await t.call(agente, 'POST', '/api/tickets', { page: 1, per_page: 5 })).json();
      expect(mine.data[0].id).toBe(ticketId);
    });

    it('refuses invalid fields with 422 and field errors, never 500', async () => {
      const res = await t.call(agente, 'POST', '/api/tickets/create', {
        ...form,
        name: 'Falla "grave"',
        description: '',
        area_id: 'abc',
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('Error de validación');
      expect(Object.keys(res.json().errors).sort()).toEqual(['area_id', 'description', 'name']);

      const missing = await t.call(agente, 'POST', '/api/tickets/create', { name: 'Solo nombre' });
      expect(missing.statusCode).toBe(422);
      expect(Object.keys(missing.json().errors)).toEqual(
        expect.arrayContaining(['description', 'area_id', 'project_id', 'status_id']),
      );

      const unknown = await t.call(agente, 'POST', '/api/tickets/create', { ...form, area_id: 9999, status_id: 9999 });
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().errors).toEqual({
        area_id: ['El valor seleccionado no existe o está inactivo.'],
        status_id: ['El valor seleccionado no existe o está inactivo.'],
      });
    });

    it('accepts the safe punctuation and logistics references in name and description, and still refuses other symbols', async () => {
      const text = {
        name: 'Cámara fría de Monterrey sin energía, EMB-004512',
        description: 'Embarque EMB-004512; placa ABC-123-D. Guía: 123456789012_a',
      };
      const created = await t.call(agente, 'POST', '/api/tickets/create', { ...form, ...text });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data).toMatchObject(text);
      const id = created.json().data.id;
      const edited = await t.call(agente, 'PUT', `/api/tickets/update/${id}`, {
        ...form,
        ...text,
        description: 'Revisado: sin novedad.',
      });
      expect(edited.statusCode, edited.body).toBe(200);
      for (const bad of ['Falla <b>', 'Costo $100', 'a/b', 'nota #1', 'x@y', 'Falla "grave"']) {
        const res = await t.call(agente, 'PUT', `/api/tickets/update/${id}`, { ...form, name: bad, description: bad });
        expect(res.statusCode, bad).toBe(422);
        expect(res.json().errors.name).toEqual(['Solo se permiten letras, números, espacios y . , ; : _ -']);
      }
      const row = await db()
        .selectFrom('tickets')
        .select(['name', 'description'])
        .where('id', '=', id)
        .executeTakeFirst();
      expect(row).toEqual({ name: text.name, description: 'Revisado: sin novedad.' });
    });

    it('refuses an inactive catalogue value on create but lets a ticket keep one it already has', async () => {
      const ticketsNow = async () =>
        Number(
          (
            await db()
              .selectFrom('tickets')
              .select((eb) => eb.fn.countAll<number | string>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await ticketsNow();
      await db().updateTable('areas').set({ status_id: 2 }).where('id', '=', 1).execute();
      try {
        const create = await t.call(agente, 'POST', '/api/tickets/create', form);
        expect(create.statusCode).toBe(422);
        expect(Object.keys(create.json().errors)).toEqual(['area_id']);
        // An id without a row at all is refused the same way, with the inactive one beside it.
        const unknown = await t.call(agente, 'POST', '/api/tickets/create', { ...form, difficulty_id: 999_999 });
        expect(unknown.statusCode).toBe(422);
        expect(Object.keys(unknown.json().errors).sort()).toEqual(['area_id', 'difficulty_id']);
        expect(await ticketsNow()).toBe(before);
        const keep = await t.call(agente, 'PUT', `/api/tickets/update/${ticketId}`, {
          ...form,
          name: 'Rampa del andén 7',
        });
        expect(keep.statusCode, keep.body).toBe(200);
      } finally {
        await db().updateTable('areas').set({ status_id: 1 }).where('id', '=', 1).execute();
      }
    });

    it('lets the creator edit their ticket and refuses an agent it does not involve', async () => {
      const res = await t.call(agente, 'PUT', `/api/tickets/update/${ticketId}`, {
        ...form,
        name: 'Rampa del andén 7 atorada',
        priority_type_id: 4,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: true, message: 'Ticket actualizado exitosamente.' });
      expect(res.json().data).toMatchObject({ name: 'Rampa del andén 7 atorada', priority_type_id: 4 });

      const other = await t.call(lmartinez, 'PUT', `/api/tickets/update/${ticketId}`, form);
      expect(other.statusCode).toBe(403);
      const stored = await db()
        .selectFrom('tickets')
        .select('name')
        .where('id', '=', ticketId)
        .executeTakeFirstOrThrow();
      expect(stored.name).toBe('Rampa del andén 7 atorada');

      const general = await t.call(supervisor, 'PUT', `/api/tickets/update/${ticketId}`, { ...form, status_id: 2 });
      expect(general.statusCode).toBe(200);
      expect(general.json().data.status_tickets.stage).toBe('started');
    });

    it('requires the CSRF header on update and answers 404 for an unknown ticket', async () => {
      const noCsrf = await t.app.inject({
        method: 'PUT',
        url: `/api/tickets/update/${ticketId}`,
        headers: { authorization: `Bearer ${admin}` },
        payload: form,
      });
      expect(noCsrf.statusCode).toBe(403);
      const missing = await t.call(admin, 'PUT', '/api/tickets/update/999999', form);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe('El ticket no existe.');
    });

    it('notifies the creator when someone else changes the status, never the actor', async () => {
      const before = await notificationsOf(idOf('agente'));
      await t.call(supervisor, 'PUT', `/api/tickets/update/${ticketId}`, { ...form, status_id: 4 });
      const after = await notificationsOf(idOf('agente'));
      expect(after.length).toBe(before.length + 1);
      expect(after.at(-1)).toMatchObject({ ticket_id: ticketId, title: `Ticket #${ticketId}` });

      const supervisorBefore = await notificationsOf(idOf('supervisor'));
      await t.call(agente, 'PUT', `/api/tickets/update/${ticketId}`, { ...form, status_id: 1 });
      expect(await notificationsOf(idOf('agente'))).toHaveLength(after.length);
      expect(await notificationsOf(idOf('supervisor'))).toHaveLength(supervisorBefore.length);
    });
  });

  describe('assignment', () => {
    let ticketId: number;

    beforeAll(async () => {
      ticketId = (await t.call(admin, 'POST', '/api/tickets/create', form)).json().data.id;
    });

    it('assigns a ticket and creates exactly one notification, for the assignee only', async () => {
      const before = await db()
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const res = await t.call(admin, 'PATCH', `/api/tickets/${ticketId}/assign/${idOf('agente')}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: true, message: 'Ticket asignado' });
      expect(res.json().data).toMatchObject({ user_assigned_id: idOf('agente'), assigned_to: { id: idOf('agente') } });

      const created = await db().selectFrom('notifications').selectAll().where('ticket_id', '=', ticketId).execute();
      expect(created).toHaveLength(1);
      expect(created[0]).toMatchObject({
        user_id: idOf('agente'),
        title: `Ticket #${ticketId}`,
        message: 'Se te ha asignado un nuevo ticket',
        type: 'info',
      });
      const after = await db()
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n) + 1);

      const mine = (await t.call(agente, 'POST', '/api/tickets', { page: 1, per_page: 5 })).json();
      expect(mine.data.map((x: { id: number }) => x.id)).toContain(ticketId);
    });

    it('refuses assigning the current assignee again (409) and leaves no notification', async () => {
      const res = await t.call(admin, 'PATCH', `/api/tickets/${ticketId}/assign/${idOf('agente')}`);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('El ticket ya está asignado a este usuario.');
      const rows = await db().selectFrom('notifications').select('id').where('ticket_id', '=', ticketId).execute();
      expect(rows).toHaveLength(1);
    });

    it('never notifies the actor of their own assignment', async () => {
      const own = (await t.call(supervisor, 'POST', '/api/tickets/create', form)).json().data.id;
      const res = await t.call(supervisor, 'PATCH', `/api/tickets/${own}/assign/${idOf('supervisor')}`);
      expect(res.statusCode).toBe(200);
      const rows = await db().selectFrom('notifications').select('id').where('ticket_id', '=', own).execute();
      expect(rows).toHaveLength(0);
    });

    it('changing the assignee needs u; an agent may reassign only tickets that involve them', async () => {
      // agente holds tickets_main w and u and is the assignee: may hand it over.
      const handOver = await t.call(agente, 'PATCH', `/api/tickets/${ticketId}/assign/${idOf('lmartinez')}`);
      expect(handOver.statusCode, handOver.body).toBe(200);
      const note = await notificationsOf(idOf('lmartinez'));
      expect(note.at(-1)).toMatchObject({ ticket_id: ticketId, message: 'Se te ha asignado un nuevo ticket' });

      // Now it involves agente no more.
      const back = await t.call(agente, 'PATCH', `/api/tickets/${ticketId}/assign/${idOf('agente')}`);
      expect(back.statusCode).toBe(403);

      await db()
        .updateTable('sections_permission')
        .set({ u: 0 })
        .where('role_id', '=', 3)
        .where('section_id', '=', db().selectFrom('sections').select('id').where('name', '=', 'tickets_main'))
        .execute();
      t.services.permissions.invalidate();
      try {
        const reassign = await t.call(lmartinez, 'PATCH', `/api/tickets/${ticketId}/assign/${idOf('jcastillo')}`);
        expect(reassign.statusCode).toBe(403);
        expect(reassign.json().message).toBe('No tienes permiso para cambiar el usuario asignado.');
      } finally {
        await db()
          .updateTable('sections_permission')
          .set({ u: 1 })
          .where('role_id', '=', 3)
          .where('section_id', '=', db().selectFrom('sections').select('id').where('name', '=', 'tickets_main'))
          .execute();
        t.services.permissions.invalidate();
      }
      const stored = await db()
        .selectFrom('tickets')
        .select('user_assigned_id')
        .where('id', '=', ticketId)
        .executeTakeFirstOrThrow();
      expect(stored.user_assigned_id).toBe(idOf('lmartinez'));
    });

    it('refuses unknown or inactive users, unknown tickets and requests without CSRF', async () => {
      expect((await t.call(admin, 'PATCH', `/api/tickets/${ticketId}/assign/999999`)).statusCode).toBe(422);
      await db().updateTable('users').set({ status_id: 2 }).where('username', '=', 'mflores').execute();
      try {
        const inactive = await t.call(admin, 'PATCH', `/api/tickets/${ticketId}/assign/${idOf('mflores')}`);
        expect(inactive.statusCode).toBe(422);
        expect(inactive.json().errors.userId).toEqual(['El usuario seleccionado no existe o está inactivo.']);
      } finally {
        await db().updateTable('users').set({ status_id: 1 }).where('username', '=', 'mflores').execute();
      }
      expect((await t.call(admin, 'PATCH', `/api/tickets/999999/assign/${idOf('agente')}`)).statusCode).toBe(404);
      expect((await t.call(admin, 'PATCH', `/api/tickets/abc/assign/${idOf('agente')}`)).statusCode).toBe(422);
      const noCsrf = await t.app.inject({
        method: 'PATCH',
        url: `/api/tickets/${ticketId}/assign/${idOf('agente')}`,
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(noCsrf.statusCode).toBe(403);
    });

    it('lists assignable users page by page with a search', async () => {
      const page = await t.call(agente, 'POST', '/api/tickets/assignable-users', { page: 1, per_page: 5, search: '' });
      expect(page.statusCode).toBe(200);
      expect(page.json().data).toHaveLength(5);
      expect(page.json().meta.total).toBeGreaterThanOrEqual(6);
      expect(page.body).not.toMatch(/password|email/);
      const found = (
        await t.call(agente, 'POST', '/api/tickets/assignable-users', { page: 1, per_page: 5, search: 'castillo' })
      ).json();
      expect(found.data.map((u: { username: string }) => u.username)).toEqual(['jcastillo']);
    });
  });

  describe('history', () => {
    it('splits tickets by stage: current = not closed, old = closed', async () => {
      const all = await db()
        .selectFrom('tickets as t')
        .innerJoin('ticket_statuses as s', 's.id', 't.status_id')
        .select(['t.id', 's.stage'])
        .execute();
      const current = (await t.call(admin, 'POST', '/api/tickets/current', { page: 1, per_page: 100 })).json();
      const old = (await t.call(admin, 'POST', '/api/tickets/old', { page: 1, per_page: 100 })).json();
      expect(current.meta.total).toBe(all.filter((x) => x.stage !== 'closed').length);
      expect(old.meta.total).toBe(all.filter((x) => x.stage === 'closed').length);
      expect(old.meta.total).toBeGreaterThan(0);
      for (const x of current.data) expect(x.status_tickets.stage).not.toBe('closed');
      for (const x of old.data) expect(x.status_tickets.stage).toBe('closed');
    });

    it("shows an agent only their own tickets' history", async () => {
      const me = idOf('agente');
      const old = (await t.call(agente, 'POST', '/api/tickets/old', { page: 1, per_page: 100 })).json();
      const current = (await t.call(agente, 'POST', '/api/tickets/current', { page: 1, per_page: 100 })).json();
      const mine = (await t.call(agente, 'POST', '/api/tickets', { page: 1, per_page: 100 })).json();
      expect(old.meta.total + current.meta.total).toBe(mine.meta.total);
      for (const x of [...old.data, ...current.data]) {
        expect(x.created_by === me || x.user_assigned_id === me).toBe(true);
      }
    });

    it('checks each tab against its own section', async () => {
      await db()
        .updateTable('sections_permission')
        .set({ r: 0 })
        .where('role_id', '=', 3)
        .where('section_id', '=', db().selectFrom('sections').select('id').where('name', '=', 'old_tickets'))
        .execute();
      t.services.permissions.invalidate();
      try {
        expect((await t.call(agente, 'POST', '/api/tickets/old', {})).statusCode).toBe(403);
        expect((await t.call(agente, 'POST', '/api/tickets/current', {})).statusCode).toBe(200);
      } finally {
        await db()
          .updateTable('sections_permission')
          .set({ r: 1 })
          .where('role_id', '=', 3)
          .where('section_id', '=', db().selectFrom('sections').select('id').where('name', '=', 'old_tickets'))
          .execute();
        t.services.permissions.invalidate();
      }
    });
  });

  it('last-three answers an array of the caller’s three newest tickets', async () => {
    const res = await t.call(lmartinez, 'GET', '/api/tickets/last-three');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Array.isArray(body)).toBe(true);
    expect(body).toHaveLength(3);
    const mine = (await t.call(lmartinez, 'POST', '/api/tickets', { page: 1, per_page: 3 })).json();
    expect(body.map((x: { id: number }) => x.id)).toEqual(mine.data.map((x: { id: number }) => x.id));
    expect(body[0]).toMatchObject({
      description: expect.any(String),
      priorities: { name: expect.any(String) },
      difficulties: { name: expect.any(String) },
    });
  });
});
