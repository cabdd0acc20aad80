import { GROUP_MSG, RECORD_STATUS, type TGroupMember, type TGroupMemberWrite } from '@portal/contract';
import { notFound, validationFailed } from '../../lib/http-error.ts';
import type { AuditRepository } from '../audit/audit.repository.ts';
import type { GroupsRepository } from './groups.repository.ts';

interface Deps {
  groups: GroupsRepository;
  audit: Pick<AuditRepository, 'record'>;
}

interface Actor {
  id: number;
  ip: string | null;
}

/**
 * A group's members: any active user may be added (as `member` or `lead`), and belong to
 * several groups; an inactive user already in a group stays listed. Each change is audited.
 */
export function createGroupsService({ groups, audit }: Deps) {
  async function requireGroup(groupId: number) {
    const group = await groups.findGroup(groupId);
    if (!group) throw notFound(GROUP_MSG.groupNotFound);
    return group;
  }

  return {
    async members(groupId: number): Promise<TGroupMember[]> {
      await requireGroup(groupId);
      return groups.membersOf(groupId);
    },

    async addMember(
      actor: Actor,
      groupId: number,
      input: Required<TGroupMemberWrite> & { user_id: number },
    ): Promise<{ member: TGroupMember; isNew: boolean }> {
      await requireGroup(groupId);
      const user = await groups.findUser(input.user_id);
      if (!user || user.status_id !== RECORD_STATUS.active)
        throw validationFailed({ user_id: [GROUP_MSG.userNotFound] });
      const before = await groups.upsert(groupId, input.user_id, input.role);
      if (before !== input.role) {
        await audit.record({
          event: before === null ? 'group.member_added' : 'group.member_updated',
          userId: actor.id,
          ip: actor.ip,
          detail: { group_id: groupId, user_id: input.user_id, role: input.role },
        });
      }
      return { member: (await groups.member(groupId, input.user_id))!, isNew: before === null };
    },

    async removeMember(actor: Actor, groupId: number, userId: number): Promise<void> {
      await requireGroup(groupId);
      if (!(await groups.remove(groupId, userId))) throw notFound(GROUP_MSG.notMember);
      await audit.record({
        event: 'group.member_removed',
        userId: actor.id,
        ip: actor.ip,
        detail: { group_id: groupId, user_id: userId },
      });
    },
  };
}
export type GroupsService = ReturnType<typeof createGroupsService>;
