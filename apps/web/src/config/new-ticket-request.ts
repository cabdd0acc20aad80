/**
 * History state that asks a ticket list to open its new-ticket form (the command palette and
 * the `n` key). Not in paths.ts: that module is in the first bundle, this one need not be.
 */
export const newTicketState = { openNewTicket: true } as const;

export const asksForNewTicket = (state: unknown): boolean =>
  typeof state === 'object' && state !== null && (state as { openNewTicket?: unknown }).openNewTicket === true;
