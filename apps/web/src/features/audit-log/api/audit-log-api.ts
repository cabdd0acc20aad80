import type { TAuditFilters, TAuditPage, TAuditUsersResponse } from '@portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, apiDownload, type DownloadOptions } from '@/lib/api-client.ts';
import type { ListParams } from '@/lib/resource-api.ts';

/** What the screen asks for: a page, a search, the filters, and the browser's time zone for whole days. */
export interface AuditLogRequest extends ListParams {
  filters: TAuditFilters;
  time_zone: string;
}

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export const auditLogQuery = (request: AuditLogRequest) =>
  queryOptions({
    queryKey: ['audit-log', 'list', request],
    queryFn: ({ signal }) => api.post<TAuditPage>('/audit-log', request, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const auditUsersQuery = () =>
  queryOptions({
    queryKey: ['audit-log', 'users'],
    queryFn: ({ signal }) => api.get<TAuditUsersResponse>('/audit-log/users', { signal }),
    select: (answer) => answer.data,
    staleTime: 60_000,
  });

/** Downloads every entry matching the request as CSV, saving it under the name the server gives. */
export async function downloadAuditCsv(request: Omit<AuditLogRequest, 'page' | 'per_page'>, options: DownloadOptions) {
  const { blob, fileName } = await apiDownload('/audit-log/export', request, options);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName ?? 'auditoria.csv';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
