import type { TTicket } from '@portal/contract';

/**
 * The assignee registers and deletes activities; a privileged role
 * who is not the assignee reads them; anyone else has no access.
 */
export type ActivitiesMode = 'register' | 'read-only' | 'denied';

export function activitiesModeOf(
  ticket: TTicket,
  user: { id: number; role: { is_supervisor: number } },
): ActivitiesMode {
  if (ticket.user_assigned_id === user.id) return 'register';
  if (Number(user.role.is_supervisor) === 1) return 'read-only';
  return 'denied';
}
