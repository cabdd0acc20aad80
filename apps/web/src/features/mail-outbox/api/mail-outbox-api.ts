import type { MailStatus, TMailInStatus, TMailOutboxItem, TMailOutboxPage } from '@portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

export interface MailOutboxRequest {
  page: number;
  per_page: number;
  status?: MailStatus | undefined;
}

export const mailOutboxQuery = (request: MailOutboxRequest) =>
  queryOptions({
    queryKey: ['mail-outbox', 'list', request],
    queryFn: ({ signal }) => api.post<TMailOutboxPage>('/mail-outbox', request, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const mailInStatusQuery = () =>
  queryOptions({
    queryKey: ['mail-outbox', 'inbound'],
    queryFn: ({ signal }) => api.get<{ status: true; data: TMailInStatus }>('/mail-outbox/inbound', { signal }),
    select: (answer) => answer.data,
    staleTime: 0,
  });

/** Reintentar: a failed mail goes back to the queue. */
export const retryMail = (id: number) =>
  api.post<{ status: true; message: string; data: TMailOutboxItem }>(`/mail-outbox/retry/${id}`);
