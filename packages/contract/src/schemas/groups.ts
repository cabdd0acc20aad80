import { z } from 'zod';
import { ZId, ZListResponse } from './common.ts';

/** What a member is in a group. */
export const groupMemberRoles = ['member', 'lead'] as const;
export type GroupMemberRole = (typeof groupMemberRoles)[number];
export const GROUP_MEMBER_ROLE_LABELS: Record<GroupMemberRole, string> = { member: 'Miembro', lead: 'Líder' };

export const GROUP_MSG = {
  groupNotFound: 'El grupo no existe.',
  userNotFound: 'El usuario no existe o está inactivo.',
  notMember: 'El usuario no es miembro del grupo.',
  memberAdded: 'Miembro agregado.',
  memberUpdated: 'Rol del miembro actualizado.',
  memberRemoved: 'Miembro eliminado.',
} as const;

/** A member of a group, as the members tab lists them. */
export const ZGroupMember = z.object({
  user_id: z.number(),
  name: z.string(),
  username: z.string(),
  role: z.enum(groupMemberRoles),
  /** The user's status (1 active, 2 inactive): an inactive member stays listed. */
  status_id: z.number(),
  created_at: z.string(),
});
export type TGroupMember = z.infer<typeof ZGroupMember>;

/** `GET /groups/{id}/members`: every member, leads first, then by name. */
export const ZGroupMembersResponse = ZListResponse(ZGroupMember);
export type TGroupMembersResponse = z.infer<typeof ZGroupMembersResponse>;

/** `POST /groups/{id}/members`: adds the user, or changes the role of one who is already a member. */
export const ZGroupMemberWrite = z.object({
  user_id: ZId,
  role: z.enum(groupMemberRoles, { error: 'El rol debe ser member o lead.' }).default('member'),
});
export type TGroupMemberWrite = z.input<typeof ZGroupMemberWrite>;
z.globalRegistry.add(ZGroupMemberWrite, { example: { user_id: 3, role: 'member' } });

export const ZGroupMemberParams = z.object({ id: ZId, userId: ZId });

export const ZGroupMemberResponse = z.object({ status: z.literal(true), message: z.string(), data: ZGroupMember });

/** A group a user belongs to (their profile). */
export const ZUserGroup = z.object({ id: z.number(), name: z.string(), role: z.enum(groupMemberRoles) });
export type TUserGroup = z.infer<typeof ZUserGroup>;

export const QUEUE_MSG = {
  takenByOther: 'Otro agente ya tomó este ticket.',
  notInQueue: 'El ticket no está en ninguna cola.',
  notYourQueue: 'No perteneces al grupo de esta cola.',
  taken: 'Ticket tomado.',
} as const;

/** A queue's count is exact up to this many tickets; past it, a lower bound. */
export const QUEUE_COUNT_CAP = 1_000;

/** `GET /queues`: a tab per group the caller may see (their groups; every active group for a supervisor). */
export const ZQueueTab = z.object({
  id: z.number(),
  name: z.string(),
  /** Unassigned tickets not closed, counted up to QUEUE_COUNT_CAP. */
  count: z.number(),
  count_is_lower_bound: z.boolean(),
});
export type TQueueTab = z.infer<typeof ZQueueTab>;
export const ZQueueTabsResponse = ZListResponse(ZQueueTab);
export type TQueueTabsResponse = z.infer<typeof ZQueueTabsResponse>;

export const ZQueueParams = z.object({ groupId: ZId });
export const ZTakeParams = z.object({ ticketId: ZId });
