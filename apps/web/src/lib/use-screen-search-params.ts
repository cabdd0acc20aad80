import { useCallback } from 'react';
import { useLocation, useSearchParams, type SetURLSearchParams } from 'react-router';

/** `current` with `changes` written: a null or empty value removes its parameter. */
export function withParams(current: URLSearchParams, changes: Record<string, string | null>): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === '') next.delete(key);
    else next.set(key, value);
  }
  return next;
}

/**
 * `useSearchParams` for a screen that keeps its own state (search, page, filters) in its
 * address. The router changes the browser's address at once but renders the change in a
 * transition, so what this screen has rendered may lag behind the address:
 *
 * - a functional update starts from the address as it is now, not from the rendered copy:
 *   two writes close together (a typed search settling, then a sort chosen) would otherwise
 *   have the second undo the first;
 * - a followed link renders the next screen once its code has loaded, and this screen may still
 *   write meanwhile; such a write is resolved against this screen's path and would replace the
 *   followed link's address with this screen again: once the browser's address has left this
 *   screen's path, writes are dropped.
 */
export function useScreenSearchParams(): [URLSearchParams, SetURLSearchParams] {
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const setScreenParams = useCallback<SetURLSearchParams>(
    (next, options) => {
      if (window.location.pathname !== pathname) return;
      setParams(typeof next === 'function' ? () => next(new URLSearchParams(window.location.search)) : next, options);
    },
    [setParams, pathname],
  );
  return [params, setScreenParams];
}
