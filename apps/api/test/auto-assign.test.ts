import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupsRepository } from '../src/modules/groups/groups.repository.ts';
import { createSiblingApp, createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

type Mode = 'manual' | 'round_robin' | 'least_loaded';

/**
 * Automatic assignment per group: Rotativa, Menor carga and Manual, the per-agent cap, absences,
 * the deferred assignment when a member frees capacity, the workload by group, bad input and
 * refusals; on PostgreSQL, tickets created at once through two processes.
 */
describe.each(dialects)('automatic assignment on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let supervisor: string;
  let agente: string;
  let closedStatus: number;
  let seq = 0;

  const db = () => t.services.database.db;

  /** A new agent (role Agente, password of the demo agents) with no tickets. */
  const newAgent = async (username: string) => {
    const base = await db().selectFrom('users').selectAll().where('username', '=', 'agente').executeTakeFirstOrThrow();
    const { id: _id, ...row } = base;
    const { id } = await db()
      .insertInto('users')
      .values({ ...row, username, email: `${username}@portal.local`, name: username, last_name: 'Prueba' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  };
  const newGroup = async (mode: Mode, members: number[], cap: number | null = null) => {
    seq += 1;
    const res = await t.call(admin, 'POST', '/api/groups/create', {
      name: `Equipo ${'abcdefghijklmnopqrstuvwxyz'[seq]}`,
      assignment_mode: mode,
      assignment_cap: cap,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as number;
    for (const user_id of members) {
      expect((await t.call(admin, 'POST', `/api/groups/${id}/members`, { user_id })).statusCode).toBe(201);
    }
    return id;
  };
  const newTicket = async (group_id: number, token = supervisor, app = t) => {
    const res = await app.call(token, 'POST', '/api/tickets/create', {
      ...ticketBody('Reparto', 'Automático'),
      group_id,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; user_assigned_id: number | null };
  };
  const assigneeOf = async (id: number) =>
    (await db().selectFrom('tickets').select('user_assigned_id').where('id', '=', id).executeTakeFirstOrThrow())
      .user_assigned_id;
  const autoEvents = (id: number) =>
    db()
      .selectFrom('ticket_events')
      .select(['from_value', 'to_value', 'user_id'])
      .where('ticket_id', '=', id)
      .where('kind', '=', 'auto_assigned')
      .execute();
  const openOf = async (userIds: number[]) => {
    const loads = await createGroupsRepository(t.services.database).openLoads(userIds);
    return userIds.map((u) => loads.get(u) ?? 0);
  };
  const login = (username: string, app = t) => app.login(username, 'PortalDemo1');

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, supervisor, agente] = await Promise.all([t.login('admin'), t.login('supervisor'), t.login('agente')]);
    closedStatus = (
      await db().selectFrom('ticket_statuses').select('id').where('stage', '=', 'closed').executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => t?.close());

  it('Menor carga gives the ticket to the member with fewest open tickets, with its reason and a notification', async () => {
    const [a, b] = [await newAgent('ana.menor'), await newAgent('beto.menor')];
    // a already holds one open ticket.
    const manual = await newGroup('manual', [a]);
    const held = await newTicket(manual);
    expect(held.user_assigned_id).toBeNull();
    expect((await t.call(admin, 'PATCH', `/api/tickets/${held.id}/assign/${a}`)).statusCode).toBe(200);

    const group = await newGroup('least_loaded', [a, b]);
    const first = await newTicket(group);
    expect(first.user_assigned_id).toBe(b);
    const [event] = await autoEvents(first.id);
    expect(event).toEqual({
      from_value: 'Asignado automáticamente (menor carga: 0 abiertos)',
      to_value: 'beto.menor Prueba',
      user_id: null,
    });
    const notes = await db()
      .selectFrom('notifications')
      .select(['user_id', 'actor_id'])
      .where('ticket_id', '=', first.id)
      .execute();
    expect(notes).toEqual([{ user_id: b, actor_id: null }]);
    // Now 1 and 1: the tie goes to the next in turn after b (a), then b again on 2 against 1.
    expect((await newTicket(group)).user_assigned_id).toBe(a);
    const third = await newTicket(group);
    expect(third.user_assigned_id).toBe(b);
    expect((await autoEvents(third.id))[0]!.from_value).toBe('Asignado automáticamente (menor carga: 1 abierto)');
    // The ticket page shows the reason on the timeline.
    const page = (await t.call(admin, 'GET', `/api/tickets/${third.id}`)).json().data;
    expect(page.events.map((e: { kind: string }) => e.kind).at(-1)).toBe('auto_assigned');
  });

  it('Rotativa takes turns among the members, and Manual leaves the ticket in the queue', async () => {
    const members = [await newAgent('rota.uno'), await newAgent('rota.dos'), await newAgent('rota.tres')];
    const group = await newGroup('round_robin', members);
    const got: (number | null)[] = [];
    for (let i = 0; i < 6; i += 1) got.push((await newTicket(group)).user_assigned_id);
    expect(got).toEqual([...members, ...members]);
    expect((await autoEvents(await newTicket(group).then((x) => x.id)))[0]!.from_value).toBe(
      'Asignado automáticamente (rotativa: 2 abiertos)',
    );
    const manual = await newGroup('manual', members);
    expect((await newTicket(manual)).user_assigned_id).toBeNull();
  });

  it('keeps Rotativa’s place apart from the catalogue: an automatic assignment announces no catalogue change', async () => {
    const members = [await newAgent('apart.uno'), await newAgent('apart.dos')];
    const group = await newGroup('round_robin', members);
    const kinds: string[] = [];
    const stop = t.services.bus.onInvalidate(({ kind }) => kinds.push(kind));
    try {
      const got = [(await newTicket(group)).user_assigned_id, (await newTicket(group)).user_assigned_id];
      expect(got).toEqual(members);
    } finally {
      stop();
    }
    expect(kinds).not.toContain('catalogs');
  });

  it("tells each assignee as they chose: e-mail only, portal only, or a line of their digest, with the ticket's name", async () => {
    const members = [await newAgent('aviso.correo'), await newAgent('aviso.portal'), await newAgent('aviso.resumen')];
    const choose = async (username: string, assigned: string, rhythm: string) => {
      const res = await t.call(await login(username), 'PUT', '/api/users/notification-preferences', {
        channels: { assigned, status_changed: 'portal', activity_added: 'portal', sla: 'portal' },
        rhythm,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await choose('aviso.correo', 'email', 'immediate');
    await choose('aviso.portal', 'portal', 'immediate');
    await choose('aviso.resumen', 'both', 'hourly');
    const group = await newGroup('round_robin', members);
    const tickets = [await newTicket(group), await newTicket(group)];
    // The third enters the queue by an edit that also renames it.
    const unassigned = await newTicket(await newGroup('manual', members));
    const edit = await t.call(supervisor, 'PUT', `/api/tickets/update/${unassigned.id}`, {
      ...ticketBody('Reparto renombrado', 'Automático'),
      group_id: group,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    tickets.push({ ...unassigned, user_assigned_id: await assigneeOf(unassigned.id) });
    expect(tickets.map((x) => x.user_assigned_id)).toEqual(members);
    // A mail the database requested for the assignee it chose is composed by the outbox worker.
    await t.services.mailWorker.runOnce();

    const notices = await Promise.all(
      tickets.map(async ({ id }) => ({
        mails: await db()
          .selectFrom('mail_outbox')
          .select(['user_id', 'subject', 'status'])
          .where('ticket_id', '=', id)
          .execute(),
        portal: (await db().selectFrom('notifications').select('user_id').where('ticket_id', '=', id).execute()).map(
          (n) => n.user_id,
        ),
      })),
    );
    const [byMail, byPortal, byDigest] = notices;
    expect(byMail!.portal).toEqual([]);
    expect(byMail!.mails).toEqual([
      {
        user_id: members[0],
        subject: `[Ticket #${tickets[0]!.id}] Reparto`,
        status: expect.not.stringMatching(/^digest$/),
      },
    ]);
    expect(byPortal).toEqual({ mails: [], portal: [members[1]] });
    expect(byDigest!.portal).toEqual([members[2]]);
    expect(byDigest!.mails).toEqual([
      { user_id: members[2], subject: `[Ticket #${tickets[2]!.id}] Reparto renombrado`, status: 'digest' },
    ]);
  });

  it('keeps a ticket queued when every member is at the cap and assigns it, oldest first, when one frees capacity', async () => {
    const [a, b] = [await newAgent('tope.a'), await newAgent('tope.b')];
    const group = await newGroup('round_robin', [a, b], 2);
    const tickets = [];
    for (let i = 0; i < 4; i += 1) tickets.push(await newTicket(group));
    expect(tickets.map((x) => x.user_assigned_id)).toEqual([a, b, a, b]);
    const waiting1 = await newTicket(group);
    const waiting2 = await newTicket(group);
    expect([waiting1.user_assigned_id, waiting2.user_assigned_id]).toEqual([null, null]);
    expect(await openOf([a, b])).toEqual([2, 2]);

    // a closes a ticket: the oldest waiting one goes to a.
    const close = await t.call(admin, 'PUT', `/api/tickets/update/${tickets[0]!.id}`, {
      ...ticketBody('Reparto', 'Automático'),
      status_id: closedStatus,
      group_id: group,
    });
    expect(close.statusCode, close.body).toBe(200);
    expect(await assigneeOf(waiting1.id)).toBe(a);
    expect(await assigneeOf(waiting2.id)).toBeNull();
    expect(await autoEvents(waiting1.id)).toHaveLength(1);

    // One of b's tickets goes to someone outside the group: the next waiting one goes to b.
    const supervisorId = (
      await db().selectFrom('users').select('id').where('username', '=', 'supervisor').executeTakeFirstOrThrow()
    ).id;
    expect((await t.call(admin, 'PATCH', `/api/tickets/${tickets[1]!.id}/assign/${supervisorId}`)).statusCode).toBe(
      200,
    );
    expect(await assigneeOf(waiting2.id)).toBe(b);
    expect(await openOf([a, b])).toEqual([2, 2]);

    // Raising the cap hands out what waits at once.
    const waiting3 = await newTicket(group);
    expect(waiting3.user_assigned_id).toBeNull();
    const raise = await t.call(admin, 'PUT', `/api/groups/update/${group}`, {
      name: 'Equipo con tope',
      assignment_cap: 3,
    });
    expect(raise.statusCode, raise.body).toBe(200);
    expect(raise.json().data).toMatchObject({ assignment_mode: 'round_robin', assignment_cap: 3 });
    expect(await assigneeOf(waiting3.id)).not.toBeNull();
  });

  it("follows a change of the group's mode at the next ticket", async () => {
    const e = await newAgent('modo.e');
    const group = await newGroup('manual', [e]);
    expect((await newTicket(group)).user_assigned_id).toBeNull();
    const setMode = async (assignment_mode: Mode) => {
      const res = await t.call(admin, 'PUT', `/api/groups/update/${group}`, {
        name: 'Equipo cambiante',
        assignment_mode,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await setMode('round_robin');
    expect((await newTicket(group)).user_assigned_id).toBe(e);
    await setMode('manual');
    expect((await newTicket(group)).user_assigned_id).toBeNull();
  });

  it('skips absent and inactive members, and hands out what waits when one comes back', async () => {
    const [c, d] = [await newAgent('ausente.c'), await newAgent('ausente.d')];
    const group = await newGroup('least_loaded', [c, d]);
    const dToken = await login('ausente.d');
    const away = await t.call(dToken, 'PUT', `/api/users/${d}/absence`, { absent: true, until: '2099-01-01' });
    expect(away.statusCode, away.body).toBe(200);
    expect(away.json()).toMatchObject({
      message: 'Quedaste como ausente: no recibirás tickets automáticamente.',
      data: { absent: true, absent_until: '2099-01-01T00:00:00.000Z' },
    });
    expect((await t.call(dToken, 'GET', `/api/users/${d}/absence`)).json().data.absent).toBe(true);
    for (let i = 0; i < 3; i += 1) expect((await newTicket(group)).user_assigned_id).toBe(c);

    // An absence that starts in the future does not count yet.
    const later = await t.call(admin, 'PUT', `/api/users/${c}/absence`, {
      absent: true,
      from: '2099-01-01',
      until: null,
    });
    expect(later.json().data.absent).toBe(false);
    expect((await newTicket(group)).user_assigned_id).toBe(c);

    // c inactive, d absent: nobody available, the ticket waits.
    await db().updateTable('users').set({ status_id: 2 }).where('id', '=', c).execute();
    const waiting = await newTicket(group);
    expect(waiting.user_assigned_id).toBeNull();
    const back = await t.call(dToken, 'PUT', `/api/users/${d}/absence`, { absent: false, until: null });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({
      message: 'Ya no estás ausente: vuelves a recibir tickets.',
      data: { absent: false, absent_from: null, absent_until: null },
    });
    expect(await assigneeOf(waiting.id)).toBe(d);
  });

  it('shows the workload by group: its queue and its members’ open tickets and absence', async () => {
    const [e, f] = [await newAgent('carga.e'), await newAgent('carga.f')];
    const group = await newGroup('round_robin', [e, f], 1);
    await newTicket(group);
    await newTicket(group);
    await newTicket(group);
    await t.call(admin, 'PUT', `/api/users/${f}/absence`, { absent: true, until: null });
    const res = await t.call(admin, 'GET', `/api/workload/groups?group_id=${group}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      {
        id: group,
        name: expect.any(String),
        assignment_mode: 'round_robin',
        assignment_cap: 1,
        queue_count: 1,
        count_is_lower_bound: false,
        members: [
          { user_id: e, name: 'carga.e Prueba', open_count: 1, absent: false, status_id: 1 },
          { user_id: f, name: 'carga.f Prueba', open_count: 1, absent: true, status_id: 1 },
        ],
      },
    ]);
    const all = (await t.call(admin, 'GET', '/api/workload/groups')).json().data as { id: number }[];
    expect(all.some((g) => g.id === group)).toBe(true);
    const users = await t.call(admin, 'POST', '/api/tickets/count-per-user', {
      group_id: group,
      page: 1,
      per_page: 10,
    });
    expect(users.statusCode, users.body).toBe(200);
    expect(
      users.json().data.map((u: { id: number; open_count: number; absent: boolean }) => [u.id, u.open_count, u.absent]),
    ).toEqual([
      [e, 1, false],
      [f, 1, true],
    ]);
    expect((await t.call(admin, 'GET', '/api/workload/groups?group_id=999999')).statusCode).toBe(404);
  });

  it('writes no ticket, notification or mail for a creation refused in a group that assigns', async () => {
    const member = await newAgent('aviso.rechazo');
    const group = await newGroup('round_robin', [member]);
    const before = async () => ({
      tickets: Number(
        (
          await db()
            .selectFrom('tickets')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
      notes: (await db().selectFrom('notifications').select('id').where('user_id', '=', member).execute()).length,
      mails: (await db().selectFrom('mail_outbox').select('id').where('user_id', '=', member).execute()).length,
    });
    const counted = await before();
    const res = await t.call(supervisor, 'POST', '/api/tickets/create', {
      ...ticketBody('Reparto rechazado', 'Área que no existe'),
      area_id: 999_999,
      group_id: group,
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(await before()).toEqual(counted);
    // The group goes on assigning, and its member hears of the next ticket.
    const next = await newTicket(group);
    expect(next.user_assigned_id).toBe(member);
    expect((await before()).notes + (await before()).mails).toBeGreaterThan(counted.notes + counted.mails);
  });

  it('refuses bad input with a Spanish 422 and writes nothing', async () => {
    const before = await db()
      .selectFrom('groups')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    for (const [body, message] of [
      [
        { name: 'Tope cero', assignment_cap: 0 },
        'El tope de tickets abiertos por agente debe ser un número entero entre 1 y 10.000.',
      ],
      [
        { name: 'Tope enorme', assignment_cap: 10_001 },
        'El tope de tickets abiertos por agente debe ser un número entero entre 1 y 10.000.',
      ],
      [
        { name: 'Tope texto', assignment_cap: 'cinco' },
        'El tope de tickets abiertos por agente debe ser un número entero entre 1 y 10.000.',
      ],
      [
        { name: 'Modo raro', assignment_mode: 'azar' },
        'El modo de asignación debe ser Manual, Rotativa o Menor carga.',
      ],
    ] as const) {
      const res = await t.call(admin, 'POST', '/api/groups/create', body);
      expect(res.statusCode, res.body).toBe(422);
      expect(Object.values(res.json().errors).flat()).toContain(message);
    }
    const after = await db()
      .selectFrom('groups')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));

    const g = await newAgent('fechas.g');
    for (const body of [
      { absent: true, from: '2030-05-10', until: '2030-05-01' },
      { absent: true, until: '2001-01-01' },
    ]) {
      const res = await t.call(admin, 'PUT', `/api/users/${g}/absence`, body);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors.until).toEqual(['La fecha de regreso debe ser posterior al inicio de la ausencia.']);
    }
    // The return date is always said (null: none), so half a body is refused.
    const half = await t.call(admin, 'PUT', `/api/users/${g}/absence`, { absent: true });
    expect(half.statusCode).toBe(422);
    expect(half.json().errors.until).toEqual(['Indica la fecha de regreso, o null si no la hay.']);
    const bad = await t.call(admin, 'PUT', `/api/users/${g}/absence`, { absent: true, until: '2030-13-45' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.until).toEqual(['La fecha no es válida.']);
    const row = await db()
      .selectFrom('users')
      .select(['absent_from', 'absent_until'])
      .where('id', '=', g)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ absent_from: null, absent_until: null });
    expect((await t.call(admin, 'PUT', '/api/users/999999/absence', { absent: true, until: null })).statusCode).toBe(
      404,
    );
  });

  it('refuses another user’s absence, group settings and the workload without their sections', async () => {
    const h = await newAgent('permiso.h');
    const agenteId = (
      await db().selectFrom('users').select('id').where('username', '=', 'agente').executeTakeFirstOrThrow()
    ).id;
    expect((await t.call(agente, 'PUT', `/api/users/${h}/absence`, { absent: true, until: null })).statusCode).toBe(
      403,
    );
    expect((await t.call(agente, 'GET', `/api/users/${h}/absence`)).statusCode).toBe(403);
    expect(
      (await t.call(agente, 'PUT', `/api/users/${agenteId}/absence`, { absent: false, until: null })).statusCode,
    ).toBe(200);
    const group = await newGroup('manual', [h]);
    const change = await t.call(agente, 'PUT', `/api/groups/update/${group}`, {
      name: 'Equipo cambiado',
      assignment_mode: 'round_robin',
    });
    expect(change.statusCode).toBe(403);
    expect(
      (await db().selectFrom('groups').select('assignment_mode').where('id', '=', group).executeTakeFirstOrThrow())
        .assignment_mode,
    ).toBe('manual');
    expect((await t.call(agente, 'GET', '/api/workload/groups')).statusCode).toBe(403);
    expect((await t.call(agente, 'POST', '/api/tickets/count-per-user', { group_id: group })).statusCode).toBe(403);
  });

  it.runIf(dialect === 'postgres')(
    'chooses after the group’s lock: a creation that waited for it sees what its holder committed',
    async () => {
      const members = [await newAgent('cerrojo.uno'), await newAgent('cerrojo.dos')];
      const group = await newGroup('least_loaded', members);
      const supervisorId = (
        await db().selectFrom('users').select('id').where('username', '=', 'supervisor').executeTakeFirstOrThrow()
      ).id;
      let waiting: Promise<{ id: number; user_assigned_id: number | null }> | undefined;
      await db()
        .transaction()
        .execute(async (trx) => {
          // Holds the group's lock while giving a ticket of the group to the first member.
          await sql`select id from groups where id = ${group} for no key update`.execute(trx);
          const held = await t.services.ticketsRepository.create(
            { ...ticketBody('Cerrojo', 'Dado a mano'), group_id: group },
            supervisorId,
            { trx },
          );
          if (!('ticket' in held)) throw new Error('not written');
          await trx
            .updateTable('tickets')
            .set({ user_assigned_id: members[0]! })
            .where('id', '=', held.ticket.id)
            .execute();
          waiting = newTicket(group);
          // The creation's statement waits for the lock (its snapshot predates the commit below).
          for (;;) {
            const { rows } = await sql<{
              n: number;
            }>`select count(*)::int as n from pg_locks where not granted`.execute(db());
            if (rows[0]!.n > 0) break;
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        });
      // Menor carga: the first member holds one open ticket now, so the second is chosen.
      expect((await waiting!).user_assigned_id).toBe(members[1]);
    },
  );

  it.runIf(dialect === 'postgres')(
    'composes each mail the database requested exactly once, with two processes’ workers at it together',
    async () => {
      const sibling = await createSiblingApp(t);
      try {
        const members = [await newAgent('pedido.uno'), await newAgent('pedido.dos')];
        const group = await newGroup('round_robin', members);
        const created = await Promise.all(Array.from({ length: 6 }, () => newTicket(group)));
        const ids = created.map((x) => x.id);
        await Promise.all([t.services.mailWorker.runOnce(), sibling.services.mailWorker.runOnce()]);
        const mails = await db()
          .selectFrom('mail_outbox')
          .select(['ticket_id', 'user_id', 'subject'])
          .where('ticket_id', 'in', ids)
          .orderBy('ticket_id')
          .execute();
        expect(mails).toEqual(
          created
            .map((x) => ({ ticket_id: x.id, user_id: x.user_assigned_id, subject: `[Ticket #${x.id}] Reparto` }))
            .sort((a, b) => a.ticket_id - b.ticket_id),
        );
        expect(await db().selectFrom('mail_requests').select('id').where('ticket_id', 'in', ids).execute()).toEqual([]);
      } finally {
        await sibling.close();
      }
    },
  );

  it.runIf(dialect === 'postgres')(
    'two processes creating 20 tickets at once: nobody over the cap, Rotativa fair, no ticket assigned twice',
    async () => {
      const sibling = await createSiblingApp(t);
      try {
        const members = [await newAgent('par.uno'), await newAgent('par.dos'), await newAgent('par.tres')];
        const [capped, free] = [await newGroup('round_robin', members, 5), await newGroup('round_robin', members)];
        const [tokenA, tokenB] = [supervisor, await sibling.login('supervisor')];
        const burst = (group: number) =>
          Promise.all(
            Array.from({ length: 20 }, (_, i) =>
              i % 2 === 0 ? newTicket(group, tokenA, t) : newTicket(group, tokenB, sibling),
            ),
          );
        const cappedTickets = await burst(capped);
        const perMember = (ts: { user_assigned_id: number | null }[]) =>
          members.map((m) => ts.filter((x) => x.user_assigned_id === m).length);
        const rows = await db()
          .selectFrom('tickets')
          .select(['id', 'user_assigned_id'])
          .where(
            'id',
            'in',
            cappedTickets.map((x) => x.id),
          )
          .execute();
        expect(perMember(rows)).toEqual([5, 5, 5]);
        expect(rows.filter((r) => r.user_assigned_id === null)).toHaveLength(5);
        expect(await openOf(members)).toEqual([5, 5, 5]);

        const freeTickets = await burst(free);
        const counts = perMember(
          await db()
            .selectFrom('tickets')
            .select('user_assigned_id')
            .where(
              'id',
              'in',
              freeTickets.map((x) => x.id),
            )
            .execute(),
        );
        expect(counts.reduce((s, n) => s + n, 0)).toBe(20);
        expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);

        const events = await db()
          .selectFrom('ticket_events')
          .select(['ticket_id', (eb) => eb.fn.countAll<number>().as('n')])
          .where('kind', '=', 'auto_assigned')
          .where(
            'ticket_id',
            'in',
            [...cappedTickets, ...freeTickets].map((x) => x.id),
          )
          .groupBy('ticket_id')
          .execute();
        expect(events).toHaveLength(35);
        expect(events.every((e) => Number(e.n) === 1)).toBe(true);
      } finally {
        await sibling.close();
      }
    },
    60_000,
  );
});
