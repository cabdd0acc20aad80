/** Every path of the app. Route names for /check-permission are the path without its slash. */
export const paths = {
  login: '/login',
  logout: '/logout',
  forgotPassword: '/forgot-password',
  confirmCode: '/confirm-code',
  resetPassword: '/reset-password',

  tickets: '/tickets',
  /** One ticket's page; `ticketPath(id)` in features/tickets builds it. */
  ticket: '/tickets/:id',
  generalTickets: '/general-tickets',
  recordTickets: '/record-tickets',

  areas: '/areas',
  categories: '/categories',
  projects: '/projects',
  difficulties: '/difficulties',
  ticketStatuses: '/ticket-statuses',
  groups: '/groups',
  priorityTypes: '/priority-types',
  routingRules: '/routing-rules',
  businessCalendars: '/business-calendars',
  slaPolicies: '/sla-policies',
  referenceTypes: '/reference-types',
  reference: '/references/:typeId/:value',
  queues: '/queues',
  kanban: '/kanban',

  users: '/users',
  routes: '/routes',
  auditLog: '/audit-log',
  mailOutbox: '/mail-outbox',
  workload: '/workload',
  dashboard: '/dashboard',
  usersProfile: '/users-profile',
  example: '/example',
} as const;

/** The page of one ticket, linked from every list, the profile and each ticket notification. */
export const ticketPath = (id: number) => `/tickets/${id}`;

/**
 * History state that asks a ticket list to open its new-ticket form (the command palette and the `n` key).
 * Here, in the first bundle, because a module of its own would be one more chunk for every ticket list.
 */
export const newTicketState = { openNewTicket: true } as const;
export const asksForNewTicket = (state: unknown): boolean =>
  typeof state === 'object' && state !== null && (state as { openNewTicket?: unknown }).openNewTicket === true;

/** Where a signed-in user lands. */
export const homePath = paths.tickets;

export const routeNameOf = (path: string) => path.replace(/^\/+/, '').split('/')[0] ?? '';
