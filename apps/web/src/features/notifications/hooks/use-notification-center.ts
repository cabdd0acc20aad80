import { NOTIFICATION_TEXT, type TNotification } from '@portal/contract';
import { notifications as toasts } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import {
  fetchActiveNotifications,
  markAllNotificationsRead,
  markNotificationsRead,
  markNotificationsViewed,
} from '../api/notifications-api.ts';
import {
  FETCH_THROTTLE_MS,
  NEW_TOAST_MS,
  POLL_MS,
  applyCleared,
  applyPushed,
  applyRemoved,
  applyServerList,
  applyViewed,
  describeNotification,
  loadState,
  newestKnownId,
  saveState,
  unseenCount,
  type NotificationState,
  type Transition,
} from '../notifications-state.ts';
import { createTicketRefresher } from '../ticket-refresh.ts';
import { useNotificationStream, type StreamStatus } from './use-notification-stream.ts';

/**
 * Live lists: a ticket change pushed by the stream refetches every open ticket
 * query (key prefix 'tickets': lists, pages) in place, keeping their page, filters and any
 * open form; changes arriving during a refetch are folded into one more (ticket-refresh.ts).
 */
function useTicketRefresh() {
  const queryClient = useQueryClient();
  const [refresher] = useState(() =>
    createTicketRefresher(() => queryClient.invalidateQueries({ queryKey: ['tickets'] })),
  );
  return refresher.changed;
}

/** More new ones than this at once are announced in one toast. */
const MAX_SEPARATE_TOASTS = 3;

function announce(fresh: TNotification[]) {
  if (fresh.length > MAX_SEPARATE_TOASTS) {
    toasts.show({
      title: 'Notificaciones nuevas',
      message: `Tienes ${fresh.length} notificaciones nuevas`,
      autoClose: NEW_TOAST_MS,
      color: 'brand',
    });
    return;
  }
  for (const n of fresh) {
    toasts.show({ title: n.title, message: describeNotification(n), autoClose: NEW_TOAST_MS, color: 'brand' });
  }
}

export interface NotificationCenter {
  items: TNotification[];
  unseen: number;
  streamStatus: StreamStatus;
  /** Fetches the unread list unless one was fetched in the last 30 s. */
  refresh(): Promise<void>;
  markViewed(ids: number[]): Promise<void>;
  remove(id: number): Promise<void>;
  removeAll(): Promise<boolean>;
}

/**
 * The tray of the signed-in user: unread notifications from the server (at
 * start, every 60 s, when the tab becomes visible, on bell click — never more
 * than once per 30 s) and live from the stream, kept in browser storage.
 */
export function useNotificationCenter(userId: number): NotificationCenter {
  const [state, setState] = useState<NotificationState>(() => loadState(userId));
  const stateRef = useRef(state);
  const lastFetchAt = useRef(0);
  const isFetching = useRef(false);
  // The stream opens once the first list has answered: it then asks only for what is newer
  // (`since`), instead of replaying every unread notification one by one, each as a toast.
  const [isListAnswered, setListAnswered] = useState(false);

  const commit = useCallback((next: NotificationState) => {
    stateRef.current = next;
    setState(next);
    saveState(next);
  }, []);

  const take = useCallback(
    ({ state: next, fresh }: Transition) => {
      if (next !== stateRef.current) commit(next);
      if (fresh.length > 0) announce(fresh);
    },
    [commit],
  );

  useEffect(() => {
    if (stateRef.current.userId !== userId) commit(loadState(userId));
  }, [userId, commit]);

  const load = useCallback(
    async (isForced: boolean) => {
      const now = Date.now();
      if (isFetching.current || (!isForced && now - lastFetchAt.current < FETCH_THROTTLE_MS)) return;
      isFetching.current = true;
      lastFetchAt.current = now;
      const keepNewerThan = newestKnownId(stateRef.current);
      try {
        const response = await fetchActiveNotifications();
        take(applyServerList(stateRef.current, response.data, keepNewerThan));
      } catch (error) {
        // Load errors are only logged; the next poll tries again.
        console.warn('No se pudieron cargar las notificaciones', error);
      } finally {
        isFetching.current = false;
        setListAnswered(true);
      }
    },
    [take],
  );

  useEffect(() => {
    // The screen's own requests and first render go first: the tray loads once the browser
    // is idle (at most 1 s later), so it never delays what the user opened.
    const start = () => void load(true);
    const hasIdle = typeof window.requestIdleCallback === 'function';
    const first = hasIdle ? window.requestIdleCallback(start, { timeout: 1000 }) : window.setTimeout(start, 0);
    const poll = window.setInterval(() => void load(false), POLL_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void load(false);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      if (hasIdle) window.cancelIdleCallback(first);
      else window.clearTimeout(first);
      window.clearInterval(poll);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [load, userId]);

  const onTicketChanged = useTicketRefresh();
  const streamStatus = useNotificationStream({
    isEnabled: isListAnswered,
    getSince: () => newestKnownId(stateRef.current),
    onNotification: (notification) => take(applyPushed(stateRef.current, notification)),
    onTicketChanged,
  });

  const markViewed = useCallback(
    async (ids: number[]) => {
      if (ids.length === 0) return;
      try {
        await markNotificationsViewed(ids);
        commit(applyViewed(stateRef.current, ids));
      } catch (error) {
        console.warn('No se pudieron marcar como vistas', error);
      }
    },
    [commit],
  );

  const remove = useCallback(
    async (id: number) => {
      commit(applyRemoved(stateRef.current, [id]));
      try {
        await markNotificationsRead([id]);
      } catch (error) {
        // Still unread on the server: the next fetch brings it back.
        console.warn('No se pudo eliminar la notificación', error);
        lastFetchAt.current = 0;
      }
    },
    [commit],
  );

  const removeAll = useCallback(async () => {
    try {
      await markAllNotificationsRead();
      commit(applyCleared(stateRef.current));
      notifySuccess(NOTIFICATION_TEXT.deleted, 'Todas las notificaciones se marcaron como leídas.');
      return true;
    } catch {
      notifyError('Error', NOTIFICATION_TEXT.deleteFailed);
      return false;
    }
  }, [commit]);

  return {
    items: state.items,
    unseen: unseenCount(state),
    streamStatus,
    refresh: useCallback(() => load(false), [load]),
    markViewed,
    remove,
    removeAll,
  };
}
