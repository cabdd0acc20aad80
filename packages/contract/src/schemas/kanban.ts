import { z } from 'zod';
import { DEFAULT_TICKET_SORT, ticketStages } from '../constants.ts';
import { ZId } from './common.ts';
import { ZTicket, ZTicketFilters, ZTicketListQuery, ZTicketSort } from './tickets.ts';

export const KANBAN_MSG = {
  badCursor: 'La posición de la página no es válida. Vuelve a cargar el tablero.',
  statusNotOnBoard: 'El estado no es una columna activa del tablero.',
  moved: 'Ticket movido.',
} as const;

/**
 * What the board shows: the ticket lists' search, filters (the same ZTicketFilters) and sort,
 * and `mine` ('Mis tickets': those the caller created or is assigned to). A column narrows
 * it to its status; a status filter leaves the other columns empty.
 */
export const ZKanbanQuery = z.object({
  search: ZTicketListQuery.shape.search,
  filters: ZTicketFilters.default({}),
  sort: ZTicketSort.default(DEFAULT_TICKET_SORT),
  mine: z.boolean({ error: 'Debe ser verdadero o falso.' }).default(false),
});
export type TKanbanQuery = z.input<typeof ZKanbanQuery>;

/** A column's next page: the board's query, the column's status and the cursor its last page gave. */
export const ZKanbanColumnQuery = ZKanbanQuery.extend({
  status_id: ZId,
  cursor: z
    .string({ error: 'La posición de la página debe ser texto.' })
    .min(1, KANBAN_MSG.badCursor)
    .max(300, KANBAN_MSG.badCursor),
});
export type TKanbanColumnQuery = z.input<typeof ZKanbanColumnQuery>;

export const ZKanbanStatus = z.object({
  id: z.number(),
  name: z.string(),
  stage: z.enum(ticketStages),
  /** The column's WIP limit (null: none); over it the count shows as `7/5` in a warning colour. */
  wip_limit: z.number().nullable(),
});

/**
 * A card: what it shows (number, name, priority, SLA state, assignee, with their ids), its status
 * (its column) and its last change; not the whole ticket: a board holds hundreds of cards, and
 * the ticket's page has the rest.
 */
export const ZKanbanCard = ZTicket.pick({
  id: true,
  name: true,
  status_id: true,
  priority_type_id: true,
  user_assigned_id: true,
  updated_at: true,
  priorities: true,
  assigned_to: true,
  sla_state: true,
});
export type TKanbanCard = z.infer<typeof ZKanbanCard>;

const ZKanbanCards = {
  cards: z.array(ZKanbanCard),
  /** Where the next page starts (`Cargar más`); null: no more cards. */
  next_cursor: z.string().nullable(),
};

export const ZKanbanColumn = z.object({
  status: ZKanbanStatus,
  /** Its tickets, counted like the lists: exact, or TICKET_COUNT_CAP and `count_is_lower_bound`. */
  count: z.number(),
  count_is_lower_bound: z.boolean(),
  ...ZKanbanCards,
});
export type TKanbanColumn = z.infer<typeof ZKanbanColumn>;

const answer = <T extends z.ZodTypeAny>(data: T) => z.object({ status: z.literal(true), data });

export const ZKanbanBoardResponse = answer(
  z.object({
    columns: z.array(ZKanbanColumn),
    /** The closed statuses' columns show the tickets changed since this instant. */
    closed_since: z.string(),
  }),
);
export type TKanbanBoard = z.infer<typeof ZKanbanBoardResponse>['data'];

export const ZKanbanColumnPageResponse = answer(z.object(ZKanbanCards));
export type TKanbanColumnPage = z.infer<typeof ZKanbanColumnPageResponse>['data'];

/** A card dropped on another column: the ticket's new status (the edit form's rules apply). */
export const ZKanbanMove = z.object({
  status_id: ZId,
  close_with_open_children: z.boolean().optional(),
});
export type TKanbanMove = z.input<typeof ZKanbanMove>;
