import type { Icon } from '@tabler/icons-react';
import {
  DEFAULT_MENU_ICON,
  DEFAULT_MENU_NAME,
  filterMenu,
  hiddenMenuEntries,
  menu,
  type MenuItem,
} from '@/config/menu.ts';
import { paths, routeNameOf } from '@/config/paths.ts';

/** A screen the palette offers: the sidebar's entry, with its group as a hint. */
export interface ScreenCommand {
  path: string;
  label: string;
  /** The sidebar group holding it ('Tickets', 'Catálogos'…), if any. */
  group?: string;
  icon: Icon;
}

/** Pages every signed-in user may open that the sidebar does not list (the profile). */
const sessionScreens = hiddenMenuEntries.filter((e) => e.path === paths.usersProfile);

/**
 * The screens the user may open, in sidebar order: the same filter as the sidebar
 * over its entries, then the profile. Actions and logout are not screens.
 */
export function screenCommands(allowedRoutes: ReadonlySet<string>, items: MenuItem[] = menu): ScreenCommand[] {
  const toCommand = (item: MenuItem, group?: string): ScreenCommand[] =>
    item.path && !item.action && item.path !== paths.logout
      ? [{ path: item.path, label: item.name ?? DEFAULT_MENU_NAME, group, icon: item.icon ?? DEFAULT_MENU_ICON }]
      : [];
  const visible = filterMenu(items, allowedRoutes).flatMap((item) =>
    item.submenu ? item.submenu.flatMap((child) => toCommand(child, item.name)) : toCommand(item),
  );
  return [...visible, ...sessionScreens.flatMap((item) => toCommand(item))];
}

/** Lower case without accents, so 'categorias' finds 'Categorías'. */
export const foldText = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();

/** Every word of the query starts a word of the label or of its group ('tick gen' → Tickets Generales). */
export function matchesScreen(command: ScreenCommand, query: string): boolean {
  const words = foldText(query).split(/\s+/).filter(Boolean);
  const haystack = foldText(`${command.label} ${command.group ?? ''}`).split(/[\s/]+/);
  return words.every((word) => haystack.some((part) => part.startsWith(word)));
}

/** Ticket ids are positive 32-bit integers in both databases. */
const MAX_TICKET_ID = 2_147_483_647;

/** `123`, `#123` or `# 123` → 123; anything else (text, 0, too large) → null. */
export function parseTicketNumber(query: string): number | null {
  const digits = /^#?\s*(\d{1,10})$/.exec(query.trim())?.[1];
  if (digits === undefined) return null;
  const id = Number(digits);
  return id >= 1 && id <= MAX_TICKET_ID ? id : null;
}

/** The text sent to the ticket search: the query without a leading '#'. */
export const ticketSearchText = (query: string) => query.trim().replace(/^#\s*/, '');

/** Shorter queries do not search tickets (too many matches to be useful). */
export const MIN_TICKET_SEARCH_LENGTH = 2;

/** Which list searches tickets: every ticket when the user may open Tickets Generales, else their own. */
export function ticketSearchList(allowedRoutes: ReadonlySet<string>): 'general' | 'mine' | null {
  if (allowedRoutes.has(routeNameOf(paths.generalTickets))) return 'general';
  if (allowedRoutes.has(routeNameOf(paths.tickets))) return 'mine';
  return null;
}

export interface Shortcut {
  keys: string[];
  label: string;
}

/** The shortcuts the palette lists: those the user may use. */
export function shortcutsFor(
  allowedRoutes: ReadonlySet<string>,
  { isMac, canCreateTicket }: { isMac: boolean; canCreateTicket: boolean },
): Shortcut[] {
  const may = (path: string) => allowedRoutes.has(routeNameOf(path));
  return [
    { keys: [isMac ? '⌘' : 'Ctrl', 'K'], label: 'Abrir o cerrar la paleta' },
    ...(may(paths.tickets) ? [{ keys: ['g', 't'], label: 'Mis Tickets' }] : []),
    ...(may(paths.generalTickets) ? [{ keys: ['g', 'g'], label: 'Tickets Generales' }] : []),
    ...(canCreateTicket ? [{ keys: ['n'], label: 'Nuevo ticket' }] : []),
    { keys: ['/'], label: 'Buscar en la lista' },
  ];
}
