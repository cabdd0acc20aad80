import {
  IconAlertTriangle,
  IconBox,
  IconBriefcase,
  IconCalendarTime,
  IconCategory,
  IconClockCheck,
  IconChartBar,
  IconClipboardList,
  IconComponents,
  IconFile,
  IconFlag,
  IconHistory,
  IconInbox,
  IconKey,
  IconLayoutKanban,
  IconLayersLinked,
  IconListSearch,
  IconMail,
  IconLayoutDashboard,
  IconListDetails,
  IconLogout,
  IconMapPin,
  IconProgressCheck,
  IconRoute,
  IconTruckDelivery,
  IconShieldLock,
  IconTicket,
  IconTimeline,
  IconUserCircle,
  IconUsers,
  IconUsersGroup,
  type Icon,
} from '@tabler/icons-react';
import { paths } from './paths.ts';

export interface MenuItem {
  name?: string;
  icon?: Icon;
  path?: string;
  submenu?: MenuItem[];
  /** Shown whatever /user-permissions answers. */
  alwaysVisible?: boolean;
  /** An entry that acts instead of navigating (never filtered by permissions). */
  action?: () => void;
}

/** Items without a name or icon show 'Sin Nombre' and a file icon. */
export const DEFAULT_MENU_NAME = 'Sin Nombre';
export const DEFAULT_MENU_ICON: Icon = IconFile;

/** The sidebar, in order. Add a screen to the menu with one line in its group. */
export const menu: MenuItem[] = [
  {
    name: 'Tickets',
    icon: IconTicket,
    submenu: [
      { name: 'Mis Tickets', icon: IconClipboardList, path: paths.tickets },
      { name: 'Tickets Generales', icon: IconListDetails, path: paths.generalTickets },
      { name: 'Historial', icon: IconHistory, path: paths.recordTickets },
      { name: 'Colas', icon: IconInbox, path: paths.queues },
      { name: 'Kanban', icon: IconLayoutKanban, path: paths.kanban },
    ],
  },
  {
    name: 'Catálogos',
    icon: IconCategory,
    submenu: [
      { name: 'Áreas', icon: IconMapPin, path: paths.areas },
      { name: 'Categorías', icon: IconCategory, path: paths.categories },
      { name: 'Proyectos', icon: IconBriefcase, path: paths.projects },
      { name: 'Dificultades', icon: IconAlertTriangle, path: paths.difficulties },
      { name: 'Estados de Ticket', icon: IconProgressCheck, path: paths.ticketStatuses },
      { name: 'Grupos', icon: IconUsersGroup, path: paths.groups },
      { name: 'Prioridades', icon: IconFlag, path: paths.priorityTypes },
      { name: 'Referencias', icon: IconTruckDelivery, path: paths.referenceTypes },
      { name: 'Reglas de asignación', icon: IconRoute, path: paths.routingRules },
      { name: 'Calendarios laborales', icon: IconCalendarTime, path: paths.businessCalendars },
      { name: 'Acuerdos de servicio', icon: IconClockCheck, path: paths.slaPolicies },
    ],
  },
  {
    name: 'Accesos',
    icon: IconKey,
    submenu: [
      { name: 'Usuarios', icon: IconUsers, path: paths.users },
      { name: 'Roles y Permisos', icon: IconShieldLock, path: paths.routes },
      { name: 'Auditoría', icon: IconListSearch, path: paths.auditLog },
      { name: 'Correo', icon: IconMail, path: paths.mailOutbox },
    ],
  },
  {
    name: 'Reportes',
    icon: IconChartBar,
    submenu: [
      { name: 'Tablero', icon: IconLayoutDashboard, path: paths.dashboard },
      { name: 'Carga de trabajo', icon: IconTimeline, path: paths.workload },
    ],
  },
  { name: 'Componentes', icon: IconComponents, path: paths.example },
];

/** The sidebar's last entry. */
export const logoutItem: MenuItem = { name: 'Cerrar sesión', icon: IconLogout, path: paths.logout };

/** Pages outside the sidebar that still need a title and icon in the top bar. */
export const hiddenMenuEntries: MenuItem[] = [
  { name: 'Perfil', icon: IconUserCircle, path: paths.usersProfile },
  { name: 'Página no encontrada', icon: IconLayersLinked, path: '*' },
];

export const fallbackEntry: MenuItem = { name: 'Portal de tickets', icon: IconBox };

/** Every leaf entry (with a path), menu first. */
export function leafEntries(items: MenuItem[] = menu): MenuItem[] {
  return items.flatMap((item) => (item.submenu ? leafEntries(item.submenu) : item.path ? [item] : []));
}

/** The menu entry of a path, for the top bar's title and icon; a ticket's page is named after its ticket. */
export function entryForPath(pathname: string): MenuItem {
  const all = [...leafEntries(), ...hiddenMenuEntries.filter((e) => e.path !== '*')];
  const normalized = pathname.replace(/\/+$/, '') || '/';
  const ticketId = /^\/tickets\/([^/]+)$/.exec(normalized)?.[1];
  if (ticketId !== undefined) return { name: `Ticket #${ticketId}`, icon: IconTicket, path: normalized };
  return (
    all.find((e) => e.path === normalized) ??
    all.find((e) => e.path && normalized.startsWith(`${e.path}/`)) ??
    hiddenMenuEntries.find((e) => e.path === '*') ??
    fallbackEntry
  );
}

/**
 * Keep items whose path (without its slash) is allowed, plus
 * always-visible ones, actions and logout; a group with nothing left to show is hidden.
 */
export function filterMenu(items: MenuItem[], allowedRoutes: ReadonlySet<string>): MenuItem[] {
  return items.flatMap((item) => {
    if (item.submenu) {
      const children = filterMenu(item.submenu, allowedRoutes);
      return children.length > 0 || item.alwaysVisible ? [{ ...item, submenu: children }] : [];
    }
    const isKept =
      item.alwaysVisible ||
      item.action !== undefined ||
      item.path === paths.logout ||
      (item.path !== undefined && allowedRoutes.has(item.path.replace(/^\/+/, '')));
    return isKept ? [item] : [];
  });
}
