import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_COLUMNS } from '../src/modules/tickets/ticket-columns.ts';
import { createTicketNamesRepository } from '../src/modules/tickets/ticket-names.repository.ts';
import { createSiblingApp, createTestApp, dialects, type TestApp } from './helper.ts';

/** How long another process may take to hear of a change (a NOTIFY after commit): at most this. */
const ACROSS_PROCESSES_MS = 1_000;

interface ListedTicket {
  id: number;
  areas: { name: string };
  users: { name: string };
}

async function newestTicket(t: TestApp, token: string): Promise<ListedTicket> {
  const res = await t.call(token, 'POST', '/api/general-tickets', { page: 1, per_page: 1 });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: ListedTicket[] }).data[0]!;
}

async function ticketRow(t: TestApp, id: number) {
  return t.services.database.db
    .selectFrom('tickets')
    .select(['area_id', 'created_by'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** The lists show catalogue and user names from memory: a rename shows at once. */
describe.each(dialects)('ticket names held in memory on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.login('admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists a renamed area and a renamed creator with their new names on the next read', async () => {
    const before = await newestTicket(t, admin);
    const { area_id, created_by } = await ticketRow(t, before.id);

    const renamed = await t.call(admin, 'PUT', `/api/areas/update/${area_id}`, { name: 'Área renombrada' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await t.services.database.db
      .updateTable('users')
      .set({ name: 'Nombre', last_name: 'Cambiado' })
      .where('id', '=', created_by)
      .execute();

    const after = await newestTicket(t, admin);
    expect(after.areas.name).toBe('Área renombrada');
    expect(after.users.name).toBe('Nombre Cambiado');
    // The export reads the same names.
    const csv = await t.app.inject({
      method: 'POST',
      url: '/api/tickets/export',
      headers: { authorization: `Bearer ${admin}` },
      payload: { list: 'general', search: `#${before.id}` },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Área renombrada');
    expect(csv.body).toContain('Nombre Cambiado');
  });
});

describe('ticket names across two processes on one PostgreSQL database', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: string;
  beforeAll(async () => {
    a = await createTestApp('postgres');
    b = await createSiblingApp(a);
    admin = await a.login('admin');
    for (let i = 0; i < 200 && !b.services.bus.canCache(); i += 1) await new Promise((r) => setTimeout(r, 10));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('B lists a catalogue and a user renamed on A with their new names', async () => {
    const before = await newestTicket(b, admin); // B now holds the names in memory
    expect(b.services.bus.canCache()).toBe(true);
    const { area_id, created_by } = await ticketRow(a, before.id);

    expect((await a.call(admin, 'PUT', `/api/areas/update/${area_id}`, { name: 'Área de A' })).statusCode).toBe(200);
    await expect
      .poll(async () => (await newestTicket(b, admin)).areas.name, { timeout: ACROSS_PROCESSES_MS, interval: 5 })
      .toBe('Área de A');

    await a.services.database.db
      .updateTable('users')
      .set({ last_name: 'Desde A' })
      .where('id', '=', created_by)
      .execute();
    await expect
      .poll(async () => (await newestTicket(b, admin)).users.name, { timeout: ACROSS_PROCESSES_MS, interval: 5 })
      .toMatch(/ Desde A$/);
  });
});

describe('ticket names read inside a SQLite transaction', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t?.close());

  it('are read in the transaction, not awaited from a load that waits for its connection', async () => {
    const { database } = t.services;
    const names = createTicketNamesRepository(database, { onInvalidate: () => () => undefined, canCache: () => true });
    const { loading } = await database.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('tickets as t').select(TICKET_COLUMNS).orderBy('t.id').executeTakeFirstOrThrow();
      // A read outside starts loading the catalogues on the one connection, which this transaction holds.
      const loading = names.of([row]);
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('the read in the transaction waited for the load outside it')), 2_000),
      );
      const [named] = await Promise.race([names.of([row], trx), timeout]);
      expect(named!.status.name).not.toBe('');
      expect(named!.area).not.toBe('');
      return { loading };
    });
    expect((await loading)[0]!.area).not.toBe('');
  });
});
