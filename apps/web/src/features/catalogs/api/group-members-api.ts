import type { GroupMemberRole, TGroupMemberWrite, TGroupMembersResponse } from '@portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

export const groupMemberKeys = {
  of: (groupId: number) => ['group-members', groupId] as const,
};

export const groupMembersQuery = (groupId: number) =>
  queryOptions({
    queryKey: groupMemberKeys.of(groupId),
    queryFn: ({ signal }) => api.get<TGroupMembersResponse>(`/groups/${groupId}/members`, { signal }),
  });

/** Adds the user, or sets the role of one already in the group. */
export const saveGroupMember = (groupId: number, body: TGroupMemberWrite & { role: GroupMemberRole }) =>
  api.post(`/groups/${groupId}/members`, body);

export const removeGroupMember = (groupId: number, userId: number) =>
  api.delete(`/groups/${groupId}/members/${userId}`);
