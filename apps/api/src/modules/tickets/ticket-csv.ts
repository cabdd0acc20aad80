import { TICKET_EXPORT_COLUMNS, type TTicket } from '@portal/contract';
import { CSV_BOM, csvLine } from '../../lib/csv.ts';

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
