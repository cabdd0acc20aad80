import { startTransition, useEffect, useState } from 'react';

/**
 * The first `count` items at the first render, all of them from the next one
 * (a transition): a list's first screenful is committed and painted before
 * the rest is built, in two shorter tasks instead of one long one.
 */
export function useRevealed<T>(items: T[], count: number): T[] {
  const [isAll, setAll] = useState(false);
  const hasMore = !isAll && items.length > count;
  useEffect(() => {
    if (hasMore) startTransition(() => setAll(true));
  }, [hasMore]);
  return hasMore ? items.slice(0, count) : items;
}
