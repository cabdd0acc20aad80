import type {
  SavedViewList,
  TSavedView,
  TSavedViewCreate,
  TSavedViewResponse,
  TSavedViewsResponse,
  TSavedViewUpdate,
  TSavedViewWriteResponse,
} from '@portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { paths } from '@/config/paths.ts';
import { api } from './api-client.ts';
import { queryClient } from './query-client.ts';

/** Shared by the sidebar and every list (and later the board), so lib holds it rather than one feature. */
export const savedViewKeys = {
  all: ['saved-views'] as const,
  one: (id: number) => ['saved-views', id] as const,
};

/** The caller's views and those shared with their role, each with its count; whether they may share, and with whom. */
export const savedViewsQuery = () =>
  queryOptions({
    queryKey: savedViewKeys.all,
    queryFn: ({ signal }) => api.get<TSavedViewsResponse>('/views', { signal }),
    staleTime: 30_000,
  });

/** One view with the values of its filters that no longer apply. */
export const savedViewQuery = (id: number) =>
  queryOptions({
    queryKey: savedViewKeys.one(id),
    queryFn: ({ signal }) => api.get<TSavedViewResponse>(`/views/${id}`, { signal }),
    retry: false,
    staleTime: 0,
  });

const refreshViews = () => queryClient.invalidateQueries({ queryKey: savedViewKeys.all });

export async function createSavedView(body: TSavedViewCreate) {
  const answer = await api.post<TSavedViewWriteResponse>('/views/create', body);
  await refreshViews();
  return answer;
}

export async function updateSavedView(id: number, body: TSavedViewUpdate) {
  const answer = await api.put<TSavedViewWriteResponse>(`/views/update/${id}`, body);
  await refreshViews();
  return answer;
}

export async function deleteSavedView(id: number) {
  await api.delete<{ status: boolean; message: string }>(`/views/${id}`);
  queryClient.removeQueries({ queryKey: savedViewKeys.one(id) });
  await refreshViews();
}

/** Where each list lives (the history's tabs are a URL parameter); `view` opens the view there. */
const listLocations: Record<SavedViewList, { path: string; tab?: string }> = {
  mine: { path: paths.tickets },
  general: { path: paths.generalTickets },
  current: { path: paths.recordTickets, tab: 'current' },
  old: { path: paths.recordTickets, tab: 'old' },
  kanban: { path: paths.kanban },
};

export function savedViewPath(view: Pick<TSavedView, 'id' | 'list'>): string {
  const { path, tab } = listLocations[view.list];
  const params = new URLSearchParams(tab ? { tab } : {});
  params.set('view', String(view.id));
  return `${path}?${params.toString()}`;
}

/** The id of the view a list's URL opens (`?view=12`), or null. */
export function viewIdOf(params: URLSearchParams): number | null {
  const id = Number(params.get('view'));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const grouped = new Intl.NumberFormat('es', { useGrouping: 'always' } as Intl.NumberFormatOptions);

/** A view's badge: '1.234', or 'más de 10.000' when the count stopped at the cap. */
export const countBadge = ({ total, is_lower_bound }: TSavedView['count']) =>
  is_lower_bound ? `más de ${grouped.format(total)}` : grouped.format(total);
