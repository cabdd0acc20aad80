import type {
  TAssignableUsersPage,
  TicketListKind,
  TOption,
  TTicketDetailResponse,
  TTicketFiltersInput,
  TTicketPage,
  TTicketResponse,
  TTicketCreateResponse,
  TTicketSort,
  TTicketUpdate,
  TTicketWrite,
} from '@portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, ApiError, NETWORK_ERROR_MESSAGE, API_BASE } from '@/lib/api-client.ts';
import type { ListParams } from '@/lib/resource-api.ts';
import { unlessJustAnswered } from '@/lib/query-client.ts';
import { getToken } from '@/lib/session.ts';

export type { TicketListKind };

/** A ticket list's request: page, size, search, and its filters and sort (kept in the URL). */
export interface TicketListParams extends ListParams {
  filters: TTicketFiltersInput;
  sort: TTicketSort;
}

const listPaths: Record<TicketListKind, string> = {
  mine: '/tickets',
  general: '/general-tickets',
  current: '/tickets/current',
  old: '/tickets/old',
};

/** Every ticket query starts with 'tickets', so a live change refreshes lists and pages with one invalidation. */
export const ticketKeys = {
  all: ['tickets'] as const,
  list: (kind: TicketListKind, params: TicketListParams) => ['tickets', 'list', kind, params] as const,
  detail: (id: number) => ['tickets', 'detail', id] as const,
  assignable: (params: ListParams) => ['tickets', 'assignable-users', params] as const,
  people: ['tickets', 'people'] as const,
};

export const ticketListQuery = (kind: TicketListKind, params: TicketListParams) =>
  queryOptions({
    queryKey: ticketKeys.list(kind, params),
    queryFn: ({ signal }) => api.post<TTicketPage>(listPaths[kind], params, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchOnMount: unlessJustAnswered,
  });

export const ticketDetailQuery = (id: number) =>
  queryOptions({
    queryKey: ticketKeys.detail(id),
    queryFn: ({ signal }) => api.get<TTicketDetailResponse>(`/tickets/${id}`, { signal }),
    retry: false,
    staleTime: 0,
  });

export const createTicket = (body: TTicketWrite) => api.post<TTicketCreateResponse>('/tickets/create', body);

export const updateTicket = (id: number, body: TTicketUpdate) =>
  api.put<TTicketResponse>(`/tickets/update/${id}`, body);

export const assignTicket = (ticketId: number, userId: number) =>
  api.patch<TTicketResponse>(`/tickets/${ticketId}/assign/${userId}`);

export const assignableUsersQuery = (params: ListParams) =>
  queryOptions({
    queryKey: ticketKeys.assignable(params),
    queryFn: ({ signal }) => api.post<TAssignableUsersPage>('/tickets/assignable-users', params, { signal }),
    placeholderData: keepPreviousData,
  });

/** People for the assignee and creator filters (active users); empty when the role may not list them. */
export const peopleOptionsQuery = () =>
  queryOptions({
    queryKey: ticketKeys.people,
    queryFn: async ({ signal }): Promise<TOption[]> => {
      try {
        const page = await api.post<TAssignableUsersPage>(
          '/tickets/assignable-users',
          { page: 1, per_page: 100, search: '' },
          { signal },
        );
        return page.data.map((u) => ({ id: u.id, name: `${u.name} ${u.last_name}` }));
      } catch {
        return [];
      }
    },
    staleTime: 60_000,
  });

export interface ExportRequest {
  list: TicketListKind;
  search: string;
  filters: TTicketFiltersInput;
  sort: TTicketSort;
}

/**
 * Downloads the CSV of a list, reporting the rows received as they stream in.
 * Returns the file as a Blob (and its name from the server).
 */
export async function exportTicketsCsv(
  body: ExportRequest,
  onProgress: (rows: number) => void,
  signal?: AbortSignal,
): Promise<{ blob: Blob; fileName: string }> {
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/tickets/export`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${getToken() ?? ''}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(NETWORK_ERROR_MESSAGE, 500, { isNetworkError: true });
  }
  if (!response.ok || !response.body) {
    const parsed = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(parsed?.message ?? `Error ${response.status}`, response.status);
  }
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let lines = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parts.push(value);
    for (const byte of value) if (byte === 10) lines += 1;
    onProgress(Math.max(lines - 1, 0));
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'tickets.csv';
  return { blob: new Blob(parts as BlobPart[], { type: 'text/csv;charset=utf-8' }), fileName };
}
