import type { TTicketLinkCreate, TTicketLinks } from '@portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

/** Under 'tickets', so a live ticket change refreshes the Relacionados panel with the page. */
export const linkKeys = {
  ofTicket: (id: number) => ['tickets', 'links', id] as const,
};

export const ticketLinksQuery = (id: number) =>
  queryOptions({
    queryKey: linkKeys.ofTicket(id),
    queryFn: ({ signal }) => api.get<TTicketLinks>(`/tickets/${id}/links`, { signal }),
    retry: false,
    staleTime: 0,
  });

export const addTicketLink = (id: number, body: TTicketLinkCreate) => api.post(`/tickets/${id}/links`, body);

/** `Marcar como duplicado de #N`: merges ticket `id` into `originalId`. */
export const mergeTicket = (id: number, originalId: number) =>
  api.post(`/tickets/${id}/merge`, { ticket_id: originalId });

export const removeTicketLink = (id: number, linkId: number) => api.delete(`/tickets/${id}/links/${linkId}`);
