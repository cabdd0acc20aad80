import type { TUserTicketsResponse, TWorkloadPage } from '@portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

/** The workload loads page 1 with per_page 100. */
export const workloadQuery = (search: string) =>
  queryOptions({
    queryKey: ['workload', search],
    queryFn: ({ signal }) =>
      api.post<TWorkloadPage>('/tickets/count-per-user', { page: 1, per_page: 100, search }, { signal }),
    placeholderData: keepPreviousData,
  });

export const userTicketsQuery = (userId: number) =>
  queryOptions({
    queryKey: ['workload', 'user', userId],
    queryFn: ({ signal }) =>
      api.post<TUserTicketsResponse>(
        '/tickets/activities-per-user',
        { user_id: userId, page: 1, per_page: 50 },
        { signal },
      ),
  });
