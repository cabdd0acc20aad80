import { TICKET_EXPORT_COLUMNS, type TTicket } from '@portal/contract';

/** The UTF-8 byte order mark, so spreadsheets read the accents right. */
export const CSV_BOM = '\uFEFF';

/** Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): text that could start a formula gets a leading `'`,
 * and a cell with a comma, quote or line break is quoted with its quotes doubled.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: (string | number | null)[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** `2026-03-01T14:05:09.123Z` → `2026-03-01 14:05:09` (UTC), which spreadsheets read as a date. */
const csvDate = (iso: string) => iso.slice(0, 19).replace('T', ' ');

export const csvHeader = () => CSV_BOM + csvLine([...TICKET_EXPORT_COLUMNS]);

export const ticketCsvLine = (t: TTicket) =>
  csvLine([
    t.id,
    t.name,
    t.description,
    t.priorities.name,
    t.status_tickets.name,
    t.projects.name,
    t.areas.name,
    t.categories.name,
    t.difficulties.name,
    t.users.name,
    t.assigned_to?.name ?? '',
    csvDate(t.created_at),
    csvDate(t.updated_at),
  ]);
