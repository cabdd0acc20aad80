import type { Location, NavigateFunction } from 'react-router';
import { newTicketState, paths, routeNameOf } from '@/config/paths.ts';

/**
 * Where 'Crear ticket' opens the new-ticket form: the ticket list on screen, else
 * Mis Tickets, else Tickets Generales; null when the user may open neither.
 */
export function newTicketListPath(pathname: string, allowedRoutes: ReadonlySet<string>): string | null {
  const lists = [paths.tickets, paths.generalTickets].filter((p) => allowedRoutes.has(routeNameOf(p)));
  return lists.find((p) => pathname === p) ?? lists[0] ?? null;
}

/**
 * Asks that list for its new-ticket form (the list answers `newTicketState`), keeping the
 * filters when it is the list on screen. False when the user may open no ticket list.
 */
export function goToNewTicket(navigate: NavigateFunction, location: Location, allowedRoutes: ReadonlySet<string>) {
  const list = newTicketListPath(location.pathname, allowedRoutes);
  if (!list) return false;
  const isHere = list === location.pathname;
  void navigate({ pathname: list, search: isHere ? location.search : '' }, { state: newTicketState, replace: isHere });
  return true;
}
