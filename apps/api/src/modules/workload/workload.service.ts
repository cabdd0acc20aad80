import { notFound } from '../../lib/http-error.ts';
import type { WorkloadRepository } from './workload.repository.ts';

export function createWorkloadService({ workload }: { workload: WorkloadRepository }) {
  return {
    countPerUser: (query: { page: number; per_page: number; search: string }) => workload.countPerUser(query),

    async ticketsOf(userId: number, query: { page: number; per_page: number }) {
      if (!(await workload.userExists(userId))) throw notFound('El usuario no existe.');
      return workload.ticketsOf(userId, query);
    },
  };
}
export type WorkloadService = ReturnType<typeof createWorkloadService>;
