import type { TAbsence, TAbsenceWrite } from '@portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

type AbsenceAnswer = { status: true; message: string; data: TAbsence };

export const absenceKey = (userId: number) => ['profile', userId, 'absence'] as const;

/** The user's absence (Ausente): whether it holds now, and its dates. */
export const absenceQuery = (userId: number) =>
  queryOptions({
    queryKey: absenceKey(userId),
    queryFn: ({ signal }) => api.get<AbsenceAnswer>(`/users/${userId}/absence`, { signal }).then((r) => r.data),
  });

/** Marks the user Ausente (with an optional return date) or back. */
export const saveAbsence = (userId: number, body: TAbsenceWrite) =>
  api.put<AbsenceAnswer>(`/users/${userId}/absence`, body);
