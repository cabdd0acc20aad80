import { useDebouncedValue } from '@mantine/hooks';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@portal/contract';
import { useCallback, useState } from 'react';
import type { ListParams } from './resource-api.ts';
import { usePageSize } from './use-page-size.ts';

/** A search box's text and the trimmed value a query uses once typing pauses for 300 ms. */
export function useSearch() {
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  return [search, setSearch, debouncedSearch] as const;
}

/**
 * The page of a searchable list: back to 1 whenever the search changes,
 * without an effect and its extra render.
 */
export function useSearchPage(search: string) {
  const [state, setState] = useState({ search, page: 1 });
  const page = state.search === search ? state.page : 1;
  const setPage = useCallback((next: number) => setState({ search, page: next }), [search]);
  return [page, setPage] as const;
}

/**
 * The search, page and page size of one paged list: the page size is
 * remembered under `list`, and a new search or page size starts at page 1.
 */
export function useListParams(
  list: string,
  pageSizes: readonly number[] = PAGE_SIZES,
  defaultSize = DEFAULT_PAGE_SIZE,
) {
  const [search, setSearch, debouncedSearch] = useSearch();
  const [page, setPage] = useSearchPage(debouncedSearch);
  const [perPage, storePerPage] = usePageSize(list, pageSizes, defaultSize);
  const setPerPage = (size: number) => {
    storePerPage(size);
    setPage(1);
  };
  const params: ListParams = { page, per_page: perPage, search: debouncedSearch };
  return { search, setSearch, debouncedSearch, page, setPage, perPage, setPerPage, pageSizes, params };
}

export type ListState = ReturnType<typeof useListParams>;

/** Nothing to show yet: the first load, or a new page or search whose answer has not come (the old one is kept meanwhile). */
export const isLoadingPage = (query: { isPending: boolean; isFetching: boolean; isPlaceholderData: boolean }) =>
  query.isPending || (query.isFetching && query.isPlaceholderData);
