import {
  KANBAN_CLOSED_DAYS,
  KANBAN_MSG,
  KANBAN_PAGE_SIZE,
  SECTIONS,
  TICKET_FIELDS,
  type TKanbanBoard,
  type TKanbanColumnPage,
  type TTicket,
  type TTicketFilters,
  type TTicketSort,
} from '@portal/contract';
import { HttpError } from '../../lib/http-error.ts';
import type { PermissionsRepository } from '../permissions/permissions.repository.ts';
import type { TicketCursor, TicketSelection, TicketsRepository } from '../tickets/tickets.repository.ts';
import type { Actor } from '../tickets/tickets.service.ts';
import type { KanbanRepository, KanbanStatus } from './kanban.repository.ts';

interface Deps {
  kanban: KanbanRepository;
  tickets: Pick<TicketsRepository, 'list' | 'keysetPage'>;
  permissions: Pick<PermissionsRepository, 'hasFlag'>;
  /** The clock (ms), injectable for tests. */
  now?: () => number;
}

export interface BoardQuery {
  search: string;
  filters: TTicketFilters;
  sort: TTicketSort;
  mine: boolean;
}

const DAY_MS = 86_400_000;

/** A keyset cursor as the client holds it: opaque text (base64url of `[value, id]`). */
const encodeCursor = (c: TicketCursor) => Buffer.from(JSON.stringify([c.value, c.id])).toString('base64url');

function decodeCursor(text: string): TicketCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2) {
      const [value, id] = parsed as unknown[];
      if (
        (typeof value === 'string' || typeof value === 'number') &&
        typeof id === 'number' &&
        Number.isSafeInteger(id) &&
        id > 0
      )
        return { value, id };
    }
  } catch {
    // Falls through to the refusal below.
  }
  throw new HttpError(422, KANBAN_MSG.badCursor, { errors: { cursor: [KANBAN_MSG.badCursor] } });
}

/**
 * Kanban: a column per active ticket status (stage order), each the ticket list narrowed to
 * its status and read by the lists' one read path (ticket-list.repository.ts): the first page
 * and its bounded count as a list page, the next ones by keyset after the last card. A closed
 * status's column holds only the tickets changed in the last KANBAN_CLOSED_DAYS days.
 * Whoever sees Tickets Generales sees every ticket; anyone else, or 'Mis tickets', their own.
 */
export function createKanbanService({ kanban, tickets, permissions, now = Date.now }: Deps) {
  async function selectionOf(
    actor: Actor,
    query: BoardQuery,
    status: KanbanStatus,
    closedSince: string,
  ): Promise<TicketSelection | null> {
    const wanted = query.filters.status_id;
    // A status filter leaves the other columns empty.
    if (wanted?.length && !wanted.includes(status.id)) return null;
    const seesAll = !query.mine && (await permissions.hasFlag(actor.role_id, SECTIONS.generalTickets, 'r'));
    return {
      scope: seesAll ? { kind: 'all' } : { kind: 'mine', userId: actor.id },
      search: query.search,
      filters: { ...query.filters, status_id: [status.id] },
      sort: query.sort,
      ...(status.stage === 'closed' ? { updatedSince: closedSince } : {}),
    };
  }

  const cursorAfter = (cards: TTicket[], sort: TTicketSort): string | null => {
    const last = cards.at(-1);
    if (!last) return null;
    const column = TICKET_FIELDS[sort.by].sortColumn;
    const value = column === 'group_sort' ? (last.group_id ?? 0) : (last as unknown as Record<string, unknown>)[column];
    return encodeCursor({ value: value as string | number, id: last.id });
  };

  const closedSinceAt = () => new Date(now() - KANBAN_CLOSED_DAYS * DAY_MS).toISOString();

  return {
    /** Every column's first page with its bounded count. */
    async board(actor: Actor, query: BoardQuery): Promise<TKanbanBoard> {
      const closedSince = closedSinceAt();
      const statuses = await kanban.columns();
      const columns = await Promise.all(
        statuses.map(async (status) => {
          const selection = await selectionOf(actor, query, status, closedSince);
          const page = selection
            ? await tickets.list(selection, { page: 1, per_page: KANBAN_PAGE_SIZE })
            : { data: [], meta: { total: 0 } as { total: number; total_is_lower_bound?: boolean } };
          const isLowerBound = 'total_is_lower_bound' in page.meta && page.meta.total_is_lower_bound === true;
          const hasMore = isLowerBound || page.meta.total > page.data.length;
          return {
            status,
            count: page.meta.total,
            count_is_lower_bound: isLowerBound,
            cards: page.data,
            next_cursor: hasMore ? cursorAfter(page.data, query.sort) : null,
          };
        }),
      );
      return { columns, closed_since: closedSince };
    },

    /** A column's next page: the cards after the cursor, by keyset. */
    async column(actor: Actor, query: BoardQuery & { status_id: number; cursor: string }): Promise<TKanbanColumnPage> {
      const after = decodeCursor(query.cursor);
      const status = (await kanban.columns()).find((s) => s.id === query.status_id);
      if (!status) {
        throw new HttpError(422, KANBAN_MSG.statusNotOnBoard, { errors: { status_id: [KANBAN_MSG.statusNotOnBoard] } });
      }
      const selection = await selectionOf(actor, query, status, closedSinceAt());
      if (!selection) return { cards: [], next_cursor: null };
      const rows = await tickets.keysetPage(selection, after, KANBAN_PAGE_SIZE + 1);
      const cards = rows.slice(0, KANBAN_PAGE_SIZE);
      return { cards, next_cursor: rows.length > KANBAN_PAGE_SIZE ? cursorAfter(cards, query.sort) : null };
    },
  };
}
export type KanbanService = ReturnType<typeof createKanbanService>;
