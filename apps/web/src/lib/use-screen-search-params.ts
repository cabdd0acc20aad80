import { useCallback } from 'react';
import { useLocation, useSearchParams, type SetURLSearchParams } from 'react-router';

/**
 * `useSearchParams` for a screen that keeps its own state (search, page, filters) in its
 * address. A followed link moves the browser's address at once but renders the next screen
 * in a transition, so this screen stays on display until that screen's code has loaded, and
 * may still write meanwhile (a typed search settling after its pause). Such a write is resolved
 * against this screen's path and would replace the followed link's address with this screen
 * again: once the browser's address has left this screen's path, writes are dropped.
 */
export function useScreenSearchParams(): [URLSearchParams, SetURLSearchParams] {
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const setScreenParams = useCallback<SetURLSearchParams>(
    (next, options) => {
      if (window.location.pathname !== pathname) return;
      setParams(next, options);
    },
    [setParams, pathname],
  );
  return [params, setScreenParams];
}
