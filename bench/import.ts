/**
 * The CSV import at scale: writes a file of N tickets in the export's format (names of the demo
 * catalogues and users, three years of dates, newest first as an export lists them), then imports
 * it through `npm run tickets:import`'s code into a fresh demo database, and prints the time of
 * each step and the total, per dialect. With `--into N` the database first holds N generated
 * tickets (bench/generate-tickets.ts), so a small import into a large table is measured; meanwhile
 * a reader asks for the newest page of tickets every 20 ms on the portal's own connection, and
 * its longest wait is printed (what a person listing tickets waits while the import runs).
 *
 *   npx tsx bench/import.ts [--tickets 1000000] [--dialect sqlite|postgres|both]
 *   npx tsx bench/import.ts --tickets 100 --into 1000000 --dialect postgres
 *
 * PostgreSQL databases are created on BENCH_PG_ADMIN_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres) and dropped after.
 */
import { TICKET_EXPORT_COLUMNS, ticketExportFields } from '@portal/contract';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createPgDatabase, dropDatabase } from '../apps/api/test/helper.ts';
import { createDatabase, type Database } from '../apps/api/src/db/database.ts';
import { migrateToLatest } from '../apps/api/src/db/migrator.ts';
import { seedIfEmpty } from '../apps/api/src/db/seed.ts';
import { places, ticketTemplates } from '../apps/api/src/db/seed-tickets.ts';
import { csvLine } from '../apps/api/src/lib/csv.ts';
import { importTicketsFile } from '../apps/api/src/modules/ticket-import/ticket-import-file.ts';
import { generateTickets, random } from './generate-tickets.ts';

const { values: args } = parseArgs({
  options: {
    tickets: { type: 'string', default: '1000000' },
    dialect: { type: 'string', default: 'both' },
    into: { type: 'string', default: '0' },
  },
});
const count = Number(args.tickets);
const into = Number(args.into);
const adminUrl =
  process.env.BENCH_PG_ADMIN_URL ?? process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const work = mkdtempSync(path.join(tmpdir(), 'portal-import-bench-'));

/** The CSV file, as the export writes it (newest first), from the names in `database`. */
async function writeCsv(database: Database, file: string): Promise<void> {
  const { db } = database;
  const names = async (table: 'priority_types' | 'projects' | 'areas' | 'categories' | 'difficulties') =>
    (await db.selectFrom(table).select('name').execute()).map((r) => r.name);
  const [priorities, projects, areas, categories, difficulties] = await Promise.all(
    (['priority_types', 'projects', 'areas', 'categories', 'difficulties'] as const).map(names),
  );
  const statuses = await db.selectFrom('ticket_statuses').select(['name', 'stage']).execute();
  const users = (
    await db
      .selectFrom('users')
      .select(sql<string>`name || ' ' || last_name`.as('name'))
      .execute()
  ).map((r) => r.name);
  const next = random(42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const end = Date.now();
  const step = (3 * 365 * 24 * 3600 * 1000) / count;
  const date = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  const out = createWriteStream(file);
  out.write('\uFEFF' + csvLine([...TICKET_EXPORT_COLUMNS]));
  let chunk = '';
  for (let i = count; i >= 1; i--) {
    const [name, description] = pick(ticketTemplates);
    const place = pick(places);
    const status = pick(statuses);
    const assignee = next() < 0.1 ? '' : pick(users);
    const created = end - (count - i) * step;
    // Cells by field, in the export's column order; the derived ones (SLA) are left empty.
    const cells: Partial<Record<(typeof ticketExportFields)[number], string | number>> = {
      id: i,
      name: `${name} ${place}`,
      description: `${description} en ${place} folio ${10_000 + Math.floor(next() * 90_000)}`,
      priority: pick(priorities),
      status: status.name,
      project: pick(projects),
      area: pick(areas),
      category: pick(categories),
      difficulty: pick(difficulties),
      creator: pick(users),
      assignee,
      created: date(created),
      updated: date(status.stage === 'closed' ? created + 3_600_000 : created),
    };
    chunk += csvLine(ticketExportFields.map((key) => cells[key] ?? ''));
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

async function run(dialect: 'sqlite' | 'postgres'): Promise<void> {
  let dbName: string | undefined;
  let databaseUrl: string | undefined;
  const sqliteFile = path.join(work, `${dialect}.sqlite`);
  if (dialect === 'postgres') {
    ({ name: dbName, url: databaseUrl } = await createPgDatabase('portal_import_bench', adminUrl));
  }
  const database = createDatabase({ databaseUrl, sqliteFile });
  try {
    await migrateToLatest(database);
    await seedIfEmpty(database, { demo: true, adminPassword: undefined });
    if (into > 0) {
      const started = performance.now();
      await generateTickets(database, into, databaseUrl ? undefined : sqliteFile);
      console.log(`[${dialect}] generated ${into.toLocaleString('en')} tickets in ${s(started)}`);
    }
    const file = path.join(work, `tickets-${dialect}.csv`);
    let started = performance.now();
    await writeCsv(database, file);
    console.log(`[${dialect}] wrote ${count.toLocaleString('en')} tickets as CSV in ${s(started)}`);
    const reader = startReader(database);
    started = performance.now();
    const ok = await importTicketsFile(database, databaseUrl ? undefined : sqliteFile, file, (line) =>
      console.log(`[${dialect}] ${line}`),
    );
    const seconds = s(started);
    const reads = await reader.stop();
    const { n } = await database.db
      .selectFrom('tickets')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    console.log(
      `[${dialect}] import ${ok ? 'done' : 'REJECTED'}: ${seconds} for ${count.toLocaleString('en')} tickets (${String(n)} in the table)`,
    );
    console.log(
      `[${dialect}] reader meanwhile: ${reads.count} reads of the newest page, longest ${reads.longestMs.toFixed(0)} ms`,
    );
  } finally {
    await database.destroy();
    if (dbName) await dropDatabase(dbName, adminUrl);
  }
}

/**
 * Reads the newest page of tickets (ids and names, as a list's first page does) every 20 ms
 * until stopped. Each wait is timed from when its read was due to when it answered, so a
 * process held by the import (SQLite's load runs in it) counts as well as a locked table.
 */
function startReader(database: Database) {
  let isStopped = false;
  let count = 0;
  let longestMs = 0;
  let due = performance.now();
  const done = (async () => {
    while (!isStopped) {
      await database.db.selectFrom('tickets').select(['id', 'name']).orderBy('id', 'desc').limit(20).execute();
      longestMs = Math.max(longestMs, performance.now() - due);
      count += 1;
      due = performance.now() + 20;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      // A read due and not served yet (the process was held until now) has waited this long.
      longestMs = Math.max(longestMs, performance.now() - due);
      isStopped = true;
      await done;
      return { count, longestMs };
    },
  };
}

const s = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

try {
  for (const dialect of args.dialect === 'both'
    ? (['sqlite', 'postgres'] as const)
    : [args.dialect as 'sqlite' | 'postgres']) {
    await run(dialect);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
