import type { TActivitiesResponse, TActivityResponse } from '@portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';
import type { ListParams } from '@/lib/resource-api.ts';

export const activityKeys = {
  ofTicket: (ticketId: number) => ['activities', ticketId] as const,
  list: (ticketId: number, params: ListParams) => ['activities', ticketId, params] as const,
};

export const activitiesQuery = (ticketId: number, params: ListParams) =>
  queryOptions({
    queryKey: activityKeys.list(ticketId, params),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({
        ticket_id: String(ticketId),
        page: String(params.page),
        per_page: String(params.per_page),
        search: params.search,
      });
      return api.get<TActivitiesResponse>(`/activities?${query}`, { signal });
    },
    placeholderData: keepPreviousData,
    retry: false,
  });

/** New activities are active (status 1); the author is the signed-in user. */
export const createActivity = (ticketId: number, userId: number, name: string) =>
  api.post<TActivityResponse>('/activities/create', { name, status_id: 1, user_id: userId, ticket_id: ticketId });

/** Deleting is status 2. */
export const deleteActivity = (activityId: number) =>
  api.put<TActivityResponse>(`/activities/${activityId}`, { status_id: 2 });
