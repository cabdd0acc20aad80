import type { QueryClient } from '@tanstack/react-query';
import { optionsQuery } from '@/lib/resource-api.ts';
import { storedPageSize } from '@/lib/use-page-size.ts';
import { peopleOptionsQuery, ticketListQuery, type TicketListKind, type TicketListParams } from './api/tickets-api.ts';
import {
  catalogFilters,
  currentListPageSizes,
  filtersFromUrl,
  pageFromUrl,
  pageSizeListName,
  sortFromUrl,
} from './ticket-list-url.ts';

/**
 * Asks, as soon as the address is known, for what a ticket list screen shows
 * first: the page of tickets its URL names (the same request, hence the same
 * cache entry, as `TicketTable`'s) and the filters' options. The screen then
 * finds them under way or answered instead of asking only once the permission
 * check has answered and it has rendered. The API still checks every request.
 */
export function prefetchTicketList(queryClient: QueryClient, kind: TicketListKind, search: URLSearchParams): void {
  const request: TicketListParams = {
    page: pageFromUrl(search),
    per_page: storedPageSize(pageSizeListName(kind), currentListPageSizes.sizes, currentListPageSizes.defaultSize),
    search: (search.get('q') ?? '').trim(),
    filters: filtersFromUrl(search),
    sort: sortFromUrl(search.get('sort')),
  };
  void queryClient.prefetchQuery(ticketListQuery(kind, request));
  for (const { source } of catalogFilters) void queryClient.prefetchQuery(optionsQuery(source));
  void queryClient.prefetchQuery(peopleOptionsQuery());
}
