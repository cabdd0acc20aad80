import { useDebouncedValue } from '@mantine/hooks';
import type { TSavedViewQueryInput, TTicketSort } from '@portal/contract';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { usePageSize } from '@/lib/use-page-size.ts';
import { useScreenSearchParams, withParams } from '@/lib/use-screen-search-params.ts';
import type { TicketListParams } from '../api/tickets-api.ts';
import type { TicketFiltersChange } from '../components/ticket-filters.tsx';
import { viewIdOf } from '@/lib/saved-views-api.ts';
import {
  filtersFromUrl,
  filtersToUrl,
  listUrlParams,
  pageFromUrl,
  sortFromUrl,
  sortToUrl,
} from '../ticket-list-url.ts';

/**
 * A ticket list's state kept in the URL (search, page, filters, sort), plus the
 * remembered page size: what `ListToolbar` and `ListPagination` expect, and the
 * list request. A new search, filter, sort or page size starts at page 1.
 */
export function useTicketListUrl(list: string, pageSizes: readonly number[], defaultSize: number) {
  const [params, setParams] = useScreenSearchParams();
  const urlSearch = params.get('q') ?? '';
  const [search, setSearch] = useState(urlSearch);
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [perPage, storePerPage] = usePageSize(list, pageSizes, defaultSize);

  /** Writes parameters; given a function, those it computes from the address as it is now. */
  const update = useCallback(
    (changes: Record<string, string | null> | ((current: URLSearchParams) => Record<string, string | null>)) =>
      setParams((current) => withParams(current, typeof changes === 'function' ? changes(current) : changes), {
        replace: true,
      }),
    [setParams],
  );

  // The typed search reaches the URL once typing pauses; the page goes back to 1. Only a new
  // typed value is written: a search the URL gained otherwise (an opened view) is not undone.
  const typed = useRef(debouncedSearch);
  useEffect(() => {
    if (debouncedSearch === typed.current) return;
    typed.current = debouncedSearch;
    if (debouncedSearch !== urlSearch.trim()) update({ q: debouncedSearch || null, page: null });
  }, [debouncedSearch, urlSearch, update]);

  const paramsKey = params.toString();
  const filters = useMemo(() => filtersFromUrl(new URLSearchParams(paramsKey)), [paramsKey]);
  const sort = useMemo(() => sortFromUrl(new URLSearchParams(paramsKey).get('sort')), [paramsKey]);
  const page = pageFromUrl(params);

  const setPage = useCallback((next: number) => update({ page: next > 1 ? String(next) : null }), [update]);
  const setPerPage = (size: number) => {
    storePerPage(size);
    update({ page: null });
  };
  const setFilters = (change: TicketFiltersChange) =>
    update((current) => ({ ...filtersToUrl(change(filtersFromUrl(current))), page: null }));
  const setSort = (next: TTicketSort) => update({ sort: sortToUrl(next), page: null });

  /** A saved view's query, in one URL change (search, filters, sort; page 1) and the page size. */
  const apply = (query: TSavedViewQueryInput) => {
    const text = (query.search ?? '').trim();
    setSearch(text);
    typed.current = text;
    const size = Number(query.per_page);
    if (pageSizes.includes(size)) storePerPage(size);
    update({
      q: text || null,
      ...filtersToUrl(query.filters ?? {}),
      sort: query.sort ? sortToUrl({ by: query.sort.by, dir: query.sort.dir ?? 'desc' }) : null,
      page: null,
    });
  };
  /** The saved view the URL opens (`?view=12`), and whether the URL also holds a list state of its own. */
  const viewId = viewIdOf(params);
  const hasListState = listUrlParams.some((key) => params.has(key));
  const setViewId = (id: number | null) => update({ view: id === null ? null : String(id) });

  const request: TicketListParams = { page, per_page: perPage, search: urlSearch.trim(), filters, sort };
  return {
    search,
    setSearch,
    debouncedSearch: urlSearch.trim(),
    page,
    setPage,
    perPage,
    setPerPage,
    pageSizes,
    params: request,
    filters,
    setFilters,
    sort,
    setSort,
    apply,
    viewId,
    hasListState,
    setViewId,
  };
}
export type TicketListState = ReturnType<typeof useTicketListUrl>;
