import type { TTicket } from '@portal/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrator.ts';
import { withTicketDerivationsSuspended } from '../src/db/ticket-derivations.ts';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

describe.each(dialects)('the text index takes every write at once (%s)', (dialect) => {
  let t: TestApp;
  let admin: string;
  const db = () => t.services.database.db;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  const create = async (name: string) => {
    const res = await t.call(
      admin,
      'POST',
      '/api/tickets/create',
      ticketBody(name, 'Serpentín del evaporador con escarcha'),
    );
    expect(res.statusCode, res.body).toBe(201);
    return (res.json().data as TTicket).id;
  };

  const found = async (search: string) => {
    const res = await t.call(admin, 'POST', '/api/general-tickets', { page: 1, per_page: 50, search });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: TTicket[]; meta: { total: number; total_is_lower_bound?: boolean } };
    return { ids: body.data.map((x) => x.id), total: body.meta.total, isLowerBound: body.meta.total_is_lower_bound };
  };

  /** PostgreSQL: the pages of the GIN pending list every search scans (merged into the index by this call). */
  const pendingPages = async () =>
    Number(
      (await sql<{ n: number }>`select gin_clean_pending_list('tickets_search_idx'::regclass) as n`.execute(db()))
        .rows[0]!.n,
    );

  it('migration 0016 merges what was pending, and later tickets are never left pending', async () => {
    // The index as the migrations before 0016 made it: writes wait in a pending list.
    if (dialect === 'postgres') await sql`alter index tickets_search_idx reset (fastupdate)`.execute(db());
    const first = await create('Serpentín 1');
    if (dialect === 'postgres') expect(await pendingPages()).toBeGreaterThan(0);
    const second = await create('Serpentín 2');
    await sql`delete from kysely_migration where name = '0016-search-index-without-pending-list'`.execute(db());

    expect(await migrateToLatest(t.services.database)).toEqual(['0016-search-index-without-pending-list']);
    if (dialect === 'postgres') expect(await pendingPages()).toBe(0);
    const third = await create('Serpentín 3');
    if (dialect === 'postgres') expect(await pendingPages()).toBe(0);
    expect(await found('serpentin escarcha')).toEqual({
      ids: [third, second, first],
      total: 3,
      isLowerBound: undefined,
    });
  });

  it('stays so when a bulk load builds the index again', async () => {
    await withTicketDerivationsSuspended(db(), dialect, async () => {});
    const id = await create('Serpentín 4');
    if (dialect === 'postgres') expect(await pendingPages()).toBe(0);
    const { ids, total } = await found('serpentin');
    expect(ids[0]).toBe(id);
    expect(total).toBe(4);
  });
});
