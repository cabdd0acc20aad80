/**
 * The audit log keeps each event's details as JSON (`audit_log.detail`); the
 * Auditoría screen and its CSV show them as one readable Spanish line, e.g.
 * "10 intentos entre 04:59:01 y 04:59:02 · Primera solicitud: POST /api/check-permission".
 */

/** Names of users a detail refers to by id, resolved when the log is read. */
export type AuditUserNames = ReadonlyMap<number, string>;

/** Detail keys holding a user id, resolved to a name by the reader. */
export const AUDIT_USER_DETAIL_KEYS = ['assignee_id', 'previous_assignee_id', 'target', 'user_id', 'kept_by'] as const;

export interface AuditDetailContext {
  names?: AuditUserNames;
  /** The username typed in an attempt made without a known user. */
  anonymousUsername?: string | null;
  /** The reader's time zone, for the times a detail carries. */
  timeZone?: string;
}

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

/** Any value as words: lists joined by commas, objects as `clave: valor` (nested ones in parentheses), never JSON. */
function show(value: unknown, isNested = false): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'sí' : 'no';
  if (Array.isArray(value)) return value.map((v) => show(v, true)).join(', ');
  if (typeof value === 'object') {
    const text = Object.entries(value)
      .map(([key, v]) => `${key}: ${show(v, true)}`)
      .join(', ');
    return isNested ? `(${text})` : text;
  }
  return String(value);
}

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

const describeRequired = (value: unknown) =>
  Array.isArray(value)
    ? value
        .map(
          (r: { section?: unknown; flag?: unknown }) =>
            `${show(r.section)} (${flagNames[String(r.flag)] ?? show(r.flag)})`,
        )
        .join(' o ')
    : show(value);

/** `POST /api/areas/create` from a detail's `method` and `url`, or null when it names no request. */
function requestOf(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const { method, url } = value as Record<string, unknown>;
  if (method === undefined && url === undefined) return null;
  return [method, url]
    .filter((p) => p !== undefined)
    .map((p) => show(p))
    .join(' ');
}

/** The wall-clock time of an instant in `zone`, with its date when `reference` falls on another day. */
function clockOf(zone: string) {
  const day = new Intl.DateTimeFormat('es-MX', { timeZone: zone, day: 'numeric', month: 'numeric', year: 'numeric' });
  const time = new Intl.DateTimeFormat('es-MX', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (iso: string, reference: string) => {
    const at = new Date(iso);
    const onOtherDay = day.format(at) !== day.format(new Date(reference));
    return onOtherDay ? `${day.format(at)} ${time.format(at)}` : time.format(at);
  };
}

/** "10 intentos entre 04:59:01 y 04:59:02": how often an anonymous refusal came, and when. */
function describeCount(count: unknown, firstAt: unknown, lastAt: unknown, zone: string): string {
  const times =
    typeof count === 'number' ? `${count} ${count === 1 ? 'intento' : 'intentos'}` : `Intentos: ${show(count)}`;
  const isInstant = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v));
  if (!isInstant(firstAt)) return times;
  const clock = clockOf(zone);
  if (!isInstant(lastAt) || lastAt === firstAt) return `${times} a las ${clock(firstAt, firstAt)}`;
  return `${times} entre ${clock(firstAt, firstAt)} y ${clock(lastAt, firstAt)}`;
}

type Part = (value: unknown, names: AuditUserNames) => string;

const userRef: Part = (value, names) =>
  typeof value === 'number' ? (names.get(value) ?? `usuario #${value}`) : show(value);

/** Each known detail key with its Spanish label and how its value reads. */
const detailParts: Record<string, Part> = {
  record: (v) => `Registro: ${show(v)}`,
  changes: (v) => {
    const text = describeChanges(v);
    return text === '' ? '' : `Cambios: ${text}`;
  },
  ticket_id: (v) => `Ticket #${show(v)}`,
  previous_assignee_id: (v, names) => `Antes: ${userRef(v, names)}`,
  assignee_id: (v, names) => `Asignado a: ${userRef(v, names)}`,
  target: (v, names) => `Usuario afectado: ${userRef(v, names)}`,
  user_id: (v, names) => `Usuario: ${userRef(v, names)}`,
  kept_by: (v, names) => `Conservado por: ${userRef(v, names)}`,
  field: (v) => `Campo: ${fieldLabels[String(v)] ?? show(v)}`,
  from: (v) => `Antes: ${show(v)}`,
  to: (v) => `Ahora: ${show(v)}`,
  reason: (v) => `Motivo: ${reasons[String(v)] ?? show(v)}`,
  scope: (v) => `Límite por ${v === 'account' ? 'cuenta' : v === 'address' ? 'dirección' : show(v)}`,
  limit: (v) => `Límite: ${show(v)}`,
  retry_after_s: (v) => `Reintentar en ${show(v)} s`,
  email: (v) => `Correo: ${show(v)}`,
  attempts: (v) => `Intentos: ${show(v)}`,
  dead: (v) => (v ? 'Código invalidado' : ''),
  sub: (v) => `Usuario del token: #${show(v)}`,
  required: (v) => `Permiso requerido: ${describeRequired(v)}`,
  sample: (v) => {
    const request = requestOf(v);
    return request === null ? `Ejemplo: ${show(v)}` : `Primera solicitud: ${request}`;
  },
  texto: (v) => `Texto: ${show(v)}`,
};

/**
 * One readable line for an entry's details: each known key in Spanish, any
 * other as `clave: valor`.
 */
export function describeAuditDetail(
  detail: Record<string, unknown> | null,
  { names = new Map(), anonymousUsername, timeZone = 'UTC' }: AuditDetailContext = {},
): string {
  const parts: string[] = [];
  if (anonymousUsername) parts.push(`Usuario escrito: ${anonymousUsername}`);
  const { method, url, count, first_at: firstAt, last_at: lastAt, ...rest } = detail ?? {};
  if (count !== undefined || firstAt !== undefined) parts.push(describeCount(count, firstAt, lastAt, timeZone));
  else if (lastAt !== undefined) rest.last_at = lastAt;
  const request = requestOf({ method, url });
  if (request !== null) parts.push(`Solicitud: ${request}`);
  for (const [key, value] of Object.entries(rest)) {
    const part = detailParts[key]?.(value, names) ?? `${key}: ${show(value)}`;
    if (part !== '') parts.push(part);
  }
  return parts.join(' · ');
}
