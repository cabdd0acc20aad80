import {
  TICKET_FIELDS,
  TICKET_IMPORT_MAX_LISTED_ERRORS,
  TICKET_IMPORT_MSG,
  ticketExportFields,
  ZTicketWrite,
  type TicketField,
  type TTicketImportError,
} from '@portal/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { TICKET_LOAD_COLUMNS, type TicketLoadRow } from '../../db/ticket-bulk-load.ts';
import { readCsv } from '../../lib/csv-reader.ts';
import {
  AMBIGUOUS,
  foldName,
  loadTicketRows,
  readLookups,
  type ReferenceExtractor,
  type TicketImportProgress,
} from './ticket-import.repository.ts';

export type { TicketImportProgress } from './ticket-import.repository.ts';

/**
 * Importing tickets from CSV in the export's own format (tickets/ticket-csv.ts): the columns
 * are the exported fields of TICKET_FIELDS, found by their Spanish label in the header, in any
 * order. Catalogue values and users are found by name, without regard to case, accents or
 * repeated spaces; a status brings its stage. The file is read and checked whole before
 * anything is written: every line that cannot be imported is reported with its number and the
 * reason, and then nothing is. Tickets keep their dates and get new ids in the order of their
 * creation dates (the file's ids break ties), so the id order stays the creation order among
 * them.
 *
 * The load is one transaction, by batches (`loadTicketRows`: a load larger than the table
 * suspends the per-row derivations and rebuilds them once; a smaller one goes through the
 * triggers): a failure anywhere leaves nothing of it. Imported tickets have no timeline entries.
 */

/** What reading the file found: the rows in load order, or why lines cannot be imported. */
export interface CheckedCsv {
  rows: TicketLoadRow[];
  /** The first TICKET_IMPORT_MAX_LISTED_ERRORS rejected lines' reasons. */
  errors: TTicketImportError[];
  /** Every reason found. */
  errorCount: number;
  /** How many lines have one reason or more. */
  rejectedLines: number;
}

const exportedFields = ticketExportFields
  .map((key) => ({ key, field: TICKET_FIELDS[key] as TicketField }))
  .filter(({ field }) => !field.isDerived);
/** The columns of derived fields (an SLA's state and due dates), which the portal works out again: skipped. */
const derivedLabels = new Set(
  ticketExportFields.flatMap((key) => {
    const field = TICKET_FIELDS[key] as TicketField;
    return field.isDerived ? [foldName(field.label)] : [];
  }),
);
const columnIndex = (column: string) => TICKET_LOAD_COLUMNS.indexOf(column as (typeof TICKET_LOAD_COLUMNS)[number]);
const STAGE = columnIndex('stage');
const CREATED = columnIndex(TICKET_FIELDS.created.column);
const UPDATED = columnIndex(TICKET_FIELDS.updated.column);
const STATUS = columnIndex(TICKET_FIELDS.status.column);

/** The export neutralises a cell a spreadsheet would run as a formula with an apostrophe: undone here. */
const unneutralised = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

const DATE_CELL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z?$/;

/** `2026-03-01 14:05:09` (the export's), or ISO-8601 in UTC, → `2026-03-01T14:05:09.000Z`; null if not a date. */
function isoDate(cell: string): string | null {
  const m = DATE_CELL.exec(cell.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as number[];
  // A day the calendar lacks (31 April, 29 February of a common year) comes back as another one.
  const date = new Date(Date.UTC(2000, month! - 1, day, hour, minute, second));
  date.setUTCFullYear(year!);
  const isReal =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month! - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return isReal ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${(m[7] ?? '').padEnd(3, '0')}Z` : null;
}

/** The text fields' rules, as the ticket form has them. */
const textRules = ZTicketWrite.shape as unknown as Record<string, (typeof ZTicketWrite.shape)['name'] | undefined>;

/**
 * Reads and checks a CSV file: every line becomes a row to load, or the reasons it cannot be
 * imported. Rows come back sorted by creation date (then the file's id, then the line).
 */
export async function checkTicketCsv(
  db: Kysely<DB>,
  source: AsyncIterable<string | Buffer>,
  onProgress: (progress: TicketImportProgress) => void = () => undefined,
): Promise<CheckedCsv> {
  const lookups = await readLookups(db);
  const errors: TTicketImportError[] = [];
  let errorCount = 0;
  let rejectedLines = 0;
  let lastRejected = 0;
  const reject = (line: number, message: string) => {
    errorCount++;
    if (line !== lastRejected) rejectedLines++;
    lastRejected = line;
    if (errors.length < TICKET_IMPORT_MAX_LISTED_ERRORS) errors.push({ line, message });
  };

  /** Where each exported field's cell is in a line (-1: not in the file). */
  let positions: number[] | null = null;
  let width = 0;
  const rows: TicketLoadRow[] = [];
  const fileIds: number[] = [];
  const lines: number[] = [];
  // Each distinct cell of a catalogue or user column is looked up once.
  const resolved = exportedFields.map(() => new Map<string, number | string>());
  let linesRead = 0;

  const readHeader = (line: number, cells: string[]) => {
    width = cells.length;
    const byLabel = new Map(exportedFields.map(({ field }, i) => [foldName(field.label), i]));
    positions = exportedFields.map(() => -1);
    cells.forEach((cell, at) => {
      const i = byLabel.get(foldName(cell));
      if (i === undefined && derivedLabels.has(foldName(cell))) return;
      if (i === undefined) return reject(line, TICKET_IMPORT_MSG.unknownColumn(cell));
      if (positions![i] !== -1) return reject(line, TICKET_IMPORT_MSG.repeatedColumn(cell));
      positions![i] = at;
    });
    exportedFields.forEach(({ field }, i) => {
      if (positions![i] === -1 && !field.isOptionalOnImport) reject(line, TICKET_IMPORT_MSG.missingColumn(field.label));
    });
  };

  const readLine = (line: number, cells: string[]) => {
    if (cells.length !== width) return reject(line, TICKET_IMPORT_MSG.cellCount(cells.length, width));
    const row = new Array(TICKET_LOAD_COLUMNS.length) as TicketLoadRow;
    let fileId = 0;
    let isValid = true;
    const fail = (message: string) => {
      isValid = false;
      reject(line, message);
    };
    for (let i = 0; i < exportedFields.length; i++) {
      const { field } = exportedFields[i]!;
      const at = positions![i]!;
      const cell = at === -1 ? '' : cells[at]!;
      const target = columnIndex(field.column);
      if (field.kind === 'id') {
        fileId = Number(cell) || 0;
      } else if (field.kind === 'text') {
        const text = unneutralised(cell);
        const parsed = textRules[field.column]?.safeParse(text);
        if (parsed && !parsed.success)
          fail(TICKET_IMPORT_MSG.invalidText(field.label, parsed.error.issues[0]!.message));
        else (row as unknown[])[target] = parsed ? parsed.data : text;
      } else if (field.kind === 'dates') {
        if (cell.trim() === '') {
          if (field.isOptionalOnImport)
            (row as unknown[])[target] = null; // the creation date, below
          else fail(TICKET_IMPORT_MSG.required(field.label));
          continue;
        }
        const iso = isoDate(cell);
        if (iso === null) fail(TICKET_IMPORT_MSG.badDate(field.label, cell));
        else (row as unknown[])[target] = iso;
      } else if (field.references) {
        const name = cell.trim();
        if (name === '') {
          if (field.kind === 'optional-ids') (row as unknown[])[target] = null;
          else fail(TICKET_IMPORT_MSG.required(field.label));
          continue;
        }
        let found = resolved[i]!.get(cell);
        if (found === undefined) {
          const id = lookups.names[field.references].get(foldName(name));
          found =
            id === undefined
              ? TICKET_IMPORT_MSG.notFound(field.label, name)
              : id === AMBIGUOUS
                ? TICKET_IMPORT_MSG.ambiguous(field.label, name)
                : id;
          resolved[i]!.set(cell, found);
        }
        if (typeof found === 'string') fail(found);
        else (row as unknown[])[target] = found;
      }
    }
    if (!isValid) return;
    const values = row as unknown[];
    values[STAGE] = lookups.stageOf.get(values[STATUS] as number);
    const created = values[CREATED] as string;
    if (values[UPDATED] === null) values[UPDATED] = created;
    else if ((values[UPDATED] as string) < created) {
      const shown = created.slice(0, 19).replace('T', ' ');
      return reject(line, TICKET_IMPORT_MSG.beforeCreation(TICKET_FIELDS.updated.label, shown));
    }
    rows.push(row);
    fileIds.push(fileId);
    lines.push(line);
  };

  for await (const records of readCsv(source)) {
    for (const { line, cells } of records) {
      if (positions === null) readHeader(line, cells);
      else readLine(line, cells);
    }
    linesRead += records.length;
    onProgress({ phase: 'reading', lines: linesRead });
  }
  if (errorCount === 0 && rows.length === 0) reject(1, TICKET_IMPORT_MSG.empty);
  if (errorCount > 0) return { rows: [], errors, errorCount, rejectedLines };
  return { rows: inCreationOrder(rows, fileIds, lines), errors, errorCount, rejectedLines };
}

/** The rows by creation date, then the file's id, then the line (an export lists newest first: reversed). */
function inCreationOrder(rows: TicketLoadRow[], fileIds: number[], lines: number[]): TicketLoadRow[] {
  const compare = (a: number, b: number) => {
    const [ca, cb] = [rows[a]![CREATED] as string, rows[b]![CREATED] as string];
    if (ca !== cb) return ca < cb ? -1 : 1;
    return fileIds[a]! - fileIds[b]! || lines[a]! - lines[b]!;
  };
  let isAscending = true;
  let isDescending = true;
  for (let i = 1; i < rows.length && (isAscending || isDescending); i++) {
    if (compare(i - 1, i) > 0) isAscending = false;
    if (compare(i, i - 1) > 0) isDescending = false;
  }
  if (isAscending) return rows;
  if (isDescending) return rows.reverse();
  const order = Array.from(rows.keys()).sort(compare);
  return order.map((i) => rows[i]!);
}

/** The portal's importer: one import at a time per process (a second is refused while one runs). */
export function createTicketImporter(
  database: Pick<Database, 'db' | 'dialect'>,
  sqliteFile: string | undefined,
  { extract }: { extract?: ReferenceExtractor } = {},
) {
  let isBusy = false;
  return {
    /** Runs `fn` as this process's one import; null (nothing run) while another runs. */
    async exclusive<T>(fn: () => Promise<T>): Promise<{ value: T } | null> {
      if (isBusy) return null;
      isBusy = true;
      try {
        return { value: await fn() };
      } finally {
        isBusy = false;
      }
    },
    check: (source: AsyncIterable<string | Buffer>, onProgress?: (progress: TicketImportProgress) => void) =>
      checkTicketCsv(database.db, source, onProgress),
    load: (rows: TicketLoadRow[], onProgress?: (progress: TicketImportProgress) => void) =>
      loadTicketRows(database, sqliteFile, rows, onProgress, extract),
  };
}
export type TicketImporter = ReturnType<typeof createTicketImporter>;
