import type { TReferenceBulk, TReferenceBulkResponse, TReferencePage } from '@portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

const base = (typeId: number, value: string) => `/references/${typeId}/${encodeURIComponent(value)}`;

/** Under 'tickets', so a live ticket change refreshes the reference's page too. */
export const referencePageQuery = (typeId: number, value: string) =>
  queryOptions({
    queryKey: ['tickets', 'reference', typeId, value] as const,
    queryFn: ({ signal }) => api.get<TReferencePage>(base(typeId, value), { signal }),
    retry: false,
    staleTime: 0,
  });

/** Assigns, or moves to a status, every open ticket with the reference; answers a report per ticket. */
export const referenceBulk = (typeId: number, value: string, body: TReferenceBulk) =>
  api.post<TReferenceBulkResponse>(`${base(typeId, value)}/bulk`, body);
