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

const reasons: Record<string, string> = {
  unknown_user: 'usuario inexistente',
  bad_password: 'contraseña incorrecta',
  inactive: 'usuario o rol inactivo',
  bad_current_password: 'contraseña actual incorrecta',
  unknown_email: 'correo desconocido',
  no_code: 'sin código vigente',
  code_already_used: 'código ya usado',
  expired: 'vencido',
  too_many_attempts: 'demasiados intentos',
  wrong_code: 'código incorrecto',
  unknown_token: 'token desconocido',
  token_already_used: 'token ya usado',
};

const flagNames: Record<string, string> = { r: 'leer', w: 'crear', u: 'editar', d: 'cambiar estado' };

const show = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
};

const describeRequired = (value: unknown) =>
  Array.isArray(value)
    ? value
        .map(
          (r: { section?: unknown; flag?: unknown }) =>
            `${show(r.section)} (${flagNames[String(r.flag)] ?? show(r.flag)})`,
        )
        .join(' o ')
    : show(value);

/** The fields of audited records, as the forms name them. */
const fieldLabels: Record<string, string> = {
  name: 'Nombre',
  last_name: 'Apellido',
  second_last_name: 'Segundo apellido',
  username: 'Usuario',
  email: 'Correo',
  role_id: 'Rol',
  area_id: 'Área',
  supervisor_id: 'Supervisor',
  branch: 'Sucursal',
  is_supervisor: 'Privilegiado',
  route_id: 'Ruta',
  section_id: 'Sección',
  r: 'Leer',
  w: 'Crear',
  u: 'Editar',
  d: 'Cambiar estado',
  status_id: 'Estado',
  password: 'Contraseña',
};
const yesNoFields = new Set(['r', 'w', 'u', 'd', 'is_supervisor']);

const showField = (field: string, value: unknown) =>
  yesNoFields.has(field) && (value === 0 || value === 1) ? (value === 1 ? 'sí' : 'no') : show(value);

function describeChanges(changes: unknown): string {
  if (!changes || typeof changes !== 'object') return show(changes);
  return Object.entries(changes as Record<string, unknown>)
    .map(([field, change]) => {
      const label = fieldLabels[field] ?? field;
      return Array.isArray(change) && change.length === 2
        ? `${label}: ${showField(field, change[0])} → ${showField(field, change[1])}`
        : `${label}: ${showField(field, change)}`;
    })
    .join('; ');
}

/** Names of users a detail refers to by id, resolved by the API when it reads the log. */
export type AuditUserNames = ReadonlyMap<number, string>;

const userRef = (names: AuditUserNames, value: unknown) =>
  typeof value === 'number' ? (names.get(value) ?? `usuario #${value}`) : show(value);

/** Each detail key with its Spanish label and how its value reads. */
const detailParts: Record<string, (value: unknown, names: AuditUserNames) => string> = {
  record: (v) => `Registro: ${show(v)}`,
  changes: (v) => {
    const text = describeChanges(v);
    return text === '' ? '' : `Cambios: ${text}`;
  },
  ticket_id: (v) => `Ticket #${show(v)}`,
  previous_assignee_id: (v, names) => `Antes: ${userRef(names, v)}`,
  assignee_id: (v, names) => `Asignado a: ${userRef(names, v)}`,
  target: (v, names) => `Usuario afectado: ${userRef(names, v)}`,
  reason: (v) => `Motivo: ${reasons[String(v)] ?? show(v)}`,
  scope: (v) => `Límite por ${v === 'account' ? 'cuenta' : v === 'address' ? 'dirección' : show(v)}`,
  limit: (v) => `Límite: ${show(v)}`,
  retry_after_s: (v) => `Reintentar en ${show(v)} s`,
  email: (v) => `Correo: ${show(v)}`,
  attempts: (v) => `Intentos: ${show(v)}`,
  dead: (v) => (v ? 'Código invalidado' : ''),
  sub: (v) => `Usuario del token: #${show(v)}`,
  required: (v) => `Permiso requerido: ${describeRequired(v)}`,
};

/**
 * One readable line for an entry's details, e.g. "Motivo: contraseña
 * incorrecta · Solicitud: POST /api/areas/create". `username` is the typed
 * username of an attempt made without a known user.
 */
export function describeAuditDetail(
  detail: Record<string, unknown> | null,
  names: AuditUserNames = new Map(),
  anonymousUsername?: string | null,
): string {
  const parts: string[] = [];
  if (anonymousUsername) parts.push(`Usuario escrito: ${anonymousUsername}`);
  const rest = { ...detail };
  if ('method' in rest || 'url' in rest) {
    parts.push(
      `Solicitud: ${[rest.method, rest.url]
        .filter((p) => p !== undefined)
        .map(show)
        .join(' ')}`,
    );
    delete rest.method;
    delete rest.url;
  }
  for (const [key, value] of Object.entries(rest)) {
    const part = detailParts[key]?.(value, names) ?? `${key}: ${show(value)}`;
    if (part !== '') parts.push(part);
  }
  return parts.join(' · ');
}

/** Detail keys holding a user id the API resolves to a name for `describeAuditDetail`. */
export const AUDIT_USER_DETAIL_KEYS = ['assignee_id', 'previous_assignee_id', 'target'] as const;
