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

/** How a group hands out the tickets that land in its queue. */
export const assignmentModes = ['manual', 'round_robin', 'least_loaded'] as const;
export type AssignmentMode = (typeof assignmentModes)[number];
export const ASSIGNMENT_MODE_LABELS: Record<AssignmentMode, string> = {
  manual: 'Manual',
  round_robin: 'Rotativa',
  least_loaded: 'Menor carga',
};

/** The most open tickets a member may hold to be given another automatically. */
export const MAX_ASSIGNMENT_CAP = 10_000;

export const ASSIGNMENT_MSG = {
  mode: 'El modo de asignación debe ser Manual, Rotativa o Menor carga.',
  cap: 'El tope de tickets abiertos por agente debe ser un número entero entre 1 y 10.000.',
  /**
   * The timeline's reason of an automatic assignment, by mode: `{n}` stands for the member's open
   * tickets as `openTickets` writes them (the database composes it the same way).
   */
  reasonTemplate: {
    least_loaded: 'Asignado automáticamente (menor carga: {n})',
    round_robin: 'Asignado automáticamente (rotativa: {n})',
  },
  /** The word after the number of open tickets: one, or any other number. */
  openWord: { one: 'abierto', many: 'abiertos' },
  reason: (mode: Exclude<AssignmentMode, 'manual'>, open: number) =>
    ASSIGNMENT_MSG.reasonTemplate[mode].replace(
      '{n}',
      `${open} ${open === 1 ? ASSIGNMENT_MSG.openWord.one : ASSIGNMENT_MSG.openWord.many}`,
    ),
} as const;

/** Manual, Rotativa or Menor carga (the Grupos form). */
export const ZAssignmentMode = z.enum(assignmentModes, { error: ASSIGNMENT_MSG.mode });

/**
 * The per-agent cap of open tickets: 1 to 10,000, or none (null, or an empty field of the form).
 * A number typed in the form arrives as text.
 */
export const ZAssignmentCap = z
  .union([z.number(), z.string().regex(/^\d*$/, ASSIGNMENT_MSG.cap), z.null()], { error: ASSIGNMENT_MSG.cap })
  .transform((v) => (v === null || v === '' ? null : Number(v)))
  .refine((v) => v === null || (Number.isInteger(v) && v >= 1 && v <= MAX_ASSIGNMENT_CAP), {
    message: ASSIGNMENT_MSG.cap,
  });

export const ABSENCE_MSG = {
  marked: 'Quedaste como ausente: no recibirás tickets automáticamente.',
  cleared: 'Ya no estás ausente: vuelves a recibir tickets.',
  badDate: 'La fecha no es válida.',
  endsBeforeStart: 'La fecha de regreso debe ser posterior al inicio de la ausencia.',
} as const;

/** A date (`2026-12-01`, the start of that day in UTC) or an instant (ISO 8601). */
const ZAbsenceDate = z
  .string({ error: ABSENCE_MSG.badDate })
  .max(40, ABSENCE_MSG.badDate)
  .refine((v) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), {
    message: ABSENCE_MSG.badDate,
  })
  .transform((v) => new Date(Date.parse(v)).toISOString());

/**
 * `PUT /users/{id}/absence`: Ausente or back. An absence starts now unless `from` says when, and
 * lasts until `until` (the return date; null: until the user comes back); it must end after it
 * starts. `until` is always sent (null when there is none), so a body is never valid by half.
 */
export const ZAbsenceWrite = z
  .object({
    absent: z.boolean({ error: 'Indica si estás ausente (true o false).' }),
    from: ZAbsenceDate.nullable().optional(),
    until: ZAbsenceDate.nullable().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.until === undefined) {
      ctx.addIssue({ code: 'custom', message: 'Indica la fecha de regreso, o null si no la hay.', path: ['until'] });
    }
  });
export type TAbsenceWrite = z.input<typeof ZAbsenceWrite>;
z.globalRegistry.add(ZAbsenceWrite, { example: { absent: true, until: '2026-12-01' } });

/** A user's absence: whether it holds now, and its bounds (null when present). */
export const ZAbsence = z.object({
  absent: z.boolean(),
  absent_from: z.string().nullable(),
  absent_until: z.string().nullable(),
});
export type TAbsence = z.infer<typeof ZAbsence>;
export const ZAbsenceResponse = z.object({ status: z.literal(true), message: z.string(), data: ZAbsence });

/** A member's load on the workload screen. */
export const ZMemberLoad = z.object({
  user_id: z.number(),
  name: z.string(),
  /** Assigned tickets not closed (from the counters). */
  open_count: z.number(),
  absent: z.boolean(),
  status_id: z.number(),
});

/** `GET /workload/groups`: each active group's queue and its members' load. */
export const ZGroupLoad = z.object({
  id: z.number(),
  name: z.string(),
  assignment_mode: ZAssignmentMode,
  assignment_cap: z.number().nullable(),
  /** Unassigned tickets not closed, counted up to QUEUE_COUNT_CAP. */
  queue_count: z.number(),
  count_is_lower_bound: z.boolean(),
  members: z.array(ZMemberLoad),
});
export type TGroupLoad = z.infer<typeof ZGroupLoad>;
export const ZGroupLoadsResponse = ZListResponse(ZGroupLoad);
export const ZGroupLoadsQuery = z.object({ group_id: ZId.optional() });
