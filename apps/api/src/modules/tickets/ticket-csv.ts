import {
  TICKET_EXPORT_COLUMNS,
  TICKET_FIELDS,
  ticketExportFields,
  type TicketField,
  type TTicket,
} from '@portal/contract';
import { CSV_BOM, csvLine } from '../../lib/csv.ts';

/** `2026-03-01T14:05:09.123Z` → `2026-03-01 14:05:09` (UTC), which spreadsheets read as a date. */
const csvDate = (iso: string) => iso.slice(0, 19).replace('T', ' ');

const cells = ticketExportFields.map((key) => TICKET_FIELDS[key] as TicketField);

export const csvHeader = () => CSV_BOM + csvLine([...TICKET_EXPORT_COLUMNS]);

/** One ticket's CSV line: the exported fields of TICKET_FIELDS, in order. */
export const ticketCsvLine = (t: TTicket) =>
  csvLine(cells.map((f) => (f.kind === 'dates' ? csvDate(String(f.cell!(t))) : f.cell!(t))));
