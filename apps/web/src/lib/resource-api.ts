import type { CatalogResourceName, TCatalogRecord, TOption } from '@portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from './api-client.ts';

export interface ListParams {
  page: number;
  per_page: number;
  search: string;
}

export interface PageOf<R> {
  data: R[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
}

interface RecordResponse<R> {
  status: true;
  message: string;
  data: R;
}

/** Where select options come from: record statuses, a resource's active records, or the privileged users. */
export type OptionSource = 'statuses' | 'supervisors' | CatalogResourceName;

const optionsPath = (source: OptionSource) =>
  source === 'statuses'
    ? '/statuses'
    : source === 'supervisors'
      ? '/users/active-records?privileged=1'
      : `/${source}/active-records`;

export const resourceKeys = {
  all: (resource: CatalogResourceName) => ['resource', resource] as const,
  list: (resource: CatalogResourceName, params: ListParams) => ['resource', resource, 'list', params] as const,
  // The privileged users sit under the users' key: a change to users refreshes both.
  options: (source: OptionSource) =>
    source === 'supervisors' ? ['options', 'users', 'privileged'] : ['options', source],
};

export const resourceListQuery = <N extends CatalogResourceName>(resource: N, params: ListParams) =>
  queryOptions({
    queryKey: resourceKeys.list(resource, params),
    queryFn: ({ signal }) => api.post<PageOf<TCatalogRecord<N>>>(`/${resource}`, params, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const createRecord = <N extends CatalogResourceName>(resource: N, body: Record<string, unknown>) =>
  api.post<RecordResponse<TCatalogRecord<N>>>(`/${resource}/create`, body);

export const updateRecord = <N extends CatalogResourceName>(resource: N, id: number, body: Record<string, unknown>) =>
  api.put<RecordResponse<TCatalogRecord<N>>>(`/${resource}/update/${id}`, body);

export const changeRecordStatus = <N extends CatalogResourceName>(resource: N, id: number, statusId: 1 | 2) =>
  api.patch<RecordResponse<TCatalogRecord<N>>>(`/${resource}/${id}/change-status`, { status_id: statusId });

/** Moves a record of an ordered catalogue to `position` (1 first). */
export const moveRecord = <N extends CatalogResourceName>(resource: N, id: number, position: number) =>
  api.patch<RecordResponse<TCatalogRecord<N>>>(`/${resource}/${id}/move`, { position });

/** Options come as an array or as an object with a data array; a failure gives an empty list. */
export const optionsQuery = (source: OptionSource) =>
  queryOptions({
    queryKey: resourceKeys.options(source),
    queryFn: async ({ signal }): Promise<TOption[]> => {
      try {
        const body = await api.get<TOption[] | { data?: TOption[] }>(optionsPath(source), { signal });
        return Array.isArray(body) ? body : (body.data ?? []);
      } catch {
        return [];
      }
    },
    staleTime: 30_000,
  });
