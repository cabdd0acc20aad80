import { paths, routeNameOf } from '@/config/paths.ts';

/**
 * Where 'Crear ticket' opens the new-ticket form: the ticket list on screen, else
 * Mis Tickets, else Tickets Generales; null when the user may open neither.
 */
export function newTicketListPath(pathname: string, allowedRoutes: ReadonlySet<string>): string | null {
  const lists = [paths.tickets, paths.generalTickets].filter((p) => allowedRoutes.has(routeNameOf(p)));
  return lists.find((p) => pathname === p) ?? lists[0] ?? null;
}
