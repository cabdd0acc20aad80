import { useCallback, useState } from 'react';

/**
 * The page of a searchable list: back to 1 whenever the search changes
 * (SPEC §9), without an effect and its extra render.
 */
export function useSearchPage(search: string) {
  const [state, setState] = useState({ search, page: 1 });
  const page = state.search === search ? state.page : 1;
  const setPage = useCallback((next: number) => setState({ search, page: next }), [search]);
  return [page, setPage] as const;
}
