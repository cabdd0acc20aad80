import type { TAssignableUsersPage, TTicketPage, TTicketResponse, TTicketWrite } from '@portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';
import type { ListParams } from '@/lib/resource-api.ts';

/** The four ticket lists and the call behind each (SPEC §7). */
export type TicketListKind = 'mine' | 'general' | 'current' | 'old';

const listPaths: Record<TicketListKind, string> = {
  mine: '/tickets',
  general: '/general-tickets',
  current: '/tickets/current',
  old: '/tickets/old',
};

export const ticketKeys = {
  all: ['tickets'] as const,
  list: (kind: TicketListKind, params: ListParams) => ['tickets', 'list', kind, params] as const,
  assignable: (params: ListParams) => ['tickets', 'assignable-users', params] as const,
};

export const ticketListQuery = (kind: TicketListKind, params: ListParams) =>
  queryOptions({
    queryKey: ticketKeys.list(kind, params),
    queryFn: ({ signal }) => api.post<TTicketPage>(listPaths[kind], params, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const createTicket = (body: TTicketWrite) => api.post<TTicketResponse>('/tickets/create', body);

export const updateTicket = (id: number, body: TTicketWrite) => api.put<TTicketResponse>(`/tickets/update/${id}`, body);

export const assignTicket = (ticketId: number, userId: number) =>
  api.patch<TTicketResponse>(`/tickets/${ticketId}/assign/${userId}`);

export const assignableUsersQuery = (params: ListParams) =>
  queryOptions({
    queryKey: ticketKeys.assignable(params),
    queryFn: ({ signal }) => api.post<TAssignableUsersPage>('/tickets/assignable-users', params, { signal }),
    placeholderData: keepPreviousData,
  });
