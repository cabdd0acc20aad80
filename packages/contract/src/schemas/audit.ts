import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from '../constants.ts';
import type { CatalogResourceName } from './catalogs.ts';
import { ZId, ZListQueryWith, ZListResponse, ZPageMeta } from './common.ts';

/** The list counts matching entries exactly up to this many, then says "más de" (the table can be very large). */
export const AUDIT_COUNT_CAP = 10_000;
export const AUDIT_MAX_EVENT_FILTERS = 50;

/**
 * The catalogue resources whose writes are audited (who may do what, and the
 * users themselves): their event prefix and the Spanish noun of the label.
 */
export const auditedCatalogResources = {
  users: { prefix: 'user', noun: 'Usuario', isFeminine: false },
  roles: { prefix: 'role', noun: 'Rol', isFeminine: false },
  routes: { prefix: 'route', noun: 'Ruta', isFeminine: true },
  sections: { prefix: 'section', noun: 'Sección', isFeminine: true },
  'routes-permission': { prefix: 'route_permission', noun: 'Permiso de ruta', isFeminine: false },
  'sections-permission': { prefix: 'section_permission', noun: 'Permiso de sección', isFeminine: false },
} as const satisfies Partial<Record<CatalogResourceName, { prefix: string; noun: string; isFeminine: boolean }>>;
export type AuditedCatalogResource = keyof typeof auditedCatalogResources;

const catalogActions = {
  created: ['creado', 'creada'],
  updated: ['actualizado', 'actualizada'],
  deactivated: ['desactivado', 'desactivada'],
  reactivated: ['reactivado', 'reactivada'],
} as const;
export type CatalogAuditAction = keyof typeof catalogActions;

/** `user.created`, `section_permission.updated`… */
export const catalogAuditEvent = (resource: AuditedCatalogResource, action: CatalogAuditAction) =>
  `${auditedCatalogResources[resource].prefix}.${action}`;

/** Every event the API writes to the audit log, with the Spanish name the screen and the CSV show. */
export const AUDIT_EVENT_LABELS: Readonly<Record<string, string>> = {
  'login.success': 'Inicio de sesión',
  'login.failure': 'Inicio de sesión fallido',
  'migration.duplicate_renamed': 'Cuenta renombrada por duplicada',
  'login.throttled': 'Inicio de sesión bloqueado por intentos',
  logout: 'Cierre de sesión',
  'token.renewed': 'Sesión renovada',
  'auth.missing_token': 'Acceso sin sesión',
  'auth.invalid_token': 'Sesión inválida o vencida',
  'auth.revoked_token': 'Sesión cerrada o revocada',
  'csrf.refused': 'Solicitud rechazada (CSRF)',
  'permission.denied': 'Permiso denegado',
  'notifications.stream_refused': 'Conexión de notificaciones rechazada',
  'password.changed': 'Contraseña cambiada',
  'password.change_refused': 'Cambio de contraseña rechazado',
  'password_reset.requested': 'Recuperación de contraseña solicitada',
  'password_reset.code_sent': 'Código de recuperación enviado',
  'password_reset.unknown_email': 'Recuperación para un correo desconocido',
  'password_reset.mail_failed': 'Fallo al enviar el código de recuperación',
  'password_reset.throttled': 'Recuperación bloqueada por intentos',
  'password_reset.code_verified': 'Código de recuperación verificado',
  'password_reset.verify_failure': 'Código de recuperación rechazado',
  'password_reset.verify_throttled': 'Verificación de código bloqueada por intentos',
  'password_reset.completed': 'Contraseña restablecida',
  'password_reset.reset_failure': 'Restablecimiento de contraseña rechazado',
  'password_reset.reset_throttled': 'Restablecimiento bloqueado por intentos',
  'ticket.assigned': 'Ticket asignado',
  'ticket.reassigned': 'Ticket reasignado',
  'group.member_added': 'Miembro de grupo agregado',
  'group.member_updated': 'Rol de miembro de grupo cambiado',
  'group.member_removed': 'Miembro de grupo eliminado',
  ...Object.fromEntries(
    Object.entries(auditedCatalogResources).flatMap(([resource, { noun, isFeminine }]) =>
      Object.entries(catalogActions).map(([action, words]) => [
        catalogAuditEvent(resource as AuditedCatalogResource, action as CatalogAuditAction),
        `${noun} ${words[isFeminine ? 1 : 0]}`,
      ]),
    ),
  ),
};

/** The Spanish name of an event; an event this version does not know shows as it was written. */
export const auditEventLabel = (event: string): string => AUDIT_EVENT_LABELS[event] ?? event;

/** The action filter's choices, by label. */
export const AUDIT_EVENT_OPTIONS = Object.entries(AUDIT_EVENT_LABELS)
  .map(([value, label]) => ({ value, label }))
  .sort((a, b) => a.label.localeCompare(b.label, 'es'));

const ZDay = z
  .string({ error: 'La fecha debe ser texto.' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'La fecha debe tener el formato AAAA-MM-DD.')
  .refine((v) => {
    const date = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(v);
  }, 'La fecha no existe.');

export const ZAuditFilters = z
  .object({
    user_id: ZId.optional(),
    event: z
      .array(
        z.string({ error: 'La acción debe ser texto.' }).regex(/^[a-z][a-z_.-]{0,59}$/, 'La acción no es válida.'),
        { error: 'Las acciones deben ser una lista.' },
      )
      .max(AUDIT_MAX_EVENT_FILTERS, `Elige como máximo ${AUDIT_MAX_EVENT_FILTERS} acciones.`)
      .optional(),
    from: ZDay.optional(),
    to: ZDay.optional(),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, {
    message: 'La fecha inicial no puede ser posterior a la final.',
    path: ['to'],
  });
export type TAuditFilters = z.infer<typeof ZAuditFilters>;

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/**
 * POST /api/audit-log and /api/audit-log/export: a page (ignored by the
 * export), a search, the filters; `from`/`to` are whole days in `time_zone`
 * (the browser's, default UTC), which also dates the CSV.
 */
export const ZAuditListQuery = ZListQueryWith(DEFAULT_PAGE_SIZE).extend({
  filters: ZAuditFilters.default({}),
  time_zone: z
    .string({ error: 'La zona horaria debe ser texto.' })
    .max(64, 'La zona horaria no es válida.')
    .refine(isTimeZone, 'La zona horaria no es válida.')
    .default('UTC'),
});
export type TAuditListQuery = z.input<typeof ZAuditListQuery>;

export const ZAuditEntry = z.object({
  id: z.number(),
  /** ISO 8601, UTC. */
  created_at: z.string(),
  event: z.string(),
  /** The event in Spanish. */
  action: z.string(),
  /** Who acted; null for an anonymous attempt. */
  user: z.object({ id: z.number(), name: z.string(), username: z.string() }).nullable(),
  /** The username as written at the time (an anonymous attempt's typed username). */
  username: z.string().nullable(),
  ip: z.string().nullable(),
  /** The recorded details, readable in Spanish. */
  details: z.string(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

export const ZAuditPage = ZListResponse(ZAuditEntry, {
  meta: ZPageMeta.extend({
    /** `total` is the cap: more entries match. */
    total_is_lower_bound: z.boolean(),
  }),
});
export type TAuditPage = z.infer<typeof ZAuditPage>;

/** Everyone who ever acted, active or not, for the user filter. */
export const ZAuditUsersResponse = ZListResponse(z.object({ id: z.number(), name: z.string() }));
export type TAuditUsersResponse = z.infer<typeof ZAuditUsersResponse>;
