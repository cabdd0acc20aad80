import { TICKET_COUNT_CAP, type TTicket } from '@portal/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgSearchDocOf, withTicketDerivationsSuspended } from '../src/db/ticket-derivations.ts';
import { createTestApp, dialects, type TestApp } from './helper.ts';

/** Enough older tickets that the newest 2,000 would put a burst of new ones past twice the cap. */
const OLDER = 40_000;
const BURST = 1_000;

describe.each(dialects)('a search after a burst of new tickets about one thing (%s)', (dialect) => {
  let t: TestApp;
  let admin: string;
  const db = () => t.services.database.db;

  /** Bulk tickets, as the benchmark loads them: `count` of `name` numbered, with `description`. */
  async function load(name: string, description: string, count: number) {
    if (dialect === 'postgres') {
      await sql`insert into tickets (name, description, area_id, project_id, category_id, priority_type_id,
          difficulty_id, status_id, stage, created_by, user_assigned_id, created_at, updated_at, search_doc)
        select ${name} || ' ' || g, ${description}, 1, 1, 1, 1, 1, 1, 'open', 1, null, now(), now(),
          ${sql.raw(pgSearchDocOf(`lower(t.name) || ' ' || g || ' ' || lower(t.description)`, 't'))}
        from generate_series(1, ${count}) g,
          lateral (select ${name}::text as name, ${description}::text as description, 1 as created_by,
            null::int as user_assigned_id, 'open' as stage, 1 as status_id, 1 as priority_type_id,
            1 as project_id, 1 as area_id, 1 as category_id, 1 as difficulty_id, null::int as group_id) t`.execute(
        db(),
      );
    } else {
      await sql`with recursive g(n) as (select 1 union all select n + 1 from g where n < ${count})
        insert into tickets (name, description, area_id, project_id, category_id, priority_type_id,
          difficulty_id, status_id, stage, created_by, user_assigned_id, created_at, updated_at)
        select ${name} || ' ' || n, ${description}, 1, 1, 1, 1, 1, 1, 'open', 1, null,
          strftime('%Y-%m-%dT%H:%M:%fZ'), strftime('%Y-%m-%dT%H:%M:%fZ') from g`.execute(db());
    }
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.login('admin');
    await withTicketDerivationsSuspended(db(), dialect, async () => {
      await load('Relleno', 'sin coincidencias', OLDER);
      await load('Inundacion', 'agua en el anden', BURST);
      const words = ['relleno', 'sin', 'coincidencias', 'inundacion', 'agua', 'en', 'el', 'anden'];
      await sql`insert into ticket_words (word) values ${sql.join(words.map((w) => sql`(${w})`))}
        on conflict do nothing`.execute(db());
    });
  }, 120_000);
  afterAll(() => t?.close());

  const search = async (text: string) => {
    const res = await t.call(admin, 'POST', '/api/general-tickets', { page: 1, per_page: 10, search: text });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: TTicket[]; meta: { total: number; total_is_lower_bound?: boolean } };
  };

  it('counts the burst exactly: its share of the newest tickets is not the share of all', async () => {
    const { data, meta } = await search('inundacion');
    const newest = await db()
      .selectFrom('tickets')
      .select('id')
      .where('name', 'like', 'Inundacion %')
      .orderBy('id', 'desc')
      .limit(10)
      .execute();
    expect(meta).toMatchObject({ total: BURST });
    expect(meta.total_is_lower_bound).toBeUndefined();
    expect(data.map((x) => x.id)).toEqual(newest.map((r) => r.id));
  });

  it('still says "more than the cap" of a word most tickets hold', async () => {
    const { data, meta } = await search('relleno');
    expect(meta).toMatchObject({ total: TICKET_COUNT_CAP, total_is_lower_bound: true });
    expect(data).toHaveLength(10);
    expect(data.every((x) => x.name.startsWith('Relleno '))).toBe(true);
  });
});
