import { TICKET_FIELDS, ticketExportFields, type TicketField, type TTicketExportQuery } from '@portal/contract';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/schema.ts';
import { withTicketDerivationsSuspended } from '../src/db/ticket-derivations.ts';
import { csvLine } from '../src/lib/csv.ts';
import { readCsv } from '../src/lib/csv-reader.ts';
import { importTicketsFile } from '../src/modules/ticket-import/ticket-import-file.ts';
import { postgresSchema, sqliteSchema } from './schema-dump.ts';
import { attrBitmaps, indexedWordCounts, keptWordCounts, parseCsv, sqliteAttrBits } from './ticket-recount.ts';
import { createTestApp, dialects, type TestApp } from './helper.ts';

const BOUNDARY = '----portal-import-boundary-4f1c';

function multipart(csv: string): { payload: Buffer; headers: Record<string, string> } {
  const payload = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="historia.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    Buffer.from(csv),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}

/** Removes accents and changes the case of every other letter: what a spreadsheet typed by hand may hold. */
const scrambled = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .split('')
    .map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase()))
    .join('');

/**
 * The columns a file written by hand carries: the export's, but those the portal works out (an
 * SLA's) and the optional group, which an older export lacks.
 */
const header = csvLine(
  ticketExportFields.flatMap((key) => {
    const field = TICKET_FIELDS[key] as TicketField;
    return field.isDerived || key === 'group' ? [] : [field.label];
  }),
);

describe('readCsv', () => {
  it('reads quoted fields with commas, quotes and line breaks, and numbers each record by its first line', async () => {
    const text = '\uFEFFa,b\r\n"x, y","dice ""hola""\nsegunda"\r\n\r\nz,\n';
    // Chunks cut anywhere, even inside a quote or between CR and LF.
    const chunks = text.match(/.{1,3}/gs)!;
    const records = [];
    for await (const batch of readCsv(
      (async function* () {
        yield* chunks;
      })(),
    ))
      records.push(...batch);
    expect(records).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['x, y', 'dice "hola"\nsegunda'] },
      { line: 5, cells: ['z', ''] },
    ]);
  });
});

/** The cells of a valid line of such a file, under `header`, with what the test changes. */
const handCells = (
  name: string,
  {
    description = 'Descripción correcta',
    status = 'Abierto',
    area = 'Almacén',
    created = '2020-01-01 00:00:00',
    updated = '',
  } = {},
) => [
  '',
  name,
  description,
  'Alta',
  status,
  'Ruta Bajío',
  area,
  'Incidencia',
  'Baja',
  'Ana Administradora',
  '',
  created,
  updated,
];

describe.each(dialects)('Ticket import on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let supervisor: string;
  const db = () => t.services.database.db;
  const ticketCount = async () =>
    Number(
      (
        await db()
          .selectFrom('tickets')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const upload = (token: string | null, csv: string) => {
    const { payload, headers } = multipart(csv);
    return t.app.inject({
      method: 'POST',
      url: '/api/tickets/import',
      headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload,
    });
  };
  const exportCsv = async (query: TTicketExportQuery) => {
    const res = await t.call(admin, 'POST', '/api/tickets/export', query);
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, supervisor] = await Promise.all([t.login('admin'), t.login('supervisor')]);
  });
  afterAll(() => t?.close());

  // First, while the portal holds its demo tickets alone (ids in creation order).
  it('imports an export into an empty portal: the same lists, search results and counts', async () => {
    // A second portal, emptied of tickets, takes the first one's export through the CLI's import.
    const target = await createTestApp(dialect);
    const work = mkdtempSync(path.join(tmpdir(), 'portal-import-'));
    try {
      await sql`delete from tickets`.execute(target.services.database.db);
      // More rows than the table holds: the load drops the indexes (and keys) and builds them again.
      const schemaOf = () =>
        (dialect === 'postgres' ? postgresSchema : sqliteSchema)(
          target.services.database.db as unknown as Kysely<unknown>,
        );
      const schemaBefore = await schemaOf();
      const file = path.join(work, 'export.csv');
      writeFileSync(file, await exportCsv({ list: 'general', search: '' }));
      const printed: string[] = [];
      const ok = await importTicketsFile(
        target.services.database,
        target.config.databaseUrl ? undefined : target.config.sqliteFile,
        file,
        (line) => printed.push(line),
      );
      expect(ok, printed.join('\n')).toBe(true);
      expect(printed.some((l) => /^Guardando: \d+ de \d+ tickets/.test(l))).toBe(true);
      expect(printed.at(-1)).toMatch(/^Se importaron \d+ tickets\./);
      expect(await schemaOf()).toBe(schemaBefore);

      const targetAdmin = await target.login('admin');
      // Ids differ (new ones, in creation order): everything else of each line must match, in order.
      const withoutIds = (csv: string) => parseCsv(csv.replace(/^\uFEFF/, '')).map((cells) => cells.slice(1));
      const queries: TTicketExportQuery[] = [
        { list: 'general', search: '' },
        { list: 'general', search: '', sort: { by: 'name', dir: 'asc' } },
        { list: 'general', search: '', sort: { by: 'priority', dir: 'desc' } },
        { list: 'general', search: 'montacargas' },
        { list: 'general', search: 'almacen', filters: { stage: ['closed'] } },
        { list: 'current', search: '' },
        { list: 'old', search: '' },
      ];
      for (const query of queries) {
        const theirs = await target.call(targetAdmin, 'POST', '/api/tickets/export', query);
        expect(withoutIds(theirs.body), JSON.stringify(query)).toEqual(withoutIds(await exportCsv(query)));
      }
      for (const [url, body] of [
        ['/api/general-tickets', {}],
        ['/api/general-tickets', { search: 'montacargas' }],
        ['/api/tickets/current', {}],
        ['/api/tickets/old', {}],
        ['/api/tickets', {}],
      ] as const) {
        const [mine, theirs] = await Promise.all([
          t.call(admin, 'POST', url, body),
          target.call(targetAdmin, 'POST', url, body),
        ]);
        expect(theirs.json().meta.total, url).toBe(mine.json().meta.total);
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
      await target.close();
    }
  });

  it('finds catalogue values and users by name without regard to case or accents, and keeps the dates', async () => {
    const area = await db()
      .selectFrom('areas')
      .select(['id', 'name'])
      .where('name', '=', 'Almacén')
      .executeTakeFirstOrThrow();
    const status = await db()
      .selectFrom('ticket_statuses')
      .select(['id', 'name', 'stage'])
      .where('name', '=', 'En progreso')
      .executeTakeFirstOrThrow();
    const creator = await db()
      .selectFrom('users')
      .select(['id', 'name', 'last_name'])
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    const assignee = await db()
      .selectFrom('users')
      .select(['id', 'name', 'last_name'])
      .where('username', '=', 'agente')
      .executeTakeFirstOrThrow();
    const name = (table: 'priority_types' | 'projects' | 'categories' | 'difficulties') =>
      db().selectFrom(table).select(['id', 'name']).orderBy('id').executeTakeFirstOrThrow();
    const [priority, project, category, difficulty] = await Promise.all(
      (['priority_types', 'projects', 'categories', 'difficulties'] as const).map(name),
    );
    const csv =
      header +
      csvLine([
        '',
        'Importado de la hoja',
        'Falla de cámara fría registrada en 2019',
        scrambled(priority!.name),
        scrambled(status.name),
        `  ${scrambled(project!.name)} `,
        scrambled(area.name),
        scrambled(category!.name),
        scrambled(difficulty!.name),
        scrambled(`${creator.name}  ${creator.last_name}`),
        scrambled(`${assignee.name} ${assignee.last_name}`),
        '2019-03-04 05:06:07',
        '2019-03-05 08:00:00',
      ]);
    const before = await ticketCount();
    const res = await upload(admin, csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const events = res.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { phase: string });
    // One row into a portal that holds more: its triggers derive it, nothing is rebuilt.
    expect(events.map((e) => e.phase)).toEqual(['loading', 'done']);
    expect(events.at(-1)).toEqual({ phase: 'done', imported: 1, message: 'Se importó 1 ticket.' });
    expect(await ticketCount()).toBe(before + 1);

    const row = await db()
      .selectFrom('tickets')
      .selectAll()
      .where('name', '=', 'Importado de la hoja')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      area_id: area.id,
      status_id: status.id,
      stage: status.stage,
      priority_type_id: priority!.id,
      project_id: project!.id,
      category_id: category!.id,
      difficulty_id: difficulty!.id,
      created_by: creator.id,
      user_assigned_id: assignee.id,
    });
    expect(new Date(row.created_at).toISOString()).toBe('2019-03-04T05:06:07.000Z');
    expect(new Date(row.updated_at).toISOString()).toBe('2019-03-05T08:00:00.000Z');

    // The derivations were rebuilt: the search finds it, with its filters, and the counters count it.
    const found = await t.call(admin, 'POST', '/api/general-tickets', {
      search: 'camara fria 2019',
      filters: { area_id: [area.id], user_assigned_id: [assignee.id] },
    });
    expect(found.json().data.map((x: { id: number }) => x.id)).toEqual([row.id]);
    const all = await t.call(admin, 'POST', '/api/general-tickets', {});
    expect(all.json().meta.total).toBe(before + 1);
  });

  it('reports every line that cannot be imported, with its number and reason, and writes nothing', async () => {
    const good = (name: string) => handCells(name);
    const lines = [good('Primera buena'), good('Segunda buena')];
    const bad1 = good('Mala área');
    bad1[6] = 'Bodega Lunar';
    const bad2 = good('Mala fecha y usuario');
    bad2[11] = '31/02/2020';
    bad2[10] = 'Nadie Conocido';
    // Shaped like dates, but days the calendar lacks.
    const bad3 = good('Días que no existen');
    bad3[11] = '2021-02-29 10:00:00';
    bad3[12] = '2021-04-31 24:00:00';
    const leap = good('Bisiesto');
    leap[11] = '2024-02-29 23:59:59';
    const csv = header + [lines[0]!, bad1, lines[1]!, bad2, bad3, leap].map(csvLine).join('') + 'sólo,tres,celdas\r\n';
    const before = await ticketCount();
    const res = await upload(admin, csv);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({
      status: false,
      message: '4 líneas no se pudieron importar; no se importó ningún ticket.',
      errors: {
        3: ['Área: no existe «Bodega Lunar».'],
        5: [
          'Asignado a: no existe «Nadie Conocido».',
          'Creado: «31/02/2020» no es una fecha válida (AAAA-MM-DD HH:MM:SS, en UTC).',
        ],
        6: [
          'Creado: «2021-02-29 10:00:00» no es una fecha válida (AAAA-MM-DD HH:MM:SS, en UTC).',
          'Actualizado: «2021-04-31 24:00:00» no es una fecha válida (AAAA-MM-DD HH:MM:SS, en UTC).',
        ],
        8: ['La línea tiene 3 columnas; se esperaban 13.'],
      },
    });
    expect(await ticketCount()).toBe(before);

    const noColumns = await upload(admin, 'Ticket,Color\r\nx,y\r\n');
    expect(noColumns.statusCode).toBe(422);
    const messages = noColumns.json().errors['1'];
    expect(messages).toContain('Columna desconocida: «Color».');
    expect(messages).toContain(`Falta la columna «${TICKET_FIELDS.area.label}».`);
    expect(await ticketCount()).toBe(before);
  });

  it('refuses users other than administrators, and anyone without a session', async () => {
    const csv = header;
    const before = await ticketCount();
    const refused = await upload(supervisor, csv);
    expect(refused.statusCode).toBe(403);
    expect((await upload(null, csv)).statusCode).toBe(401);
    expect(await ticketCount()).toBe(before);
    // Tickets Generales shows the action by the section's w flag: the administrator's, not the supervisor's.
    const flags = async (token: string, roleId: number) =>
      (
        await t.call(token, 'POST', '/api/check-permission', {
          user_id: 0,
          role_id: roleId,
          route_name: 'general-tickets',
        })
      )
        .json()
        .sections?.find((s: { name: string }) => s.name === 'ti_import');
    expect(Number((await flags(admin, 1))?.w)).toBe(1);
    expect(Number((await flags(supervisor, 2))?.w ?? 0)).toBe(0);
  });

  it('imports a file smaller than the table through the triggers: nothing is rebuilt, and the derived figures are a recount', async () => {
    const line = (name: string, status: string) =>
      csvLine(
        handCells(name, {
          description: 'Tarima ornitorrinco revisada',
          status,
          created: '2021-06-01 10:00:00',
          updated: '2021-06-02 10:00:00',
        }),
      );
    const searchIndex = async () =>
      dialect === 'postgres'
        ? (await sql<{ oid: number }>`select 'tickets_search_idx'::regclass::oid as oid`.execute(db())).rows[0]?.oid
        : null;
    const indexBefore = await searchIndex();
    const res = await upload(
      admin,
      header + line('Ornitorrinco abierto', 'Abierto') + line('Ornitorrinco cerrado', 'Cerrado'),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res.body
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { phase: string }).phase),
    ).toEqual(['loading', 'done']);
    const imported = await db()
      .selectFrom('tickets')
      .select(['id', 'stage'])
      .where('name', 'like', 'Ornitorrinco %')
      .orderBy('id')
      .execute();
    expect(imported.map((r) => r.stage)).toEqual(['open', 'closed']);
    if (dialect === 'postgres') {
      // The text index was neither dropped nor built again.
      expect(await searchIndex()).toBe(indexBefore);
    } else {
      // The text index takes them from its queue, a bounded step at a time, as any write's.
      const queued = await sql<{ id: number }>`select id from tickets_fts_pending order by id`.execute(db());
      expect(queued.rows.map((r) => r.id)).toEqual(expect.arrayContaining(imported.map((r) => r.id)));
    }
    const found = (await t.call(admin, 'POST', '/api/general-tickets', { search: 'ornitorrinco' })).json();
    expect(found.data.map((x: { name: string }) => x.name).sort()).toEqual([
      'Ornitorrinco abierto',
      'Ornitorrinco cerrado',
    ]);
    const old = (await t.call(admin, 'POST', '/api/tickets/old', { search: 'ornitorrinco' })).json();
    expect(old.data.map((x: { name: string }) => x.name)).toEqual(['Ornitorrinco cerrado']);

    // What the triggers derived is what rebuilding everything from the tickets gives.
    const figures = async () => ({
      counts: (
        await sql`select kind, user_id, stage, sum(n) as n from ticket_counts group by kind, user_id, stage
          having sum(n) <> 0 order by kind, user_id, stage`.execute(db())
      ).rows,
      bitmaps: dialect === 'postgres' ? await attrBitmaps(db()) : await sqliteAttrBits(db()),
      ...(dialect === 'postgres'
        ? { words: await keptWordCounts(db()) }
        : { words: (await sql`select word from ticket_words order by word`.execute(db())).rows }),
    });
    const maintained = await figures();
    if (dialect === 'postgres') expect(maintained.words).toEqual(await indexedWordCounts(db()));
    await db()
      .transaction()
      .execute((trx) => withTicketDerivationsSuspended<DB>(trx, dialect, () => Promise.resolve()));
    expect(await figures()).toEqual(maintained);
  });

  it('leaves nothing of a load that fails, and puts the derivations back', async () => {
    const area = await db()
      .insertInto('areas')
      .values({
        name: 'Área efímera',
        status_id: 1,
        created_at: '2020-01-01T00:00:00.000Z',
        updated_at: '2020-01-01T00:00:00.000Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const line = (name: string, areaName: string) =>
      csvLine(handCells(name, { description: 'Carga interrumpida', area: areaName, created: '2021-05-01 10:00:00' }));
    const csv =
      header + line('Carga uno', 'Almacén') + line('Carga dos', 'Almacén') + line('Carga tres', 'área EFÍMERA');
    const checked = await t.services.ticketImporter.check(
      (async function* () {
        yield csv;
      })(),
    );
    expect(checked.errorCount).toBe(0);
    // The area goes between the check and the load: the last row's insert fails on its reference.
    await db().deleteFrom('areas').where('id', '=', area.id).execute();
    const before = await ticketCount();
    const total = (await t.call(admin, 'POST', '/api/general-tickets', {})).json().meta.total;
    await expect(t.services.ticketImporter.load(checked.rows)).rejects.toThrow();
    expect(await ticketCount()).toBe(before);
    expect(await db().selectFrom('tickets').select('id').where('name', 'like', 'Carga %').execute()).toEqual([]);
    // The triggers are on again: a ticket created now is counted and found.
    const created = await t.call(admin, 'POST', '/api/tickets/create', {
      name: 'Después de la carga',
      description: 'Creado tras una importación fallida',
      area_id: 1,
      project_id: 1,
      category_id: 1,
      priority_type_id: 1,
      difficulty_id: 1,
      status_id: 1,
    });
    expect(created.statusCode, created.body).toBe(201);
    const after = await t.call(admin, 'POST', '/api/general-tickets', { search: 'importacion fallida' });
    expect(after.json().data.map((x: { name: string }) => x.name)).toEqual(['Después de la carga']);
    expect((await t.call(admin, 'POST', '/api/general-tickets', {})).json().meta.total).toBe(total + 1);
  });
});
