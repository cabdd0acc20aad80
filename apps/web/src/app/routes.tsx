import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { paths } from '@/config/paths.ts';
import type { TicketListKind } from '@/features/tickets/api/tickets-api.ts';

/**
 * Who may open a screen:
 * - `guest`: only without a session (a signed-in user goes to /tickets), e.g. /login;
 * - `public`: anyone, no session needed (password recovery);
 * - `session`: any signed-in user, no /check-permission (e.g. /users-profile, /logout);
 * - `permission`: signed-in and /check-permission with the path as route name; renders only with r.
 */
export type ScreenAccess = 'guest' | 'public' | 'session' | 'permission';

export interface Screen {
  path: string;
  access: ScreenAccess;
  /** A module whose default export is the screen (a lazily loaded chunk). */
  load: () => Promise<{ default: ComponentType }>;
  /** Signed-in screens render inside the sidebar layout unless this is false. */
  withLayout?: boolean;
  /**
   * Starts the screen's first data requests (with its URL query) when the app opens on
   * its address, alongside the permission check instead of after it (see `preloadScreenOf`).
   */
  prefetch?: () => Promise<(queryClient: QueryClient, search: URLSearchParams) => void>;
}

/**
 * Every screen of the app, one line each. To add one, write
 * `src/features/<feature>/components/<name>-page.tsx` with a default export and add its line here
 * (and, if it belongs in the sidebar, one line in `src/config/menu.ts`).
 */
const catalogPage = () => import('@/features/catalogs/components/catalog-page.tsx');
const ticketList =
  (kind: TicketListKind): Screen['prefetch'] =>
  () =>
    import('@/features/tickets/prefetch.ts').then(
      (m) => (client, search) => m.prefetchTicketList(client, kind, search),
    );

// prettier-ignore
export const screens: Screen[] = [
  // Without a session
  { path: paths.login, access: 'guest', load: () => import('@/features/auth/components/login-page.tsx') },
  { path: paths.forgotPassword, access: 'public', load: () => import('@/features/password-reset/components/forgot-password-page.tsx') },
  { path: paths.confirmCode, access: 'public', load: () => import('@/features/password-reset/components/confirm-code-page.tsx') },
  { path: paths.resetPassword, access: 'public', load: () => import('@/features/password-reset/components/reset-password-page.tsx') },

  // Signed in, no permission check
  { path: paths.logout, access: 'session', withLayout: false, load: () => import('@/features/auth/components/logout-page.tsx') },
  { path: paths.usersProfile, access: 'session', load: () => import('@/features/profile/components/users-profile-page.tsx') },
  // The API decides who sees a ticket (the lists' rule: 403 / 404), so no route permission of its own.
  { path: paths.ticket, access: 'session', load: () => import('@/features/tickets/components/ticket-page.tsx') },

  // Signed in, checked by /check-permission
  { path: paths.areas, access: 'permission', load: catalogPage },
  { path: paths.categories, access: 'permission', load: catalogPage },
  { path: paths.projects, access: 'permission', load: catalogPage },
  { path: paths.difficulties, access: 'permission', load: catalogPage },
  { path: paths.ticketStatuses, access: 'permission', load: catalogPage },
  { path: paths.groups, access: 'permission', load: catalogPage },
  { path: paths.routingRules, access: 'permission', load: catalogPage },
  { path: paths.businessCalendars, access: 'permission', load: catalogPage },
  { path: paths.slaPolicies, access: 'permission', load: catalogPage },
  { path: paths.referenceTypes, access: 'permission', load: catalogPage },
  { path: paths.reference, access: 'session', load: () => import('@/features/references/components/reference-page.tsx') },
  { path: paths.queues, access: 'permission', load: () => import('@/features/queues/components/queues-page.tsx') },
  { path: paths.kanban, access: 'permission', load: () => import('@/features/tickets/components/kanban-page.tsx') },
  { path: paths.priorityTypes, access: 'permission', load: catalogPage },
  { path: paths.users, access: 'permission', load: () => import('@/features/users/components/users-page.tsx') },
  { path: paths.routes, access: 'permission', load: () => import('@/features/access/components/roles-permissions-page.tsx') },
  { path: paths.auditLog, access: 'permission', load: () => import('@/features/audit-log/components/audit-log-page.tsx') },
  {
    path: paths.mailOutbox,
    access: 'permission',
    load: () => import('@/features/mail-outbox/components/mail-outbox-page.tsx'),
  },
  { path: paths.tickets, access: 'permission', load: () => import('@/features/tickets/components/tickets-page.tsx'), prefetch: ticketList('mine') },
  { path: paths.generalTickets, access: 'permission', load: () => import('@/features/tickets/components/general-tickets-page.tsx'), prefetch: ticketList('general') },
  { path: paths.recordTickets, access: 'permission', load: () => import('@/features/tickets/components/record-tickets-page.tsx') },
  { path: paths.workload, access: 'permission', load: () => import('@/features/workload/components/workload-page.tsx') },
  { path: paths.example, access: 'permission', load: () => import('@/app/example/example-page.tsx') },
  { path: paths.dashboard, access: 'permission', load: () => import('@/features/dashboard/components/dashboard-page.tsx') },
];
