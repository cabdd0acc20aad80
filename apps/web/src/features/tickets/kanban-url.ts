import type { TKanbanQuery, TTicketFiltersInput, TTicketSort } from '@portal/contract';
import { filtersFromUrl, filtersToUrl, listUrlParams, sortFromUrl, sortToUrl } from './ticket-list-url.ts';

/**
 * The Kanban board's state in the URL, in the ticket lists' own encoding (ticket-list-url.ts:
 * `?q=…&sort=priority:asc&priority=4&area=1&assignee=none,12&group=2`) plus `mine=1` for 'Mis
 * tickets'. A saved view ('Guardar vista') captures it as `kanbanViewFromUrl(params)` and
 * opens it again through `kanbanViewToUrl(view)`.
 */
export interface KanbanView {
  search: string;
  filters: TTicketFiltersInput;
  sort: TTicketSort;
  mine: boolean;
}

/** Every URL parameter the board owns (the lists' ones but the page, and `mine`). */
export const kanbanUrlParams = [...listUrlParams.filter((p) => p !== 'page'), 'mine'];

export function kanbanViewFromUrl(params: URLSearchParams): KanbanView {
  return {
    search: (params.get('q') ?? '').trim(),
    filters: filtersFromUrl(params),
    sort: sortFromUrl(params.get('sort')),
    mine: params.get('mine') === '1',
  };
}

/** The URL parameters of a view (null removes one). */
export function kanbanViewToUrl(view: Partial<KanbanView>): Record<string, string | null> {
  return {
    ...(view.search !== undefined ? { q: view.search.trim() || null } : {}),
    ...(view.filters !== undefined ? filtersToUrl(view.filters) : {}),
    ...(view.sort !== undefined ? { sort: sortToUrl(view.sort) } : {}),
    ...(view.mine !== undefined ? { mine: view.mine ? '1' : null } : {}),
  };
}

/** The board's request body of a view. */
export const kanbanQueryOf = (view: KanbanView): TKanbanQuery => ({
  search: view.search,
  filters: view.filters,
  sort: view.sort,
  mine: view.mine,
});
