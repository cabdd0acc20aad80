import type { TQueueTabsResponse, TTicketPage, TTicketResponse } from '@portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

/** Under the tickets' key: the stream's ticket events refresh the queues like every ticket list. */
export const queueKeys = {
  tabs: ['tickets', 'queues'] as const,
  page: (groupId: number, page: number) => ['tickets', 'queues', groupId, page] as const,
};

export const QUEUE_PAGE_SIZE = 20;

export const queueTabsQuery = () =>
  queryOptions({
    queryKey: queueKeys.tabs,
    queryFn: ({ signal }) => api.get<TQueueTabsResponse>('/queues', { signal }),
  });

export const queuePageQuery = (groupId: number, page: number) =>
  queryOptions({
    queryKey: queueKeys.page(groupId, page),
    queryFn: ({ signal }) =>
      api.post<TTicketPage>(`/queues/${groupId}`, { page, per_page: QUEUE_PAGE_SIZE }, { signal }),
    placeholderData: keepPreviousData,
  });

/** 'Tomar': the ticket is assigned to me, unless another agent took it first (409). */
export const takeTicket = (ticketId: number) => api.post<TTicketResponse>(`/queues/take/${ticketId}`);
