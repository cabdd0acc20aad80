import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_TICKET_SORT,
  PAGE_SIZES,
  slaStates,
  ticketSortColumns,
  ticketStages,
  type SlaState,
  type TicketSortColumn,
  type TicketStage,
  type TTicketFiltersInput,
  type TTicketSort,
} from '@portal/contract';
import type { OptionSource } from '@/lib/resource-api.ts';

/**
 * How a ticket list's search, page, filters and sort live in the URL query, so a
 * filtered view can be bookmarked and shared:
 * `?q=andén&page=2&sort=updated:desc&priority=4&project=3&assignee=none,12&group=none,2&from=2025-01-01&to=2025-01-31`.
 */
export const stageLabels: Record<TicketStage, string> = { open: 'Abierto', started: 'En progreso', closed: 'Cerrado' };

export type IdFilterKey =
  'status_id' | 'priority_type_id' | 'project_id' | 'area_id' | 'category_id' | 'difficulty_id' | 'created_by';

/** Filter key → URL parameter. */
export const idFilterParams: Record<IdFilterKey, string> = {
  status_id: 'status',
  priority_type_id: 'priority',
  project_id: 'project',
  area_id: 'area',
  category_id: 'category',
  difficulty_id: 'difficulty',
  created_by: 'creator',
};

export type CatalogFilterKey = Exclude<IdFilterKey, 'created_by'>;

/** The filters over a catalogue: their label and where their options come from. */
export const catalogFilters: { key: CatalogFilterKey; label: string; source: OptionSource }[] = [
  { key: 'status_id', label: 'Estado', source: 'ticket-statuses' },
  { key: 'priority_type_id', label: 'Prioridad', source: 'priority-types' },
  { key: 'project_id', label: 'Proyecto', source: 'projects' },
  { key: 'area_id', label: 'Área', source: 'areas' },
  { key: 'category_id', label: 'Categoría', source: 'categories' },
  { key: 'difficulty_id', label: 'Dificultad', source: 'difficulties' },
];

/** The filters whose values may be none (`null`, 'none' in the URL): filter key → URL parameter. */
export const optionalIdFilterParams = { user_assigned_id: 'assignee', group_id: 'group' } as const;
export type OptionalIdFilterKey = keyof typeof optionalIdFilterParams;

/** An optional-ids filter's values as a list (`null` alone stands for [null]). */
export const optionalIdsOf = (value: TTicketFiltersInput[OptionalIdFilterKey]): (number | string | null)[] =>
  Array.isArray(value) ? value : value === null ? [null] : [];

/** Every URL parameter a ticket list owns (a tab change clears them). */
export const listUrlParams = [
  'q',
  'page',
  'sort',
  'stage',
  'sla',
  'from',
  'to',
  ...Object.values(optionalIdFilterParams),
  ...Object.values(idFilterParams),
];

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ids = (text: string | null) =>
  (text ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);

/** The page named in the URL (1 when missing or not a page number). */
export const pageFromUrl = (params: URLSearchParams) => Math.max(1, Math.floor(Number(params.get('page')) || 1));

/** Under this name a ticket list remembers its page size. */
export const pageSizeListName = (kind: string) => `tickets-${kind}`;

/** The page sizes of Mis Tickets and Tickets Generales: their screen's and their early request's (prefetch.ts). */
export const currentListPageSizes = { sizes: PAGE_SIZES, defaultSize: DEFAULT_PAGE_SIZE } as const;

export function filtersFromUrl(params: URLSearchParams): TTicketFiltersInput {
  const filters: TTicketFiltersInput = {};
  const stages = (params.get('stage') ?? '')
    .split(',')
    .filter((s): s is TicketStage => (ticketStages as readonly string[]).includes(s));
  if (stages.length) filters.stage = stages;
  const slaStatesWanted = (params.get('sla') ?? '')
    .split(',')
    .filter((s): s is SlaState => (slaStates as readonly string[]).includes(s));
  if (slaStatesWanted.length) filters.sla_state = slaStatesWanted;
  for (const [key, param] of Object.entries(idFilterParams) as [IdFilterKey, string][]) {
    const values = ids(params.get(param));
    if (values.length) filters[key] = values;
  }
  for (const [key, param] of Object.entries(optionalIdFilterParams) as [OptionalIdFilterKey, string][]) {
    const values = (params.get(param) ?? '')
      .split(',')
      .filter(Boolean)
      .flatMap((v) => (v === 'none' ? [null] : ids(v)));
    if (values.length) filters[key] = values;
  }
  const from = params.get('from');
  const to = params.get('to');
  if (from && DATE.test(from)) filters.created_from = from;
  if (to && DATE.test(to)) filters.created_to = to;
  return filters;
}

/** The URL parameters of the filters (null removes a parameter). */
export function filtersToUrl(filters: TTicketFiltersInput): Record<string, string | null> {
  const out: Record<string, string | null> = {
    stage: filters.stage?.length ? filters.stage.join(',') : null,
    sla: filters.sla_state?.length ? filters.sla_state.join(',') : null,
    from: filters.created_from ?? null,
    to: filters.created_to ?? null,
  };
  for (const [key, param] of Object.entries(idFilterParams) as [IdFilterKey, string][]) {
    const values = filters[key];
    out[param] = values?.length ? values.join(',') : null;
  }
  for (const [key, param] of Object.entries(optionalIdFilterParams) as [OptionalIdFilterKey, string][]) {
    out[param] =
      optionalIdsOf(filters[key])
        .map((v) => (v === null ? 'none' : String(v)))
        .join(',') || null;
  }
  return out;
}

export function sortFromUrl(text: string | null): TTicketSort {
  const [by, dir] = (text ?? '').split(':');
  if (!(ticketSortColumns as readonly string[]).includes(by ?? '')) return DEFAULT_TICKET_SORT;
  return { by: by as TicketSortColumn, dir: dir === 'asc' ? 'asc' : 'desc' };
}

export const sortToUrl = (sort: TTicketSort) =>
  sort.by === DEFAULT_TICKET_SORT.by && sort.dir === DEFAULT_TICKET_SORT.dir ? null : `${sort.by}:${sort.dir}`;

/** Sorts that start ascending: text, and the due dates (the soonest first). */
const ascendingFirst: readonly TicketSortColumn[] = ['name', 'first_response_due_at', 'resolution_due_at'];

/** A click on a sortable header: the same column flips direction, another starts descending (text and due dates ascending). */
export function nextSort(current: TTicketSort, by: TicketSortColumn): TTicketSort {
  if (current.by === by) return { by, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { by, dir: ascendingFirst.includes(by) ? 'asc' : 'desc' };
}

export const activeFilterCount = (filters: TTicketFiltersInput) =>
  Object.values(filters).filter((v) => v !== undefined && (!Array.isArray(v) || v.length > 0)).length;
