import type { TReportSummary, TReportSummaryResponse } from '@portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

export interface SummaryParams {
  from: string;
  to: string;
  /** '' for every area / project. */
  areaId: string;
  projectId: string;
}

/** `GET /api/reports/summary`: every figure of the dashboard in one answer. */
export const summaryQuery = (params: SummaryParams) =>
  queryOptions({
    queryKey: ['reports', 'summary', params],
    queryFn: async ({ signal }): Promise<TReportSummary> => {
      const query = new URLSearchParams({ from: params.from, to: params.to });
      if (params.areaId) query.set('area_id', params.areaId);
      if (params.projectId) query.set('project_id', params.projectId);
      return (await api.get<TReportSummaryResponse>(`/reports/summary?${query}`, { signal })).data;
    },
    placeholderData: keepPreviousData,
  });
