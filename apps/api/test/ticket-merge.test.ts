import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(600, 7)]);
const BOUNDARY = '----portal-merge-boundary';
const multipart = (name: string, data: Buffer) =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    data,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);

describe.each(dialects)('merging a duplicate on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let agente: string;
  let supervisor: string;
  const ids: Record<string, number> = {};
  const db = () => t.services.database.db;

  const create = async (token: string, name: string) => {
    const res = await t.call(token, 'POST', '/api/tickets/create', ticketBody(name, `Descripción de ${name}`));
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as number;
  };
  const assign = async (token: string, id: number, username: string) =>
    expect((await t.call(token, 'PATCH', `/api/tickets/${id}/assign/${ids[username]}`)).statusCode).toBe(200);
  const addActivity = async (token: string, id: number, name: string) =>
    expect((await t.call(token, 'POST', '/api/activities/create', { name, ticket_id: id })).statusCode).toBe(201);
  const upload = async (token: string, id: number, name: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/tickets/${id}/attachments`,
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: multipart(name, PNG),
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const merge = (token: string, id: number, into: number) =>
    t.call(token, 'POST', `/api/tickets/${id}/merge`, { ticket_id: into });

  /** Everything a merge may change on both tickets. */
  const snapshot = async (a: number, b: number) => ({
    tickets: await db()
      .selectFrom('tickets')
      .select(['id', 'status_id', 'stage'])
      .where('id', 'in', [a, b])
      .orderBy('id')
      .execute(),
    activities: await db()
      .selectFrom('activities')
      .select(['id', 'ticket_id', 'merged_from_ticket_id'])
      .where('ticket_id', 'in', [a, b])
      .orderBy('id')
      .execute(),
    attachments: await db()
      .selectFrom('ticket_attachments')
      .select(['id', 'ticket_id', 'merged_from_ticket_id'])
      .where('ticket_id', 'in', [a, b])
      .orderBy('id')
      .execute(),
    links: await db().selectFrom('ticket_links').selectAll().where('from_ticket_id', 'in', [a, b]).execute(),
    events: await db().selectFrom('ticket_events').select('id').where('ticket_id', 'in', [a, b]).execute(),
    notifications: await db().selectFrom('notifications').select('id').where('ticket_id', 'in', [a, b]).execute(),
  });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, agente, supervisor] = await Promise.all([t.login('admin'), t.login('agente'), t.login('supervisor')]);
    for (const u of await db().selectFrom('users').select(['id', 'username']).execute()) ids[u.username] = u.id;
  });
  afterAll(() => t?.close());

  /** A duplicate (assigned to admin, with an activity and a file) and its original (assigned to agente, with one activity). */
  async function pair(label: string) {
    const duplicate = await create(admin, `Retraso embarque ${label} duplicado`);
    const original = await create(admin, `Retraso embarque ${label}`);
    await assign(admin, duplicate, 'admin');
    await addActivity(admin, duplicate, 'Llamada al transportista');
    await upload(admin, duplicate, 'evidencia.png');
    await assign(admin, original, 'agente');
    await addActivity(agente, original, 'Revisión en patio');
    return { duplicate, original };
  }

  it('moves the activities and attachments, marked with their origin, links, cancels the duplicate and notifies both assignees', async () => {
    const { duplicate, original } = await pair('A');
    const res = await merge(admin, duplicate, original);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: true,
      message: `El ticket se marcó como duplicado de #${original}.`,
      data: { original_id: original, activities: 1, attachments: 1 },
    });

    const activities = await t.call(agente, 'GET', `/api/activities?ticket_id=${original}&per_page=50`);
    expect(activities.statusCode, activities.body).toBe(200);
    expect(
      activities
        .json()
        .data.data.map((a: { name: string; merged_from_ticket_id: number | null }) => [
          a.name,
          a.merged_from_ticket_id,
        ]),
    ).toEqual(
      expect.arrayContaining([
        ['Llamada al transportista', duplicate],
        ['Revisión en patio', null],
      ]),
    );
    const files = (await t.call(admin, 'GET', `/api/tickets/${original}/attachments`)).json().data;
    expect(files).toEqual([expect.objectContaining({ name: 'evidencia.png', merged_from_ticket_id: duplicate })]);
    expect((await t.call(admin, 'GET', `/api/tickets/${duplicate}/attachments`)).json().data).toEqual([]);

    const page = (await t.call(admin, 'GET', `/api/tickets/${duplicate}`)).json().data;
    expect(page.status_tickets).toEqual({ name: 'Cancelado', stage: 'closed' });
    expect(page.events.slice(-2)).toEqual([
      expect.objectContaining({ kind: 'merged', field: 'into', to_value: `#${original} Retraso embarque A` }),
      expect.objectContaining({ kind: 'status_changed', from_value: 'Abierto', to_value: 'Cancelado' }),
    ]);
    const links = (await t.call(admin, 'GET', `/api/tickets/${duplicate}/links`)).json().data;
    expect(links).toEqual([
      expect.objectContaining({ relation: 'duplicate_of', ticket: expect.objectContaining({ id: original }) }),
    ]);

    // admin acted and is the duplicate's assignee: only agente, the original's assignee, hears of it.
    const notes = await db()
      .selectFrom('notifications')
      .select(['user_id', 'ticket_id', 'message'])
      .where('message', '=', `El ticket #${duplicate} se marcó como duplicado de #${original}.`)
      .execute();
    expect(notes).toEqual([{ user_id: ids.agente, ticket_id: original, message: notes[0]!.message }]);
  });

  it('notifies both assignees when someone else merges', async () => {
    const { duplicate, original } = await pair('B');
    expect((await merge(supervisor, duplicate, original)).statusCode).toBe(200);
    const notes = await db()
      .selectFrom('notifications')
      .select(['user_id', 'ticket_id'])
      .where('message', '=', `El ticket #${duplicate} se marcó como duplicado de #${original}.`)
      .orderBy('user_id')
      .execute();
    expect(notes).toEqual(
      [
        { user_id: ids.admin!, ticket_id: duplicate },
        { user_id: ids.agente!, ticket_id: original },
      ].sort((a, b) => a.user_id - b.user_id),
    );
  });

  it('a failure in the middle of the merge leaves both tickets as they were', async () => {
    const { duplicate, original } = await pair('C');
    const before = await snapshot(duplicate, original);
    if (dialect === 'sqlite') {
      await sql`create trigger fail_merge before insert on ticket_events when new.kind = 'merged'
        begin select raise(abort, 'injected failure'); end`.execute(db());
    } else {
      await sql`create function fail_merge() returns trigger language plpgsql as $$
        begin raise exception 'injected failure'; end $$`.execute(db());
      await sql`create trigger fail_merge before insert on ticket_events for each row
        when (new.kind = 'merged') execute function fail_merge()`.execute(db());
    }
    try {
      const res = await merge(admin, duplicate, original);
      expect(res.statusCode).toBe(500);
    } finally {
      await sql`drop trigger fail_merge${sql.raw(dialect === 'postgres' ? ' on ticket_events' : '')}`.execute(db());
      if (dialect === 'postgres') await sql`drop function fail_merge()`.execute(db());
    }
    expect(await snapshot(duplicate, original)).toEqual(before);
    // Nothing stuck: the same merge succeeds afterwards.
    expect((await merge(admin, duplicate, original)).statusCode).toBe(200);
  });

  it('refuses a merge without u on both tickets, into itself, into a missing ticket, or into its own duplicate', async () => {
    const mine = await create(agente, 'Ticket del agente');
    const foreign = await create(admin, 'Ticket ajeno');
    const before = await snapshot(mine, foreign);
    expect((await merge(agente, mine, foreign)).statusCode).toBe(403);
    expect((await merge(agente, foreign, mine)).statusCode).toBe(403);
    const self = await merge(admin, mine, mine);
    expect(self.statusCode).toBe(422);
    expect(self.json().errors.ticket_id).toEqual(['Un ticket no puede relacionarse consigo mismo.']);
    expect((await merge(admin, mine, 99_999_999)).statusCode).toBe(422);
    expect(await snapshot(mine, foreign)).toEqual(before);

    const { duplicate, original } = await pair('D');
    expect((await merge(admin, duplicate, original)).statusCode).toBe(200);
    const loop = await merge(admin, original, duplicate);
    expect(loop.statusCode).toBe(422);
    expect(loop.json().errors.ticket_id).toEqual([
      'La relación formaría un ciclo: un ticket no puede ser su propio antecesor.',
    ]);
  });
});
