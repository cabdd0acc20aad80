import { SLA_STATE_LABELS } from './constants.ts';
import type { TTicket } from './schemas/tickets.ts';

/**
 * How a field's values are compared and filtered:
 * - `ids`: a catalogue or user id, filtered by a list of ids (any of them matches);
 * - `optional-ids`: the same, where null (a null item) is "none" ('Sin asignar');
 * - `stages`: the stage of the ticket's status, filtered by a list of stages;
 * - `dates`: an instant, filtered by a range of UTC days (`<key>_from`, `<key>_to`);
 * - `sla-states`: the SLA state, filtered by a list of states (the alert sweep moves it on, and
 *   its index token with it);
 * - `text`, `id`: not filtered (the search reads the text, and a number the id).
 */
export type TicketFieldKind = 'id' | 'text' | 'ids' | 'optional-ids' | 'stages' | 'dates' | 'sla-states';

export interface TicketField {
  /** The column of the `tickets` row. */
  column: string;
  kind: TicketFieldKind;
  /** Its name in Spanish: the CSV header. */
  label: string;
  isFilterable?: boolean;
  /** The column a list sorted by this field orders by (then the id); absent when not sortable. */
  sortColumn?: string;
  /** Its words are searched (the text index's body). */
  isSearchable?: boolean;
  /**
   * Its attribute token, `<token><value>` (tokenValue), e.g. `status5`, `assignee0` for none: in
   * the text index, and on PostgreSQL in the attribute bitmaps (the SLA state's only there).
   */
  token?: string;
  /** Its CSV cell (absent: not exported). */
  cell?: (ticket: TTicket) => string | number;
  /**
   * For an id: the table of the rows it refers to, whose name is its CSV cell (a user's is
   * `name last_name`); an import finds the row by that name.
   */
  references?:
    'priority_types' | 'ticket_statuses' | 'projects' | 'areas' | 'categories' | 'difficulties' | 'groups' | 'users';
  /** An import may leave its CSV cell empty or its column out (ids: none; dates: the creation date). */
  isOptionalOnImport?: boolean;
  /** Worked out by the portal from the ticket's other fields: exported, but an import skips its column. */
  isDerived?: boolean;
}

/**
 * Every field of a ticket the lists filter, sort, search or export, declared once: the
 * contract's filters and sort columns, the CSV columns, the API's SQL conditions and
 * text-index tokens, and the tests' recount are derived from it. In CSV column order.
 */
export const TICKET_FIELDS = {
  // An import gives its tickets new ids (in the order of their creation dates); the file's only break ties.
  id: {
    column: 'id',
    kind: 'id',
    label: 'ID',
    sortColumn: 'id',
    token: 'id',
    isOptionalOnImport: true,
    cell: (t) => t.id,
  },
  name: { column: 'name', kind: 'text', label: 'Ticket', sortColumn: 'name', isSearchable: true, cell: (t) => t.name },
  description: {
    column: 'description',
    kind: 'text',
    label: 'Descripción',
    isSearchable: true,
    cell: (t) => t.description,
  },
  priority: {
    column: 'priority_type_id',
    kind: 'ids',
    label: 'Prioridad',
    isFilterable: true,
    sortColumn: 'priority_type_id',
    token: 'priority',
    references: 'priority_types',
    cell: (t) => t.priorities.name,
  },
  status: {
    column: 'status_id',
    kind: 'ids',
    label: 'Estado',
    isFilterable: true,
    sortColumn: 'status_id',
    token: 'status',
    references: 'ticket_statuses',
    cell: (t) => t.status_tickets.name,
  },
  project: {
    column: 'project_id',
    kind: 'ids',
    label: 'Proyecto',
    isFilterable: true,
    sortColumn: 'project_id',
    token: 'project',
    references: 'projects',
    cell: (t) => t.projects.name,
  },
  area: {
    column: 'area_id',
    kind: 'ids',
    label: 'Área',
    isFilterable: true,
    token: 'area',
    references: 'areas',
    cell: (t) => t.areas.name,
  },
  category: {
    column: 'category_id',
    kind: 'ids',
    label: 'Categoría',
    isFilterable: true,
    token: 'category',
    references: 'categories',
    cell: (t) => t.categories.name,
  },
  difficulty: {
    column: 'difficulty_id',
    kind: 'ids',
    label: 'Dificultad',
    isFilterable: true,
    token: 'difficulty',
    references: 'difficulties',
    cell: (t) => t.difficulties.name,
  },
  creator: {
    column: 'created_by',
    kind: 'ids',
    label: 'Creado por',
    isFilterable: true,
    token: 'creator',
    references: 'users',
    cell: (t) => t.users.name,
  },
  assignee: {
    column: 'user_assigned_id',
    kind: 'optional-ids',
    label: 'Asignado a',
    isFilterable: true,
    token: 'assignee',
    references: 'users',
    isOptionalOnImport: true,
    cell: (t) => t.assigned_to?.name ?? '',
  },
  // Sorted by `group_sort` (the group, 0 for none): nulls would sort differently per database.
  group: {
    column: 'group_id',
    kind: 'optional-ids',
    label: 'Grupo',
    isFilterable: true,
    sortColumn: 'group_sort',
    token: 'group',
    references: 'groups',
    isOptionalOnImport: true,
    cell: (t) => t.group?.name ?? '',
  },
  // Ids grow with creation time: the id order is the creation order.
  created: {
    column: 'created_at',
    kind: 'dates',
    label: 'Creado',
    isFilterable: true,
    sortColumn: 'id',
    cell: (t) => t.created_at,
  },
  updated: {
    column: 'updated_at',
    kind: 'dates',
    label: 'Actualizado',
    sortColumn: 'updated_at',
    isOptionalOnImport: true,
    cell: (t) => t.updated_at,
  },
  stage: { column: 'stage', kind: 'stages', label: 'Etapa', isFilterable: true, token: 'stage' },
  slaState: {
    isDerived: true,
    column: 'sla_state',
    kind: 'sla-states',
    label: 'SLA',
    isFilterable: true,
    token: 'sla',
    cell: (t) => SLA_STATE_LABELS[t.sla_state],
  },
  // Sorted by `<column>_sort` (the due date, year 9999 for none): nulls would sort differently
  // per database; a ticket without an SLA comes last when the soonest due come first.
  first_response_due_at: {
    isDerived: true,
    column: 'first_response_due_at',
    kind: 'dates',
    label: 'Primera respuesta antes de',
    sortColumn: 'first_response_due_sort',
    cell: (t) => t.first_response_due_at ?? '',
  },
  resolution_due_at: {
    isDerived: true,
    column: 'resolution_due_at',
    kind: 'dates',
    label: 'Resolver antes de',
    sortColumn: 'resolution_due_sort',
    cell: (t) => t.resolution_due_at ?? '',
  },
} as const satisfies Record<string, TicketField>;

type Fields = typeof TICKET_FIELDS;
export type TicketFieldKey = keyof Fields;
const fieldKeys = Object.keys(TICKET_FIELDS) as TicketFieldKey[];

/** The fields a list sorts by (their keys are the sort's `by`). */
export type TicketSortColumn = {
  [K in TicketFieldKey]: Fields[K] extends { sortColumn: string } ? K : never;
}[TicketFieldKey];
export const ticketSortColumns = fieldKeys.filter((k) => 'sortColumn' in TICKET_FIELDS[k]) as TicketSortColumn[];

/** The fields a list filters by. */
export type TicketFilterField = {
  [K in TicketFieldKey]: Fields[K] extends { isFilterable: true } ? K : never;
}[TicketFieldKey];
export const ticketFilterFields = fieldKeys.filter((k) => 'isFilterable' in TICKET_FIELDS[k]) as TicketFilterField[];

/** The CSV columns, in order. */
export const ticketExportFields = fieldKeys.filter((k) => 'cell' in TICKET_FIELDS[k]);

/** The fields with a token in the text index's attributes. */
export const ticketTokenFields = fieldKeys.filter((k) => 'token' in TICKET_FIELDS[k]);

/**
 * A value as its index token writes it after the field's token: letters and digits only, as the
 * text index splits words at anything else (`at_risk` → `slaatrisk`); none (null) is 0.
 */
export const tokenValue = (value: number | string | null) => String(value ?? 0).replaceAll('_', '');

/** The key of a filter in a list's `filters`: the column, or `<field>_from` / `<field>_to` for a date range. */
export const filterKeysOf = (field: TicketFilterField): string[] => {
  const f: TicketField = TICKET_FIELDS[field];
  return f.kind === 'dates' ? [`${field}_from`, `${field}_to`] : [f.column];
};
