import { GROUP_MSG, QUEUE_COUNT_CAP, type TGroupLoad } from '@portal/contract';
import { notFound } from '../../lib/http-error.ts';
import { isAbsentAt } from '../groups/auto-assign.ts';
import type { GroupsRepository } from '../groups/groups.repository.ts';
import type { WorkloadRepository } from './workload.repository.ts';

interface Deps {
  workload: WorkloadRepository;
  groups: Pick<GroupsRepository, 'activeGroups' | 'membersOfGroups' | 'openLoads' | 'queueCount' | 'findGroup'>;
  /** The clock (ms): absences are compared with it. */
  now?: () => number;
}

export function createWorkloadService({ workload, groups, now = Date.now }: Deps) {
  return {
    async countPerUser(query: { page: number; per_page: number; search: string; group_id?: number | undefined }) {
      if (query.group_id !== undefined && !(await groups.findGroup(query.group_id))) {
        throw notFound(GROUP_MSG.groupNotFound);
      }
      return workload.countPerUser(query, now());
    },

    async ticketsOf(userId: number, query: { page: number; per_page: number }) {
      if (!(await workload.userExists(userId))) throw notFound('El usuario no existe.');
      return workload.ticketsOf(userId, query);
    },

    /** Each active group (or one): its queue's length (bounded) and its members' open tickets. */
    async groupLoads(groupId?: number): Promise<TGroupLoad[]> {
      if (groupId !== undefined && !(await groups.findGroup(groupId))) throw notFound(GROUP_MSG.groupNotFound);
      const list = await groups.activeGroups(groupId);
      const members = await groups.membersOfGroups(list.map((g) => g.id));
      const loads = await groups.openLoads([...new Set(members.map((m) => m.user_id))]);
      const at = now();
      return Promise.all(
        list.map(async (g) => {
          const n = await groups.queueCount(g.id, QUEUE_COUNT_CAP);
          return {
            ...g,
            queue_count: Math.min(n, QUEUE_COUNT_CAP),
            count_is_lower_bound: n > QUEUE_COUNT_CAP,
            members: members
              .filter((m) => m.group_id === g.id)
              .map((m) => ({
                user_id: m.user_id,
                name: m.name,
                open_count: loads.get(m.user_id) ?? 0,
                absent: isAbsentAt(m, at),
                status_id: m.status_id,
              })),
          };
        }),
      );
    },
  };
}
export type WorkloadService = ReturnType<typeof createWorkloadService>;
