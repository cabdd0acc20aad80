import SQLite from 'better-sqlite3';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, Dialect } from '../apps/api/src/db/database.ts';
import type { DB, UsersTable } from '../apps/api/src/db/schema.ts';
import { places, ticketTemplates } from '../apps/api/src/db/seed-tickets.ts';
import {
  pgTicketLoader,
  sqliteTicketLoader,
  TICKET_LOAD_BATCH,
  withPgTicketIndexesOff,
  withSqliteTicketIndexesOff,
  type TicketLoader,
  type TicketLoadRow,
} from '../apps/api/src/db/ticket-bulk-load.ts';
import { withTicketDerivationsSuspended } from '../apps/api/src/db/ticket-derivations.ts';

/** The demo's six users plus these make about 50. */
const EXTRA_AGENTS = 44;
/** The demo's groups plus enough of these make 20; every ticket belongs to one of them. */
const GROUPS = 20;
const YEARS = 3;

/**
 * Deterministic, so two runs measure the same data: mulberry32, whose state stays a
 * 32-bit integer. (The LCG used before multiplied past 2^53 in floating point, lost
 * its low bits and repeated every 763 tickets: 1M tickets held about 1,200 distinct
 * rows, and every filter combination fell on the same ids of each cycle.)
 */
export function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Adds `count` tickets to a demo-seeded database, as a three-year-old
 * organisation of about 50 people would hold them: most closed, the
 * administrator and the supervisor creating a larger share, one in ten
 * unassigned. Ids grow with the date. The rows go in by bulk statements with
 * the per-row triggers suspended, and the search index and counters are
 * rebuilt once at the end (db/ticket-derivations.ts). On SQLite, pass the
 * database file: the rows are written through a connection of their own.
 */
/** Tickets per shipment: 1,000,000 tickets name 200,000 distinct shipments. */
export const TICKETS_PER_SHIPMENT = 5;

/** The shipment (an Embarque reference) the i-th generated ticket names: five consecutive tickets share one. */
export const shipmentOf = (i: number) =>
  `EMB-${String(Math.floor(i / TICKETS_PER_SHIPMENT) % 1_000_000).padStart(6, '0')}`;

export async function generateTickets(database: Database, count: number, sqliteFile?: string): Promise<void> {
  const { db } = database;
  const next = random(42);
  // Closed tickets closed from minutes to weeks after creation (a stream of its own, so the rest stays as it was).
  const closing = random(7);
  const closedAt = (created: number) =>
    new Date(Math.min(Date.now(), created + 600_000 * Math.exp(closing() * 8))).toISOString();
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
  await db.insertInto('users').values(extraUsers).execute();

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
  const existingGroups = (await db.selectFrom('groups').select('name').execute()).length;
  if (existingGroups < GROUPS)
    await db
      .insertInto('groups')
      .values(
        Array.from({ length: GROUPS - existingGroups }, (_, i) => ({
          name: `Equipo de prueba ${i + 1}`,
          status_id: 1,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  const groups = (await db.selectFrom('groups').select('id').orderBy('id').execute()).map((r) => r.id);
  // A stream of its own, so the other columns stay as they were before tickets had groups.
  const grouping = random(11);
  const statuses = await db.selectFrom('ticket_statuses').select(['id', 'stage']).execute();
  const byStage = (stage: string) => statuses.filter((s) => s.stage === stage);
  const [open, started, closed] = [byStage('open'), byStage('started'), byStage('closed')];

  const start = Date.now() - YEARS * 365 * 24 * 60 * 60 * 1000;
  const step = (Date.now() - start) / count;

  function* rows(): Generator<TicketLoadRow> {
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
      const updatedAt = status.stage === 'closed' ? closedAt(start + i * step) : createdAt;
      yield [
        `${name} ${place}`,
        `${description} en ${place} folio ${10_000 + Math.floor(next() * 90_000)} embarque ${shipmentOf(i)}`,
        pick(areas),
        pick(projects),
        pick(categories),
        pick(priorities),
        pick(difficulties),
        status.id,
        status.stage,
        creator,
        assignee,
        createdAt,
        updatedAt,
        groups[Math.floor(grouping() * groups.length)]!,
      ];
    }
  }

  const firstId =
    Number(
      (
        await db
          .selectFrom('tickets')
          .select((eb) => eb.fn.max('id').as('n'))
          .executeTakeFirst()
      )?.n ?? 0,
    ) + 1;
  const load = async (loader: TicketLoader) => {
    let batch: TicketLoadRow[] = [];
    for (const row of rows()) {
      batch.push(row);
      if (batch.length === TICKET_LOAD_BATCH[database.dialect]) {
        await loader.write(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await loader.write(batch);
  };
  if (database.dialect === 'postgres') {
    // One transaction, so the indexes and keys of `tickets` are built once after the rows.
    await db.transaction().execute((trx) =>
      withTicketDerivationsSuspended(trx, 'postgres', () =>
        withPgTicketIndexesOff(trx, async () => {
          await load(pgTicketLoader(trx));
          await giveSlas(trx, 'postgres');
        }),
      ),
    );
  } else {
    await withTicketDerivationsSuspended(db, 'sqlite', async () => {
      if (!sqliteFile) throw new Error('generateTickets on SQLite needs the database file');
      // The rows go in through a connection of their own, whose pages stay in memory: a bench
      // database, rebuilt at will.
      const connection = new SQLite(sqliteFile);
      try {
        connection.pragma('busy_timeout = 5000');
        connection.pragma('cache_size = -1000000');
        connection.pragma('synchronous = OFF');
        const loader = sqliteTicketLoader(connection);
        await withSqliteTicketIndexesOff(connection, () => load(loader));
      } finally {
        connection.close();
      }
      await giveSlas(db, 'sqlite');
    });
  }
  await writeShipmentReferences(database, firstId, count);
}

/**
 * The generated tickets' references, as the portal would have extracted them (each names one
 * shipment), written in batches; the reference types are then marked up to date, so the server
 * does not re-extract the whole table when it starts.
 */
async function writeShipmentReferences(database: Database, firstId: number, count: number): Promise<void> {
  const { db } = database;
  const type = await db.selectFrom('reference_types').select('id').where('name', '=', 'Embarque').executeTakeFirst();
  if (type) {
    // The k-th ticket loaded (by id; a sequence may have skipped ids) names shipmentOf(k).
    let [after, k] = [firstId - 1, 0];
    for (;;) {
      const ids = await db
        .selectFrom('tickets')
        .select('id')
        .where('id', '>', after)
        .orderBy('id')
        .limit(5_000)
        .execute();
      if (ids.length === 0 || k >= count) break;
      const values = ids.map(({ id }) => ({ ticket_id: id, type_id: type.id, value: shipmentOf(k++) }));
      await db.insertInto('ticket_references').values(values).execute();
      after = ids.at(-1)!.id;
    }
  }
  await db.deleteFrom('reference_reextractions').execute();
}

/**
 * Every generated ticket's SLA, worked out by one statement (an approximation on the clock, not
 * on a calendar: the lists read the columns, not how they were computed). One in twenty has no
 * policy; the others are due from 30 min to 4 h (first response) and 4 h to 40 h (resolution)
 * after their creation. A closed ticket is met, one in seven breached, resolved when it closed (its
 * last update), as the SLA clock leaves it; an open one is breached past its due date, at risk in
 * its last hour, on time before. Open tickets are mostly new ones,
 * so the at-risk and breached tickets are a minority spread over the years. Each open one past a
 * threshold was alerted for it (`sla_alerted`), as the alert sweep leaves a portal that ran: the
 * sweep of a served database finds only what crosses while it runs.
 */
async function giveSlas(db: Kysely<DB>, dialect: Dialect): Promise<void> {
  const now = new Date().toISOString();
  const hourLater = new Date(Date.now() + 3_600_000).toISOString();
  if (dialect === 'postgres') {
    await sql`update tickets set
        first_response_due_at = created_at + make_interval(mins => 30 * (1 + (id * 7) % 8)),
        resolution_due_at = created_at + make_interval(hours => 4 * (1 + (id * 13) % 10)),
        resolved_at = case when stage = 'closed' then updated_at end,
        sla_at_risk_at = created_at + make_interval(hours => 4 * (1 + (id * 13) % 10)) - interval '1 hour',
        sla_state = case when stage = 'closed' then (case when id % 7 = 0 then 'breached' else 'met' end)
          when created_at + make_interval(hours => 4 * (1 + (id * 13) % 10)) < ${now}::timestamptz then 'breached'
          when created_at + make_interval(hours => 4 * (1 + (id * 13) % 10)) < ${hourLater}::timestamptz then 'at_risk'
          else 'ok' end,
        sla_alerted = case when stage = 'closed' then 0
          when created_at + make_interval(hours => 4 * (1 + (id * 13) % 10)) < ${now}::timestamptz then 2
          when created_at + make_interval(hours => 4 * (1 + (id * 13) % 10)) < ${hourLater}::timestamptz then 1
          else 0 end
      where id % 20 <> 0`.execute(db);
    return;
  }
  const due = (minutes: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+' || (${minutes}) || ' minutes')`;
  const resolution = due('240 * (1 + (id * 13) % 10)');
  await sql`update tickets set
      first_response_due_at = ${sql.raw(due('30 * (1 + (id * 7) % 8)'))},
      resolution_due_at = ${sql.raw(resolution)},
      resolved_at = case when stage = 'closed' then updated_at end,
      sla_at_risk_at = ${sql.raw(due('240 * (1 + (id * 13) % 10) - 60'))},
      sla_state = case when stage = 'closed' then (case when id % 7 = 0 then 'breached' else 'met' end)
        when ${sql.raw(resolution)} < ${now} then 'breached'
        when ${sql.raw(resolution)} < ${hourLater} then 'at_risk'
        else 'ok' end,
      sla_alerted = case when stage = 'closed' then 0
        when ${sql.raw(resolution)} < ${now} then 2
        when ${sql.raw(resolution)} < ${hourLater} then 1
        else 0 end
    where id % 20 <> 0`.execute(db);
}
