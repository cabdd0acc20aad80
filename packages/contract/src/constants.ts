import type { TicketSortColumn } from './ticket-fields.ts';

export const RECORD_STATUS = { active: 1, inactive: 2 } as const;
export type RecordStatusId = (typeof RECORD_STATUS)[keyof typeof RECORD_STATUS];

export const recordStatusName = (statusId: number): string =>
  statusId === RECORD_STATUS.active ? 'Activo' : statusId === RECORD_STATUS.inactive ? 'Inactivo' : 'Desconocido';

/** Where a ticket status stands in a ticket's life. */
export const ticketStages = ['open', 'started', 'closed'] as const;
export type TicketStage = (typeof ticketStages)[number];

/**
 * Where a ticket stands against its SLA: `none` (no policy applies), `ok`, `at_risk` (less than
 * a fifth of the resolution target left, or less than a business hour, whichever is larger),
 * `breached`, `met` (resolved in time), `paused` (its status stops the clock).
 */
export const slaStates = ['none', 'ok', 'at_risk', 'breached', 'met', 'paused'] as const;
export type SlaState = (typeof slaStates)[number];
export const SLA_STATE_LABELS: Record<SlaState, string> = {
  none: 'Sin SLA',
  ok: 'A tiempo',
  at_risk: 'Por vencer',
  breached: 'Vencido',
  met: 'Cumplido',
  paused: 'En pausa',
};

export const permissionFlags = ['r', 'w', 'u', 'd'] as const;
export type PermissionFlag = (typeof permissionFlags)[number];

/** Section names of every screen, seeded and enforced by the API. */
export const SECTIONS = {
  tickets: 'tickets_main',
  generalTickets: 'gt_main',
  /** Importar CSV on Tickets Generales (w): the Administrador role only. */
  ticketImport: 'ti_import',
  currentTickets: 'current_tickets',
  oldTickets: 'old_tickets',
  areas: 'ar_main',
  categories: 'ca_main',
  projects: 'pro_main',
  difficulties: 'dif_main',
  ticketStatuses: 'ts_main',
  groups: 'gr_main',
  priorityTypes: 'pt_main',
  users: 'us_main',
  roles: 'rol_main',
  routes: 'ro_main',
  routesPermission: 'rop_main',
  sections: 'se_main',
  sectionsPermission: 'sepe_main',
  workload: 'wl_main',
  example: 'ex_main',
  auditLog: 'au_main',
  dashboard: 'db_main',
  businessCalendars: 'cal_main',
  slaPolicies: 'sla_main',
  routingRules: 'rr_main',
  queues: 'qu_main',
  /** Saved views: everyone keeps their own; sharing one with roles needs w, changing or deleting another's u / d. */
  savedViews: 'vi_main',
  kanban: 'kb_main',
  referenceTypes: 'ref_main',
  /** Accesos → Correo: the mail queue and the mail-in poller (the Administrador role only). */
  mailOutbox: 'mo_main',
} as const;
export type SectionName = (typeof SECTIONS)[keyof typeof SECTIONS];

export const PAGE_SIZES = [5, 7, 10, 20, 50] as const;
export const DEFAULT_PAGE_SIZE = 7;
/** Page sizes of the ticket history and the assign modal. */
export const TICKET_PAGE_SIZES = [5, 10, 20, 50] as const;
export const DEFAULT_HISTORY_PAGE_SIZE = 10;
export const DEFAULT_ASSIGN_PAGE_SIZE = 5;
export const MAX_PAGE_SIZE = 100;
/** A ticket search counts its matches up to this many; past it the total is a lower bound ('más de 10.000'). */
export const TICKET_COUNT_CAP = 10_000;
/** Cards per page of a Kanban column. */
export const KANBAN_PAGE_SIZE = 30;
/** A Kanban column of a closed status shows the tickets changed in this many last days. */
export const KANBAN_CLOSED_DAYS = 7;
/** A status's WIP limit (Límite WIP) lies in this range, or is empty. */
export const WIP_LIMIT_MAX = 10_000;
export const MIN_PASSWORD_LENGTH = 8;

/** Avatars are served under this path; `DEFAULT_AVATAR_URL` is the in-house silhouette shown when none was uploaded. */
export const AVATAR_URL_PREFIX = '/api/avatars/';
export const DEFAULT_AVATAR_FILE = 'default.svg';
export const DEFAULT_AVATAR_URL = `${AVATAR_URL_PREFIX}${DEFAULT_AVATAR_FILE}`;

/*
 * Constants the first screens use, kept out of the schema modules: importing one of
 * those builds its zod schemas, and the web app's first-screen code would carry zod.
 */

/** The columns a ticket list sorts by: the sortable fields of TICKET_FIELDS. */
export { ticketSortColumns, type TicketSortColumn } from './ticket-fields.ts';
export const DEFAULT_TICKET_SORT: { by: TicketSortColumn; dir: 'asc' | 'desc' } = { by: 'id', dir: 'desc' };

/** Texts of the notifications feature. */
export const NOTIFICATION_TEXT = {
  assigned: 'Se te ha asignado un nuevo ticket',
  activityAdded: 'Se registró una nueva actividad en tu ticket',
  statusChanged: 'Cambió el estado de tu ticket',
  slaAtRisk: 'El SLA del ticket está por vencer',
  slaBreached: 'El SLA del ticket está vencido',
  /** What a notification's title puts before its ticket's id. */
  titlePrefix: 'Ticket #',
  title: (ticketId: number) => `${NOTIFICATION_TEXT.titlePrefix}${ticketId}`,
  viewed: 'Notificaciones marcadas como vistas.',
  read: 'Notificaciones marcadas como leídas.',
  deleted: 'Eliminadas',
  deleteFailed: 'No se pudieron eliminar las notificaciones.',
  empty: 'No tienes notificaciones por ahora',
  emptyHistory: 'No hay historial de notificaciones',
  streamTicket: 'Canal de notificaciones autorizado.',
  streamRefused: 'El permiso para el canal de notificaciones no es válido o ya fue usado.',
} as const;

/** Server-sent event names of GET /api/notifications/stream. */
export const NOTIFICATION_STREAM_EVENTS = {
  /** The stream is open; data `{ since }`. */
  ready: 'ready',
  /** A new notification; data is a `TNotification`, the event id its id. */
  notification: 'notification',
  /** The server ends the stream (shutdown, session ended or expired); data `{ reason }`. Reconnect with a new ticket. */
  end: 'end',
  /** A ticket the user may see was created or changed; data `{ id }`. Lists and its page refresh. */
  ticket: 'ticket',
} as const;
