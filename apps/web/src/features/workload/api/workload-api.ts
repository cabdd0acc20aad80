import type { TGroupLoad, TUserTicketsResponse, TWorkloadPage } from '@portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

/** The workload loads page 1 with per_page 100: every active user, or the members of one group. */
export const workloadQuery = (search: string, groupId: number | null = null) =>
  queryOptions({
    queryKey: ['workload', search, groupId],
    queryFn: ({ signal }) =>
      api.post<TWorkloadPage>(
        '/tickets/count-per-user',
        { page: 1, per_page: 100, search, ...(groupId === null ? {} : { group_id: groupId }) },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

/** Every active group with its queue's length and its members' open tickets. */
export const groupLoadsQuery = () =>
  queryOptions({
    queryKey: ['workload', 'groups'],
    queryFn: ({ signal }) =>
      api.get<{ status: true; data: TGroupLoad[] }>('/workload/groups', { signal }).then((r) => r.data),
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
