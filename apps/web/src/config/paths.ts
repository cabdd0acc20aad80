/** Every path of the app (SPEC §2). Route names for /check-permission are the path without its slash. */
export const paths = {
  login: '/login',
  logout: '/logout',
  forgotPassword: '/forgot-password',
  confirmCode: '/confirm-code',
  resetPassword: '/reset-password',

  tickets: '/tickets',
  generalTickets: '/general-tickets',
  recordTickets: '/record-tickets',

  areas: '/areas',
  categories: '/categories',
  projects: '/projects',
  difficulties: '/difficulties',
  ticketStatuses: '/ticket-statuses',
  groups: '/groups',
  priorityTypes: '/priority-types',

  users: '/users',
  routes: '/routes',
  auditLog: '/audit-log',
  workload: '/workload',
  dashboard: '/dashboard',
  usersProfile: '/users-profile',
  example: '/example',
} as const;

/** Where a signed-in user lands (SPEC §9). */
export const homePath = paths.tickets;

export const routeNameOf = (path: string) => path.replace(/^\/+/, '').split('/')[0] ?? '';
