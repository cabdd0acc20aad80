import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client.ts';
import { subscribeSession, getSession } from './session.ts';

/** The signed-in part of the app shares one cache; it is emptied when the session ends. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refused or lost session is an answer; retrying it only delays the redirect.
      retry: (count, error) => count < 1 && !(isApiError(error) && error.status < 500),
      refetchOnWindowFocus: false,
      staleTime: 15_000,
    },
  },
});

let lastUserId = getSession()?.user.id ?? null;
subscribeSession(() => {
  const userId = getSession()?.user.id ?? null;
  if (userId !== lastUserId) queryClient.clear();
  lastUserId = userId;
});

/**
 * `refetchOnMount` of the queries always asked afresh (staleTime 0): an answer of
 * moments ago, such as an early request made at start (`preloadScreenOf`,
 * router.tsx), is not asked for again when its screen mounts.
 */
export const unlessJustAnswered = (query: { state: { dataUpdatedAt: number } }) =>
  Date.now() - query.state.dataUpdatedAt > 3000;
