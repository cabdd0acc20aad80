import type { TAssignableUser, TTicket, TTicketPage, TTicketWrite } from '@portal/contract';
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

interface TicketResponse {
  status: true;
  message: string;
  data: TTicket;
}

export const createTicket = (body: TTicketWrite) => api.post<TicketResponse>('/tickets/create', body);

export const updateTicket = (id: number, body: TTicketWrite) => api.put<TicketResponse>(`/tickets/update/${id}`, body);

export const assignTicket = (ticketId: number, userId: number) =>
  api.patch<TicketResponse>(`/tickets/${ticketId}/assign/${userId}`);

interface AssignablePage {
  status: true;
  data: TAssignableUser[];
  meta: { total: number; current_page: number; last_page: number; per_page: number };
}

export const assignableUsersQuery = (params: ListParams) =>
  queryOptions({
    queryKey: ticketKeys.assignable(params),
    queryFn: ({ signal }) => api.post<AssignablePage>('/tickets/assignable-users', params, { signal }),
    placeholderData: keepPreviousData,
  });
