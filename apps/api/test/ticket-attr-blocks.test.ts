import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildSqliteAttrBits, rebuildTicketAttrBlocks } from '../src/db/ticket-derivations.ts';
import { createSiblingApp, createTestApp, ticketBody, type TestApp } from './helper.ts';
import { attrBitmaps, sqliteAttrBits } from './ticket-recount.ts';

/**
 * Both databases keep, for each attribute token, bitmaps of the tickets carrying it
 * (PostgreSQL `ticket_attr_blocks`, SQLite `ticket_attr_bits`), from which filtered list totals
 * are counted. Whoever writes the tickets (the application, a script in SQL, two processes at
 * once), the bitmaps stay what a rebuild from the tickets gives, and the totals are the
 * tickets' own count.
 */
describe.each(['sqlite', 'postgres'] as const)('attribute bitmaps on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  const db = () => t.services.database.db;
  const rebuild = () => (dialect === 'postgres' ? rebuildTicketAttrBlocks(db()) : rebuildSqliteAttrBits(db()));
  const bitmaps = () => (dialect === 'postgres' ? attrBitmaps(db()) : sqliteAttrBits(db()));

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  /** Tickets Generales' total for these filters, and the tickets' own count of them. */
  async function totals(filters: Record<string, (number | string | null)[]>) {
    const listed = (await t.call(admin, 'POST', '/api/general-tickets', { page: 1, per_page: 10, filters })).json();
    let q = db()
      .selectFrom('tickets')
      .select((eb) => eb.fn.countAll<string>().as('n'));
    for (const [column, values] of Object.entries(filters)) {
      const present = values.filter((v): v is number | string => v !== null);
      q = q.where((eb) =>
        eb.or([
          ...(present.length ? [eb(column as 'area_id', 'in', present as number[])] : []),
          ...(values.includes(null) ? [eb(column as 'area_id', 'is', null)] : []),
        ]),
      );
    }
    const { n } = await q.executeTakeFirstOrThrow();
    return { listed: listed.meta.total as number, counted: Number(n) };
  }

  it('follows inserts, updates and deletes written by SQL, across blocks of ids', async () => {
    const { id: userId } = await db()
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'agente')
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const row = (i: number) => ({
      name: `Escrito por script ${i}`,
      description: 'Carga de datos',
      area_id: 1 + (i % 3),
      project_id: 1 + (i % 2),
      category_id: 1,
      priority_type_id: 1 + (i % 4),
      difficulty_id: 1,
      status_id: 1,
      created_by: userId,
      user_assigned_id: i % 5 === 0 ? null : userId,
      created_at: now,
      updated_at: now,
    });
    await db()
      .insertInto('tickets')
      .values(Array.from({ length: 60 }, (_, i) => row(i)))
      .execute();
    // Ids beyond the first block of 65,536 ids, and a jump past a whole empty block.
    const top = await db()
      .selectFrom('tickets')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('tickets')
      .values([
        { ...row(1), id: Number(top.id) + 65_600 },
        { ...row(2), id: Number(top.id) + 200_001 },
      ])
      .execute();
    await db().updateTable('tickets').set({ area_id: 3, user_assigned_id: null }).where('area_id', '=', 1).execute();
    await db().updateTable('tickets').set({ name: 'Solo cambia el texto' }).where('priority_type_id', '=', 2).execute();
    await db().deleteFrom('tickets').where('priority_type_id', '=', 3).execute();
    // The SLA state moves as the alert sweep moves it, alone in its statement.
    await db().updateTable('tickets').set({ sla_state: 'breached' }).where('priority_type_id', '=', 4).execute();
    await db()
      .updateTable('tickets')
      .set({ sla_state: 'at_risk' })
      .where('priority_type_id', '=', 1)
      .where('area_id', '=', 2)
      .execute();

    const lists: Record<string, (number | string | null)[]>[] = [
      { area_id: [3] },
      { area_id: [2, 3], priority_type_id: [4] },
      { user_assigned_id: [null], project_id: [2] },
      // Holds the ticket 65,600 ids past the others (counted in a later step of chunks on SQLite).
      { project_id: [2], area_id: [2] },
      { area_id: [1] },
      { sla_state: ['breached'], area_id: [2, 3] },
      { sla_state: ['at_risk', 'breached'], priority_type_id: [1] },
      { sla_state: ['none'], project_id: [1] },
    ];
    for (const filters of lists) {
      const { listed, counted } = await totals(filters);
      expect(listed, JSON.stringify(filters)).toBe(counted);
    }
    // Mis Tickets with a filter: the user's tickets as creator or assignee, ORed, then the filter.
    const agente = await t.login('agente');
    const mine = (
      await t.call(agente, 'POST', '/api/tickets', { page: 1, per_page: 10, filters: { area_id: [2] } })
    ).json();
    const { n } = await db()
      .selectFrom('tickets')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('area_id', '=', 2)
      .where((eb) => eb.or([eb('created_by', '=', userId), eb('user_assigned_id', '=', userId)]))
      .executeTakeFirstOrThrow();
    expect(mine.meta.total).toBe(Number(n));
    const maintained = await bitmaps();
    await rebuild();
    expect(await bitmaps()).toEqual(maintained);
  });

  it('stays exact with two processes creating and reassigning tickets at once', async () => {
    const other = await createSiblingApp(t);
    try {
      const otherAdmin = await other.login('admin');
      const agente = (
        await db().selectFrom('users').select('id').where('username', '=', 'agente').executeTakeFirstOrThrow()
      ).id;
      const create = (app: TestApp, token: string, i: number) =>
        app.call(token, 'POST', '/api/tickets/create', {
          ...ticketBody(`Concurrente ${i}`, 'Dos procesos a la vez'),
          area_id: 1 + (i % 2),
          priority_type_id: 1 + (i % 4),
          user_assigned_id: i % 3 === 0 ? null : agente,
        });
      const made = await Promise.all(
        Array.from({ length: 24 }, (_, i) => create(i % 2 ? other : t, i % 2 ? otherAdmin : admin, i)),
      );
      for (const r of made) expect(r.statusCode, r.body).toBe(201);
      const ids = made.map((r) => (r.json() as { data: { id: number } }).data.id);
      await Promise.all(
        ids.map((id, i) =>
          db()
            .updateTable('tickets')
            .set({ priority_type_id: 1 + ((i + 1) % 4) })
            .where('id', '=', id)
            .execute(),
        ),
      );
      expect((await totals({ priority_type_id: [2], area_id: [2] })).listed).toBe(
        (await totals({ priority_type_id: [2], area_id: [2] })).counted,
      );
      const maintained = await bitmaps();
      await rebuild();
      expect(await bitmaps()).toEqual(maintained);
    } finally {
      await other.close();
    }
  });
});
