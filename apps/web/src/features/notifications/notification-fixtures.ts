import type { TNotification } from '@portal/contract';

/** A notification as the API sends it, for tests. */
export const makeNotification = (id: number, overrides: Partial<TNotification> = {}): TNotification => ({
  id,
  ticket_id: id * 10,
  title: `Ticket #${id * 10}`,
  message: 'Se te ha asignado un nuevo ticket',
  type: 'info',
  viewed: 0,
  visible: 1,
  created_at: new Date(Date.now() - 60_000).toISOString(),
  timestamp: Date.now() - 60_000,
  actor_name: null,
  ticket_name: null,
  ...overrides,
});
