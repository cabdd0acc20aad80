import {
  AUDIT_COUNT_CAP,
  AUDIT_EVENT_LABELS,
  auditEventLabel,
  type TAuditEntry,
  type ZAuditListQuery,
} from '@portal/contract';
import type { z } from 'zod';
import { CSV_BOM, csvLine } from '../../lib/csv.ts';
import { pageMeta } from '../../db/paging.ts';
import { AUDIT_USER_DETAIL_KEYS, describeAuditDetail } from './audit-details.ts';
import type { AuditCursor, AuditLogFilter, AuditLogReader } from './audit.repository.ts';

type AuditQuery = z.output<typeof ZAuditListQuery>;
type EntryRow = Awaited<ReturnType<AuditLogReader['page']>>[number];

const DAY_MS = 86_400_000;
/** Rows per query while the CSV streams: memory stays flat however long the log is. */
export const EXPORT_BATCH_SIZE = 500;

/** How far `zone`'s wall clock is ahead of UTC at the instant `at`, in ms. */
function zoneOffsetMs(zone: string, at: number): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(at)
      .map((p) => [p.type, Number(p.value)]),
  );
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(at / 1000) * 1000;
}

/** The instant (ISO, UTC) a day `YYYY-MM-DD` begins in `zone`. */
export function startOfDayIn(day: string, zone: string): string {
  const wallMidnight = Date.parse(`${day}T00:00:00Z`);
  const guess = wallMidnight - zoneOffsetMs(zone, wallMidnight);
  // The offset at the guess is the right one unless a clock change falls in between.
  return new Date(wallMidnight - zoneOffsetMs(zone, guess)).toISOString();
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

function parseDetail(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    // A detail longer than the column was cut when written: show what there is.
    return { texto: text };
  }
}

/** `dd/mm/aaaa hh:mm:ss` on the wall clock of `zone`, as a spreadsheet in Spanish reads a date. */
function spanishDateTime(zone: string) {
  const format = new Intl.DateTimeFormat('es-MX', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (iso: string) => {
    const p = Object.fromEntries(format.formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
    return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}:${p.second}`;
  };
}

const who = (entry: TAuditEntry) => (entry.user ? `${entry.user.name} (@${entry.user.username})` : 'Anónimo');

/** The Auditoría screen and its CSV: filters in the user's terms (days, Spanish names) turned into queries. */
export function createAuditLogService({ reader }: { reader: AuditLogReader }) {
  function toFilter({ filters, search, time_zone }: AuditQuery): AuditLogFilter {
    const folded = fold(search);
    return {
      userId: filters.user_id,
      events: filters.event,
      from: filters.from === undefined ? undefined : startOfDayIn(filters.from, time_zone),
      before: filters.to === undefined ? undefined : startOfDayIn(nextDay(filters.to), time_zone),
      search: search === '' ? undefined : search,
      searchEvents:
        folded === ''
          ? undefined
          : Object.entries(AUDIT_EVENT_LABELS)
              .filter(([, label]) => fold(label).includes(folded))
              .map(([event]) => event),
    };
  }

  async function toEntries(rows: EntryRow[], timeZone: string): Promise<TAuditEntry[]> {
    const details = rows.map((r) => parseDetail(r.detail));
    const referenced = new Set<number>();
    for (const detail of details) {
      for (const key of AUDIT_USER_DETAIL_KEYS) {
        const id = detail?.[key];
        if (typeof id === 'number') referenced.add(id);
      }
    }
    const names = await reader.namesOf([...referenced]);
    return rows.map((r, i) => ({
      id: r.id,
      created_at: r.created_at,
      event: r.event,
      action: auditEventLabel(r.event),
      user:
        r.user_id !== null && r.user_name !== null
          ? { id: r.user_id, name: `${r.user_name} ${r.user_last_name ?? ''}`.trim(), username: r.user_username ?? '' }
          : null,
      username: r.username,
      ip: r.ip,
      details: describeAuditDetail(details[i]!, {
        names,
        anonymousUsername: r.user_id === null ? r.username : null,
        timeZone,
      }),
    }));
  }

  return {
    /** One page, newest first; the total is exact up to AUDIT_COUNT_CAP, then flagged as a lower bound. */
    async list(query: AuditQuery) {
      const filter = toFilter(query);
      const counted = await reader.countUpTo(filter, AUDIT_COUNT_CAP);
      const rows = await reader.page(filter, query);
      const total = Math.min(counted, AUDIT_COUNT_CAP);
      return {
        data: await toEntries(rows, query.time_zone),
        meta: { ...pageMeta(total, query), total_is_lower_bound: counted > AUDIT_COUNT_CAP },
      };
    },

    /**
     * Every matching entry as CSV lines (UTF-8 with BOM, RFC 4180, formulas
     * neutralised), read in keyset batches so nothing waits for the whole log.
     */
    async *exportCsv(query: AuditQuery): AsyncGenerator<string> {
      const filter = toFilter(query);
      const dated = spanishDateTime(query.time_zone);
      yield CSV_BOM + csvLine(['Fecha', 'Usuario', 'Acción', 'Dirección', 'Detalles', 'Evento', 'Fecha (UTC)']);
      let after: AuditCursor | null = null;
      for (;;) {
        const rows = await reader.batch(filter, after, EXPORT_BATCH_SIZE);
        const entries = await toEntries(rows, query.time_zone);
        yield entries
          .map((e) => csvLine([dated(e.created_at), who(e), e.action, e.ip, e.details, e.event, e.created_at]))
          .join('');
        if (rows.length < EXPORT_BATCH_SIZE) return;
        const last = rows[rows.length - 1]!;
        after = { createdAt: last.created_at, id: last.id };
      }
    },

    /** The file name of an export made today in `zone`: auditoria-AAAA-MM-DD.csv. */
    exportFileName: (zone: string) => `auditoria-${new Date().toLocaleDateString('en-CA', { timeZone: zone })}.csv`,

    users: () => reader.everyUser(),
  };
}
export type AuditLogService = ReturnType<typeof createAuditLogService>;
