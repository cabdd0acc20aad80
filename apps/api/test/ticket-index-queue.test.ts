import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ftsRows, INDEX_SYNC_BATCH } from '../src/db/ticket-derivations.ts';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

/**
 * Tickets written by SQL (an import, a data fix) wait in SQLite's index queue
 * (`tickets_fts_pending`); the index takes them in steps of INDEX_SYNC_BATCH, each its own
 * transaction, in the background, and a search finds every one of them meanwhile.
 */
describe.each(dialects)('tickets written by SQL, many at once (%s)', (dialect) => {
  let t: TestApp;
  let admin: string;
  let agenteId: number;
  const db = () => t.services.database.db;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.login('admin');
    agenteId = (await db().selectFrom('users').select('id').where('username', '=', 'agente').executeTakeFirstOrThrow())
      .id;
  });
  afterAll(() => t?.close());

  /** `count` tickets named `<word> <n>x` (a word of its own per ticket), in one INSERT … SELECT, as a script would write them. */
  async function insertBySql(word: string, count: number): Promise<void> {
    const now = new Date().toISOString();
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
      insert into tickets (name, description, area_id, project_id, category_id, priority_type_id, difficulty_id,
        status_id, created_by, user_assigned_id, created_at, updated_at)
      select ${word} || ' ' || i || 'x', 'Importado de la hoja de cálculo', 1, 1, 1, 1, 1, 1, ${agenteId}, ${agenteId},
        ${now}, ${now} from n`.execute(db());
  }

  const queued = async () =>
    dialect === 'sqlite'
      ? Number((await sql<{ n: number }>`select count(*) as n from tickets_fts_pending`.execute(db())).rows[0]!.n)
      : 0;

  const search = async (search: string) => {
    const res = await t.call(admin, 'POST', '/api/general-tickets', { page: 1, per_page: 10, search });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: { name: string }[]; meta: { total: number } };
  };

  it('finds every queued ticket, more than one step of them', async () => {
    const count = Math.round(INDEX_SYNC_BATCH * 2.5);
    await insertBySql('Quetzal', count);
    if (dialect === 'sqlite') expect(await queued()).toBe(count);

    if (dialect === 'sqlite') {
      // What the index does not hold yet is matched on the ticket rows.
      const { rows } = await sql<{ rowid: number }>`select rowid from ${ftsRows('{body} : ("quetzal")', true)}`.execute(
        db(),
      );
      expect(rows).toHaveLength(count);
    }
    const found = await search('quetzal');
    expect(found.meta.total).toBe(count);
    expect(found.data.map((x) => x.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Quetzal ${count - i}x`));
    // The search wrote one step and left the rest to the background.
    await expect.poll(queued, { interval: 5 }).toBe(0);
    expect((await search('quetzal')).meta.total).toBe(count);
  });

  it('works the queue off in steps by itself after a write, serving requests between them', async () => {
    // PostgreSQL has no queue: a few tickets show the search is unchanged there.
    const count = dialect === 'sqlite' ? INDEX_SYNC_BATCH * 20 : 200;
    await insertBySql('Colibrí', count);
    // A ticket written through the portal starts the index sync.
    const res = await t.call(admin, 'POST', '/api/tickets/create', ticketBody('Colibrí del portal', 'Escrito a mano'));
    expect(res.statusCode, res.body).toBe(201);

    // Each look is a query served between two steps: some see the queue part done.
    const seen: number[] = [];
    await expect
      .poll(
        async () => {
          seen.push(await queued());
          return seen.at(-1);
        },
        { interval: 5, timeout: 20_000 },
      )
      .toBe(0);
    if (dialect === 'sqlite') expect(seen.some((n) => n > 0 && n < count)).toBe(true);
    for (const n of [1, count / 2, count]) {
      expect((await search(`colibri ${n}x`)).data.map((x) => x.name)).toEqual([`Colibrí ${n}x`]);
    }
    expect((await search('colibri portal')).data.map((x) => x.name)).toEqual(['Colibrí del portal']);
  });
});
