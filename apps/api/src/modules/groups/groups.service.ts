import {
  ABSENCE_MSG,
  GROUP_MSG,
  RECORD_STATUS,
  type TAbsence,
  type TGroupMember,
  type TGroupMemberWrite,
  type ZAbsenceWrite,
} from '@portal/contract';
import type { z } from 'zod';
import { notFound, validationFailed } from '../../lib/http-error.ts';
import type { AuditRepository } from '../audit/audit.repository.ts';
import { isAbsentAt, type AutoAssigner } from './auto-assign.ts';
import type { GroupsRepository } from './groups.repository.ts';

interface Deps {
  groups: GroupsRepository;
  audit: Pick<AuditRepository, 'record'>;
  /** A new member, or one back from an absence, may take what waits in their groups' queues. */
  autoAssign: Pick<AutoAssigner, 'drain' | 'freed'>;
  /** The clock (ms), injectable for tests. */
  now?: () => number;
}

interface Actor {
  id: number;
  ip: string | null;
}

/**
 * A group's members: any active user may be added (as `member` or `lead`), and belong to
 * several groups; an inactive user already in a group stays listed. Each change is audited.
 */
export function createGroupsService({ groups, audit, autoAssign, now = Date.now }: Deps) {
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
      if (before === null) await autoAssign.drain(groupId);
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

    /** The user's absence (Ausente) as it stands now. */
    async absence(userId: number): Promise<TAbsence> {
      const row = await groups.absenceOf(userId);
      if (!row) throw notFound(GROUP_MSG.userNotFound);
      return { absent: isAbsentAt(row, now()), absent_from: row.absent_from, absent_until: row.absent_until };
    },

    /**
     * Marks the user Ausente (from now, or `from`, until the optional return date `until`, which
     * must come after the start) or back; coming back hands them what waits in their groups.
     */
    async setAbsence(userId: number, input: z.output<typeof ZAbsenceWrite>): Promise<TAbsence> {
      if (!(await groups.absenceOf(userId))) throw notFound(GROUP_MSG.userNotFound);
      if (!input.absent) {
        await groups.setAbsence(userId, null, null);
        await autoAssign.freed(userId);
        return this.absence(userId);
      }
      const from = input.from ?? new Date(now()).toISOString();
      const until = input.until ?? null;
      if (until !== null && Date.parse(until) <= Date.parse(from)) {
        throw validationFailed({ until: [ABSENCE_MSG.endsBeforeStart] });
      }
      await groups.setAbsence(userId, from, until);
      return this.absence(userId);
    },
  };
}
export type GroupsService = ReturnType<typeof createGroupsService>;
