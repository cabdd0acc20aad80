import { NOTIFICATION_TEXT, type TNotification } from '@portal/contract';
import { readStorage, storageKeys, writeStorage } from '@/lib/storage.ts';

/** The notification centre's timings and limits. */
export const POLL_MS = 60_000;
export const FETCH_THROTTLE_MS = 30_000;
export const VIEW_AFTER_MS = 3_000;
export const NEW_TOAST_MS = 1_000;
export const SWIPE_REMOVE_PX = 100;

/** Notifications are kept locally too, under this key. */
export const NOTIFICATIONS_STORAGE_KEY = 'notifications';
/** How many processed ids are remembered: far more than one unread list (100) holds. */
const MAX_PROCESSED = 500;

export interface NotificationState {
  userId: number;
  /** The unread notifications of the tray, newest first. */
  items: TNotification[];
  /** Ids already taken in (duplicates by id are ignored, and announced once). */
  processed: number[];
}

export interface Transition {
  state: NotificationState;
  /** Notifications seen for the first time: the ones to announce. */
  fresh: TNotification[];
}

/** The badge shows 99+ above 99. */
export const badgeLabel = (count: number) => (count > 99 ? '99+' : String(count));

/** The browser tab's title: 'Tickets', or 'Tickets (n)' while there are unseen notifications. */
export const tabTitle = (count: number) => (count > 0 ? `Tickets (${badgeLabel(count)})` : 'Tickets');

export const unseenCount = (state: NotificationState) => state.items.filter((n) => n.viewed === 0).length;

/** The newest id this client knows of; the live stream sends what is newer. */
export const newestKnownId = (state: NotificationState) =>
  Math.max(0, ...state.items.map((n) => n.id), ...state.processed);

const byNewest = (a: TNotification, b: TNotification) => b.id - a.id;

function remember(processed: number[], ids: number[]): number[] {
  if (ids.length === 0) return processed;
  const known = new Set(processed);
  const next = [...processed, ...ids.filter((id) => !known.has(id))];
  return next.length > MAX_PROCESSED ? next.slice(next.length - MAX_PROCESSED) : next;
}

/**
 * The server's unread list replaces the tray, except notifications newer than
 * `keepNewerThan` that arrived live while the request was on its way.
 */
export function applyServerList(state: NotificationState, list: TNotification[], keepNewerThan: number): Transition {
  const byId = new Map<number, TNotification>();
  for (const n of list) byId.set(n.id, n);
  for (const n of state.items) if (n.id > keepNewerThan && !byId.has(n.id)) byId.set(n.id, n);
  const items = [...byId.values()].sort(byNewest);
  const known = new Set(state.processed);
  const fresh = items.filter((n) => !known.has(n.id));
  return {
    state: {
      ...state,
      items,
      processed: remember(
        state.processed,
        fresh.map((n) => n.id),
      ),
    },
    fresh,
  };
}

/** A notification pushed by the live stream; one already known (by id) changes nothing. */
export function applyPushed(state: NotificationState, notification: TNotification): Transition {
  const isKnown = state.processed.includes(notification.id) || state.items.some((n) => n.id === notification.id);
  if (isKnown) return { state, fresh: [] };
  return {
    state: {
      ...state,
      items: [notification, ...state.items].sort(byNewest),
      processed: remember(state.processed, [notification.id]),
    },
    fresh: [notification],
  };
}

export const applyViewed = (state: NotificationState, ids: number[]): NotificationState => {
  const set = new Set(ids);
  return { ...state, items: state.items.map((n) => (set.has(n.id) ? { ...n, viewed: 1 } : n)) };
};

export const applyRemoved = (state: NotificationState, ids: number[]): NotificationState => {
  const set = new Set(ids);
  return { ...state, items: state.items.filter((n) => !set.has(n.id)) };
};

export const applyCleared = (state: NotificationState): NotificationState => ({ ...state, items: [] });

function parseJson(raw: string | null): unknown {
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

const isNotification = (value: unknown): value is TNotification => {
  const n = value as Partial<TNotification> | null;
  return typeof n?.id === 'number' && typeof n.title === 'string' && typeof n.message === 'string';
};

/** The tray as this browser last saw it for `userId` (another user's stored tray is ignored). */
export function loadState(userId: number): NotificationState {
  const stored = parseJson(readStorage(NOTIFICATIONS_STORAGE_KEY)) as { userId?: unknown; items?: unknown } | null;
  const items =
    stored?.userId === userId && Array.isArray(stored.items) ? stored.items.filter(isNotification).sort(byNewest) : [];
  const rawProcessed = parseJson(readStorage(storageKeys.processedNotificationIds));
  const processed = Array.isArray(rawProcessed)
    ? rawProcessed.filter((id): id is number => Number.isSafeInteger(id)).slice(-MAX_PROCESSED)
    : [];
  return { userId, items, processed };
}

export function saveState(state: NotificationState): void {
  writeStorage(NOTIFICATIONS_STORAGE_KEY, JSON.stringify({ userId: state.userId, items: state.items }));
  writeStorage(storageKeys.processedNotificationIds, JSON.stringify(state.processed));
}

const relative = new Intl.RelativeTimeFormat('es', { numeric: 'auto' });
const absolute = new Intl.DateTimeFormat('es', { dateStyle: 'medium', timeStyle: 'short' });

/** 'hace 5 minutos', 'ayer'…; the full date past a week. */
export function formatWhen(timestamp: number, now = Date.now()): string {
  const seconds = Math.round((timestamp - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'ahora';
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), 'hour');
  if (abs < 7 * 86_400) return relative.format(Math.round(seconds / 86_400), 'day');
  return absolute.format(timestamp);
}

export const formatFullDate = (timestamp: number) => absolute.format(timestamp);

/** What each known message says was done, as a verb phrase after the actor's name. */
const actions: Record<string, (ticket: string) => string> = {
  [NOTIFICATION_TEXT.assigned]: (ticket) => `te asignó el ticket ${ticket}`,
  [NOTIFICATION_TEXT.statusChanged]: (ticket) => `cambió el estado de tu ticket ${ticket}`,
  [NOTIFICATION_TEXT.activityAdded]: (ticket) => `registró una actividad en tu ticket ${ticket}`,
};

/**
 * Who did what, in one line: 'Diego Hernández te asignó el ticket #61 · Falla en
 * montacargas'. Without an actor (older notifications) it is the message itself,
 * followed by the ticket's name when known.
 */
export function describeNotification(n: Pick<TNotification, 'ticket_id' | 'message' | 'actor_name' | 'ticket_name'>) {
  const ticket = n.ticket_id ? `#${n.ticket_id}` : '';
  const action = actions[n.message];
  const headline = n.actor_name && action ? `${n.actor_name} ${action(ticket).trim()}` : n.message;
  return n.ticket_name ? `${headline} · ${n.ticket_name}` : headline;
}
