import type { Insertable } from 'kysely';
import type { Database } from '../apps/api/src/db/database.ts';
import type { TicketsTable, UsersTable } from '../apps/api/src/db/schema.ts';
import { places, ticketTemplates } from '../apps/api/src/db/seed-tickets.ts';

const BATCH = 500;
const EXTRA_AGENTS = 200;
const YEARS = 3;

/** Deterministic, so two runs measure the same data. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/**
 * Adds `count` tickets to a demo-seeded database, as a three-year-old
 * organisation of about 200 agents would hold them: most closed, each agent
 * with about 0.5 % of the tickets, the administrator and the supervisor
 * creating a larger share, one in ten unassigned. Ids grow with the date.
 */
export async function generateTickets(database: Database, count: number): Promise<void> {
  const { db } = database;
  const next = random(42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

  const agente = await db.selectFrom('users').selectAll().where('username', '=', 'agente').executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const areas = (await db.selectFrom('areas').select('id').execute()).map((r) => r.id);
  const extraUsers: Insertable<UsersTable>[] = Array.from({ length: EXTRA_AGENTS }, (_, i) => ({
    name: `Agente${String.fromCharCode(65 + (i % 26))}`,
    last_name: `Prueba${Math.floor(i / 26)}`,
    second_last_name: null,
    username: `bench_agent_${i}`,
    email: `bench_agent_${i}@portal.local`,
    password_hash: agente.password_hash,
    role_id: 3,
    area_id: pick(areas),
    supervisor_id: null,
    branch: pick(places),
    status_id: 1,
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < extraUsers.length; i += BATCH) {
    await db
      .insertInto('users')
      .values(extraUsers.slice(i, i + BATCH))
      .execute();
  }

  const users = await db.selectFrom('users').select(['id', 'username']).orderBy('id').execute();
  const idOf = (username: string) => users.find((u) => u.username === username)!.id;
  const everyone = users.map((u) => u.id);
  const [admin, supervisor] = [idOf('admin'), idOf('supervisor')];
  const catalog = async (table: 'projects' | 'categories' | 'priority_types' | 'difficulties') =>
    (await db.selectFrom(table).select('id').execute()).map((r) => r.id);
  const [projects, categories, priorities, difficulties] = await Promise.all([
    catalog('projects'),
    catalog('categories'),
    catalog('priority_types'),
    catalog('difficulties'),
  ]);
  const statuses = await db.selectFrom('ticket_statuses').select(['id', 'stage']).execute();
  const byStage = (stage: string) => statuses.filter((s) => s.stage === stage).map((s) => s.id);
  const [open, started, closed] = [byStage('open'), byStage('started'), byStage('closed')];

  const start = Date.now() - YEARS * 365 * 24 * 60 * 60 * 1000;
  const step = (Date.now() - start) / count;

  await db.transaction().execute(async (trx) => {
    let batch: Insertable<TicketsTable>[] = [];
    for (let i = 0; i < count; i++) {
      const [name, description] = pick(ticketTemplates);
      const place = pick(places);
      const r = next();
      const creator = r < 0.08 ? admin : r < 0.16 ? supervisor : r < 0.165 ? agente.id : pick(everyone);
      const a = next();
      const assignee = a < 0.1 ? null : a < 0.105 ? agente.id : pick(everyone);
      const age = 1 - i / count;
      const s = next();
      const status =
        assignee === null ? pick(open) : s < 0.15 + age * 0.7 ? pick(closed) : s < 0.9 ? pick(started) : pick(open);
      const createdAt = new Date(start + i * step).toISOString();
      batch.push({
        name: `${name} ${place}`,
        description: `${description} en ${place} folio ${10_000 + Math.floor(next() * 90_000)}`,
        area_id: pick(areas),
        project_id: pick(projects),
        category_id: pick(categories),
        priority_type_id: pick(priorities),
        difficulty_id: pick(difficulties),
        status_id: status,
        created_by: creator,
        user_assigned_id: assignee,
        created_at: createdAt,
        updated_at: createdAt,
      });
      if (batch.length === BATCH || i === count - 1) {
        await trx.insertInto('tickets').values(batch).execute();
        batch = [];
      }
    }
  });
}
