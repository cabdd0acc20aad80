import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@portal/contract';
import { useCallback, useState } from 'react';
import { pageSizeKey, readStorage, writeStorage } from './storage.ts';

/** The remembered page size of a list, or `fallback` when none (or one no longer offered) is stored. */
export function storedPageSize(list: string, sizes: readonly number[] = PAGE_SIZES, fallback = DEFAULT_PAGE_SIZE) {
  const stored = Number(readStorage(pageSizeKey(list)));
  return sizes.includes(stored) ? stored : fallback;
}

/** The page size of one list, remembered in local storage (default 7). */
export function usePageSize(list: string, sizes: readonly number[] = PAGE_SIZES, fallback = DEFAULT_PAGE_SIZE) {
  const [size, setSize] = useState(() => storedPageSize(list, sizes, fallback));
  const change = useCallback(
    (next: number) => {
      writeStorage(pageSizeKey(list), String(next));
      setSize(next);
    },
    [list],
  );
  return [size, change] as const;
}
