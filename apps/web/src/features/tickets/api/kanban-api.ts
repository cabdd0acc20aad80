import type { TKanbanBoard, TKanbanColumnPage, TKanbanMove, TKanbanQuery, TTicketResponse } from '@portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

/** Under 'tickets', so a live change (the stream's ticket events) refetches the board too. */
export const kanbanKeys = {
  board: (query: TKanbanQuery) => ['tickets', 'board', query] as const,
};

/** Every column's first page and bounded count. */
export const kanbanBoardQuery = (query: TKanbanQuery) =>
  queryOptions({
    queryKey: kanbanKeys.board(query),
    queryFn: async ({ signal }) =>
      (await api.post<{ status: true; data: TKanbanBoard }>('/tickets/board', query, { signal })).data,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** 'Cargar más': a column's next page after the cursor its last page gave. */
export const fetchKanbanColumn = async (query: TKanbanQuery, statusId: number, cursor: string) =>
  (
    await api.post<{ status: true; data: TKanbanColumnPage }>('/tickets/board/column', {
      ...query,
      status_id: statusId,
      cursor,
    })
  ).data;

/** A card dropped on another column: the ticket's status changes (the edit form's rules). */
export const moveTicketStatus = (ticketId: number, body: TKanbanMove) =>
  api.patch<TTicketResponse>(`/tickets/${ticketId}/status`, body);
