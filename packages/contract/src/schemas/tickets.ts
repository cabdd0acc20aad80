import { z } from 'zod';
import {
  DEFAULT_HISTORY_PAGE_SIZE,
  DEFAULT_TICKET_SORT,
  ticketSortColumns,
  slaStates,
  ticketStages,
} from '../constants.ts';
import {
  filterKeysOf,
  TICKET_FIELDS,
  ticketExportFields,
  ticketFilterFields,
  type TicketFilterField,
} from '../ticket-fields.ts';
import { ZPossibleDuplicate, ZTicketReference } from './references.ts';
import { ZDataResponse, ZId, ZListQueryWith, ZListResponse, ZPage, ZPageMeta, ZText } from './common.ts';

export const TICKET_MSG = {
  created: 'Ticket creado exitosamente.',
  updated: 'Ticket actualizado exitosamente.',
  assigned: 'Ticket asignado',
  alreadyAssigned: 'El ticket ya está asignado a este usuario.',
  reassignNeedsUpdate: 'No tienes permiso para cambiar el usuario asignado.',
  notYours: 'No tienes permiso sobre este ticket.',
  assigneeInactive: 'El usuario seleccionado no existe o está inactivo.',
  notFound: 'El ticket no existe.',
  assignmentTitle: (ticketId: number) => `Ticket #${ticketId}`,
  assignmentMessage: 'Se te ha asignado un nuevo ticket',
  cannotSee: 'No tienes permiso para ver este ticket.',
  changedMeanwhile: 'El ticket cambió mientras lo asignabas. Inténtalo de nuevo.',
  dateRange: 'La fecha inicial no puede ser posterior a la final.',
} as const;

/** How many values one filter accepts. */
export const MAX_FILTER_VALUES = 50;

const ZFilterIds = z
  .array(ZId, { error: 'Debe ser una lista de identificadores.' })
  .max(MAX_FILTER_VALUES, `Máximo ${MAX_FILTER_VALUES} valores.`);

const ZFilterDate = z
  .string({ error: 'La fecha debe ser texto.' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'La fecha debe tener el formato AAAA-MM-DD.')
  .refine(
    (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    {
      message: 'La fecha no es válida.',
    },
  );

const ZFilterStages = z.array(z.enum(ticketStages, { error: 'Etapa no válida.' })).max(ticketStages.length);

const ZFilterOptionalIds = z
  .union([z.null(), z.array(ZId.nullable()).max(MAX_FILTER_VALUES, `Máximo ${MAX_FILTER_VALUES} valores.`)])
  .transform((v) => (v === null ? [null] : v));

const ZFilterSlaStates = z.array(z.enum(slaStates, { error: 'Estado de SLA no válido.' })).max(slaStates.length);

/** The filter of each kind of field (ticket-fields.ts). */
const filterSchemas = {
  'sla-states': ZFilterSlaStates.optional(),
  ids: ZFilterIds.optional(),
  'optional-ids': ZFilterOptionalIds.optional(),
  stages: ZFilterStages.optional(),
  dates: ZFilterDate.optional(),
};

type Fields = typeof TICKET_FIELDS;
type FilterShape = {
  [
    K in TicketFilterField as Fields[K]['kind'] extends 'dates' ? never : Fields[K]['column']
  ]: (typeof filterSchemas)[Fields[K]['kind']];
} & {
  [
    K in TicketFilterField as Fields[K]['kind'] extends 'dates' ? `${K}_from` | `${K}_to` : never
  ]: typeof filterSchemas.dates;
};

const filterShape = Object.fromEntries(
  ticketFilterFields.flatMap((f) => filterKeysOf(f).map((key) => [key, filterSchemas[TICKET_FIELDS[f].kind]])),
) as FilterShape;

const dateFields = ticketFilterFields.filter((f) => TICKET_FIELDS[f].kind === 'dates');

/**
 * The filters of the ticket lists, one per filterable field of TICKET_FIELDS: arrays of ids
 * (any of them matches), `user_assigned_id` (`group_id`) null or a null item for 'Sin asignar' ('Sin grupo'), dates
 * `YYYY-MM-DD` (UTC days, both ends included). An unknown key is refused.
 */
export const ZTicketFilters = z
  .strictObject(filterShape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? 'Filtro desconocido.' : 'Filtros no válidos.'),
  })
  .superRefine((filters, ctx) => {
    const range = filters as Record<string, string | undefined>;
    for (const field of dateFields) {
      const [from, to] = [range[`${field}_from`], range[`${field}_to`]];
      if (from && to && from > to)
        ctx.addIssue({ code: 'custom', message: TICKET_MSG.dateRange, path: [`${field}_to`] });
    }
  });
export type TTicketFilters = z.output<typeof ZTicketFilters>;
export type TTicketFiltersInput = z.input<typeof ZTicketFilters>;

export const ZTicketSort = z.strictObject({
  by: z.enum(ticketSortColumns, { error: 'Columna de orden no válida.' }),
  dir: z.enum(['asc', 'desc'], { error: 'La dirección debe ser asc o desc.' }).default('desc'),
});
export type TTicketSort = z.output<typeof ZTicketSort>;

/** POST body of the ticket lists: page, per_page, a search on name and description, filters and sort. */
export const ZTicketListQuery = ZListQueryWith(DEFAULT_HISTORY_PAGE_SIZE).extend({
  filters: ZTicketFilters.default({}),
  sort: ZTicketSort.default(DEFAULT_TICKET_SORT),
});
z.globalRegistry.add(ZTicketListQuery, {
  example: {
    page: 1,
    per_page: DEFAULT_HISTORY_PAGE_SIZE,
    search: 'montacargas',
    filters: {},
    sort: DEFAULT_TICKET_SORT,
  },
});
export type TTicketListQuery = z.infer<typeof ZTicketListQuery>;
export type TTicketListBody = z.input<typeof ZTicketListQuery>;

/** POST body of the assign modal's user list: page, per_page, search. */
export const ZAssignableUsersQuery = ZListQueryWith(DEFAULT_HISTORY_PAGE_SIZE);
export type TAssignableUsersQuery = z.infer<typeof ZAssignableUsersQuery>;

/** The four ticket lists. */
export const ticketLists = ['mine', 'general', 'current', 'old'] as const;
export type TicketListKind = (typeof ticketLists)[number];

/** `POST /tickets/export`: the list to export with its search, filters and sort (every page). */
export const ZTicketExportQuery = z.object({
  list: z.enum(ticketLists, { error: 'Lista no válida.' }),
  search: ZTicketListQuery.shape.search,
  filters: ZTicketFilters.default({}),
  sort: ZTicketSort.default(DEFAULT_TICKET_SORT),
});
export type TTicketExportQuery = z.input<typeof ZTicketExportQuery>;

/** The CSV header row of the export, in column order. */
export const TICKET_EXPORT_COLUMNS = ticketExportFields.map((f) => TICKET_FIELDS[f].label);

const ZName = z.object({ name: z.string() });
const ZUserRef = z.object({ id: z.number(), name: z.string() });
const ZTicketStatusRef = z.object({ name: z.string(), stage: z.enum(ticketStages) });
/** Who a user is, in the lists of people (assign modal, workload). */
const userSummaryFields = {
  id: z.number(),
  name: z.string(),
  last_name: z.string(),
  second_last_name: z.string().nullable(),
  username: z.string(),
};

/** A ticket as the lists show it (read side). */
export const ZTicket = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  area_id: z.number(),
  project_id: z.number(),
  category_id: z.number(),
  priority_type_id: z.number(),
  difficulty_id: z.number(),
  status_id: z.number(),
  created_by: z.number(),
  user_assigned_id: z.number().nullable(),
  /** The team the ticket belongs to (null: none). */
  group_id: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  priorities: ZName,
  status_tickets: ZTicketStatusRef,
  projects: ZName,
  areas: ZName,
  categories: ZName,
  difficulties: ZName,
  /** The creator. */
  users: ZUserRef,
  assigned_to: ZUserRef.nullable(),
  /** Where the ticket stands against its SLA (as last written: the alert sweep moves it on), and its due dates. */
  sla_state: z.enum(slaStates),
  first_response_due_at: z.string().nullable(),
  resolution_due_at: z.string().nullable(),
  group: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type TTicket = z.infer<typeof ZTicket>;

export const ZTicketPage = ZListResponse(ZTicket, { meta: ZPageMeta });
export type TTicketPage = z.infer<typeof ZTicketPage>;

/**
 * Create and edit form of the large ticket modal. Name and description follow `safeText`
 * (letters with accents, digits, spaces and . , ; : _ -), so a description holds punctuation
 * and a logistics reference such as EMB-004512 or ABC-123-D can be written.
 */
export const TICKET_TEXT_RULE = 'safeText' as const;
export const ZTicketWrite = z.object({
  name: ZText(TICKET_TEXT_RULE, { max: 150 }),
  description: ZText(TICKET_TEXT_RULE, { max: 2000 }),
  area_id: ZId,
  project_id: ZId,
  category_id: ZId,
  priority_type_id: ZId,
  difficulty_id: ZId,
  status_id: ZId,
  /** The ticket's group; null or left out: none. */
  group_id: ZId.nullable().optional(),
});
export type TTicketWrite = z.input<typeof ZTicketWrite>;
z.globalRegistry.add(ZTicketWrite, {
  example: {
    name: 'Falla en montacargas',
    description: 'El montacargas del almacén 2 no enciende desde esta mañana',
    area_id: 1,
    project_id: 1,
    category_id: 1,
    priority_type_id: 2,
    difficulty_id: 1,
    status_id: 1,
  },
});

/**
 * The edit form: the ticket's fields and, when closing a parent whose children are still
 * open, the confirmation that it should close anyway (otherwise a 409 lists them).
 */
export const ZTicketUpdate = ZTicketWrite.extend({ close_with_open_children: z.boolean().optional() });
export type TTicketUpdate = z.input<typeof ZTicketUpdate>;

export const ZTicketResponse = ZDataResponse(ZTicket);

/** What happened to a ticket (its timeline). */
export const ticketEventKinds = [
  'created',
  'edited',
  'status_changed',
  'assigned',
  'activity_added',
  'activity_removed',
  'activity_restored',
  'sla_assigned',
  'sla_paused',
  'sla_resumed',
  'sla_recalculated',
  'sla_breached',
  'sla_met',
  'linked',
  'unlinked',
  'merged',
  'auto_assigned',
] as const;
export type TicketEventKind = (typeof ticketEventKinds)[number];

/** The fields an 'edited' event names (`field`), with their labels. */
export const TICKET_FIELD_LABELS = {
  name: 'Nombre',
  description: 'Descripción',
  area_id: 'Área',
  project_id: 'Proyecto',
  category_id: 'Categoría',
  priority_type_id: 'Prioridad',
  difficulty_id: 'Dificultad',
  group_id: 'Grupo',
} as const;

export const ZTicketEvent = z.object({
  id: z.number(),
  kind: z.enum(ticketEventKinds),
  /** Edited field (a key of TICKET_FIELD_LABELS); for activity events, null. */
  field: z.string().nullable(),
  /**
   * Shown values at the time (names, not ids); for assignments the people's names, for activities its text;
   * for an automatic assignment `from_value` is its reason ('Asignado automáticamente (menor carga: 3 abiertos)').
   */
  from_value: z.string().nullable(),
  to_value: z.string().nullable(),
  /** Who did it; null when unknown. */
  user: ZUserRef.nullable(),
  created_at: z.string(),
});
export type TTicketEvent = z.infer<typeof ZTicketEvent>;

/** What the caller may do on the ticket's page, decided by the API. */
export const ZTicketAbilities = z.object({
  /** Edit the ticket and change its status. */
  update: z.boolean(),
  /** 'Asignar' (the ticket has no assignee). */
  assign: z.boolean(),
  /** Change the assignee. */
  reassign: z.boolean(),
  /** Activities: register (the assignee), view (a supervisor) or none. */
  activities: z.enum(['register', 'view', 'denied']),
});

/** `GET /tickets/{id}`: the ticket, its timeline (oldest first) and the caller's abilities. */
/** A ticket's SLA on its page, as it stands at the moment of the answer. */
export const ZTicketSla = z.object({
  state: z.enum(slaStates),
  policy: z.object({ id: z.number(), name: z.string() }).nullable(),
  first_response_due_at: z.string().nullable(),
  resolution_due_at: z.string().nullable(),
  first_responded_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
  /** Business minutes spent paused (pauses that ended). */
  paused_minutes: z.number(),
  paused_since: z.string().nullable(),
  /** Business minutes left until the resolution due date (negative: overdue); null once resolved or without a policy. */
  business_minutes_left: z.number().nullable(),
});
export type TTicketSla = z.infer<typeof ZTicketSla>;

export const ZTicketDetail = ZTicket.extend({
  events: z.array(ZTicketEvent),
  can: ZTicketAbilities,
  sla: ZTicketSla,
  /** The logistics references found in its name and description (the page's chips). */
  references: z.array(ZTicketReference),
  /** While it is open: open tickets created before it that share a reference (a suggestion only). */
  possible_duplicate: ZPossibleDuplicate.nullable(),
});
export type TTicketDetail = z.infer<typeof ZTicketDetail>;
export const ZTicketDetailResponse = z.object({ status: z.literal(true), data: ZTicketDetail });
export type TTicketDetailResponse = z.infer<typeof ZTicketDetailResponse>;
export type TTicketResponse = z.infer<typeof ZTicketResponse>;
/** A ticket created: and, when it shares a reference with open tickets, the duplicate suggestion. */
export const ZTicketCreateResponse = ZTicketResponse.extend({ possible_duplicate: ZPossibleDuplicate.nullable() });
export type TTicketCreateResponse = z.infer<typeof ZTicketCreateResponse>;

export const ZAssignParams = z.object({ id: ZId, userId: ZId });

export const ZAssignResponse = ZDataResponse(ZTicket);

/** A user the assign modal offers. */
export const ZAssignableUser = z.object({
  ...userSummaryFields,
  role: ZName,
  area: ZName.nullable(),
});
export type TAssignableUser = z.infer<typeof ZAssignableUser>;

export const ZAssignableUsersPage = ZListResponse(ZAssignableUser, { meta: ZPageMeta });
export type TAssignableUsersPage = z.infer<typeof ZAssignableUsersPage>;

/** An item of the profile card's last tickets. */
export const ZLastTicket = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  created_at: z.string(),
  priorities: ZName,
  difficulties: ZName,
  status_tickets: ZTicketStatusRef,
});
export const ZLastTickets = z.array(ZLastTicket);
export type TLastTicket = z.infer<typeof ZLastTicket>;

/** Workload list body (page, per_page, search on name or last name). */
/** Carga de trabajo: active users by name, or only the members of `group_id`. */
export const ZWorkloadQuery = ZListQueryWith(100).extend({ group_id: ZId.optional() });

export const ZWorkloadItem = z.object({
  ...userSummaryFields,
  user_name: z.string(),
  email: z.string(),
  role: ZName,
  area: ZName.nullable(),
  ticket_count: z.number(),
  started_count: z.number(),
  completed_count: z.number(),
  /** Assigned tickets not closed: what the per-agent cap counts. */
  open_count: z.number(),
  /** Ausente now: automatic assignment skips them. */
  absent: z.boolean(),
});
export type TWorkloadItem = z.infer<typeof ZWorkloadItem>;

export const ZWorkloadPage = z.object({ status: z.literal(true), ...ZPage(ZWorkloadItem).shape });
export type TWorkloadPage = z.infer<typeof ZWorkloadPage>;

const ZUserTicketsPaging = ZListQueryWith(50).shape;
export const ZUserTicketsQuery = z.object({
  user_id: ZId,
  page: ZUserTicketsPaging.page,
  per_page: ZUserTicketsPaging.per_page,
});

/** The details modal of the workload screen: the tickets assigned to one user. */
export const ZUserTicket = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  created_at: z.string(),
  priority: z.string(),
  difficulty: z.string(),
  status: z.string(),
  stage: z.enum(ticketStages),
  activity_count: z.number(),
});
export type TUserTicket = z.infer<typeof ZUserTicket>;

export const ZUserTicketsResponse = z.object({
  status: z.literal(true),
  activities: z.array(ZUserTicket),
  meta: ZPageMeta,
});
export type TUserTicketsResponse = z.infer<typeof ZUserTicketsResponse>;

/** The Spanish words of a ticket import (CSV in the export's format). */
export const TICKET_IMPORT_MSG = {
  busy: 'Ya hay una importación en curso. Espera a que termine.',
  noFile: 'Adjunta un archivo CSV.',
  tooLarge: 'El archivo es demasiado grande.',
  interrupted: 'El archivo no llegó completo. Inténtalo de nuevo.',
  empty: 'El archivo no tiene ninguna línea de tickets.',
  rejected: (count: number) =>
    count === 1
      ? 'Una línea no se pudo importar; no se importó ningún ticket.'
      : `${count.toLocaleString('es-MX')} líneas no se pudieron importar; no se importó ningún ticket.`,
  imported: (count: number) =>
    count === 1 ? 'Se importó 1 ticket.' : `Se importaron ${count.toLocaleString('es-MX')} tickets.`,
  failed: 'La importación falló; no se importó ningún ticket.',
  unknownColumn: (label: string) => `Columna desconocida: «${label}».`,
  repeatedColumn: (label: string) => `La columna «${label}» está repetida.`,
  missingColumn: (label: string) => `Falta la columna «${label}».`,
  cellCount: (found: number, expected: number) => `La línea tiene ${found} columnas; se esperaban ${expected}.`,
  required: (label: string) => `${label}: el valor es obligatorio.`,
  notFound: (label: string, value: string) => `${label}: no existe «${value}».`,
  ambiguous: (label: string, value: string) => `${label}: «${value}» corresponde a varios registros.`,
  badDate: (label: string, value: string) =>
    `${label}: «${value}» no es una fecha válida (AAAA-MM-DD HH:MM:SS, en UTC).`,
  beforeCreation: (label: string, created: string) => `${label}: es anterior a la fecha de creación (${created}).`,
  invalidText: (label: string, message: string) => `${label}: ${message}`,
} as const;

/** How many of an import's rejected lines are listed (all are counted). */
export const TICKET_IMPORT_MAX_LISTED_ERRORS = 1000;

/** A line of the file that cannot be imported: its number (the header is line 1) and why, in Spanish. */
export interface TTicketImportError {
  line: number;
  message: string;
}

/**
 * `POST /tickets/import`: the file is read and checked first. A file with lines that cannot be
 * imported is refused (422) and nothing is written: `errors` holds, by line number, each line's
 * reasons (the first TICKET_IMPORT_MAX_LISTED_ERRORS of them; the message counts every line). A valid file is answered 200 as it loads, one JSON object per line (NDJSON): progress
 * (`loading` with `done` of `total`, then `rebuilding` when the load was larger than the table and its
 * indexes are built again), then `done` with the count, or `failed`.
 */
export const ZTicketImportProgress = z.discriminatedUnion('phase', [
  z.object({ phase: z.literal('loading'), done: z.number().int(), total: z.number().int() }),
  z.object({ phase: z.literal('rebuilding') }),
  z.object({ phase: z.literal('done'), imported: z.number().int(), message: z.string() }),
  z.object({ phase: z.literal('failed'), message: z.string() }),
]);
export type TTicketImportProgress = z.infer<typeof ZTicketImportProgress>;
