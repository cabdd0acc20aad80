import { TICKET_COUNT_CAP } from '@portal/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildTicketWordCounts } from '../src/db/ticket-derivations.ts';
import { createTestApp, ticketBody, type TestApp } from './helper.ts';
import { indexedWordCounts, keptWordCounts } from './ticket-recount.ts';

/**
 * PostgreSQL keeps how many tickets hold each word of the text index (`ticket_word_counts`), so
 * a search for one word that more tickets than the cap hold says "more than" without counting.
 * Whoever writes the tickets, the counts stay what the index itself says, and the totals are
 * the tickets' own count.
 */
// The cases write more tickets than the cap through the triggers, by SQL: seconds on a quiet
// machine, several times that beside the other suites.
describe('word counts on postgres', { timeout: 120_000 }, () => {
  let t: TestApp;
  let admin: string;
  const db = () => t.services.database.db;

  beforeAll(async () => {
    t = await createTestApp('postgres');
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  /** `count` tickets written by SQL, named `name` and a number, described by `description`. */
  const insert = (name: string, description: string, count: number) =>
    sql`insert into tickets (name, description, area_id, project_id, category_id, priority_type_id,
        difficulty_id, status_id, created_by, created_at, updated_at)
      select ${name} || ' ' || g, ${description}, 1 + g % 2, 1, 1, 1, 1, 1, 1, now(), now()
      from generate_series(1, ${count}) g`.execute(db());

  const search = async (text: string, filters?: Record<string, number[]>) => {
    const res = await t.call(admin, 'POST', '/api/general-tickets', { page: 1, per_page: 10, search: text, filters });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { meta: { total: number; total_is_lower_bound?: boolean } }).meta;
  };

  it('follows creations, edits of the text, other updates and deletes, as a recount finds them', async () => {
    const made = await t.call(admin, 'POST', '/api/tickets/create', ticketBody('Cristal roto', 'Palet de vidrio'));
    expect(made.statusCode, made.body).toBe(201);
    await insert('Escrito por script', 'Carga de datos', 40);
    await db().updateTable('tickets').set({ description: 'Carga revisada' }).where('name', 'like', '% 1%').execute();
    await db().updateTable('tickets').set({ area_id: 2, priority_type_id: 2 }).where('name', 'like', '% 2%').execute();
    await db().deleteFrom('tickets').where('name', 'like', '% 3%').execute();
    const maintained = await keptWordCounts(db());
    expect(maintained).toEqual(await indexedWordCounts(db()));
    expect(maintained.find((w) => w.word === 'revisada')?.n).toBeGreaterThan(0);
    await rebuildTicketWordCounts(db());
    expect(await keptWordCounts(db())).toEqual(maintained);
  });

  it('says "more than the cap" of a word more tickets hold, and counts it exactly once fewer do', async () => {
    await insert('Zafiro', 'piedra azul', TICKET_COUNT_CAP + 3);
    expect(await search('zafiro')).toMatchObject({ total: TICKET_COUNT_CAP, total_is_lower_bound: true });
    // With a filter the word's count says nothing of the list's: its matches are counted.
    const inArea = await search('zafiro', { area_id: [1] });
    expect(inArea.total_is_lower_bound).toBeUndefined();
    const { n } = await db()
      .selectFrom('tickets')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('name', 'like', 'Zafiro %')
      .where('area_id', '=', 1)
      .executeTakeFirstOrThrow();
    expect(inArea.total).toBe(Number(n));

    await db().deleteFrom('tickets').where('name', 'in', ['Zafiro 1', 'Zafiro 2', 'Zafiro 3', 'Zafiro 4']).execute();
    const fewer = await search('zafiro');
    expect(fewer).toMatchObject({ total: TICKET_COUNT_CAP - 1 });
    expect(fewer.total_is_lower_bound).toBeUndefined();
  });
});
