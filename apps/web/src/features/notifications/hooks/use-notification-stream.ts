import { NOTIFICATION_STREAM_EVENTS, type TNotification } from '@portal/contract';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '@/lib/api-client.ts';
import { fetchStreamTicket, streamUrl } from '../api/notifications-api.ts';

/** `live` while the server pushes; otherwise the tray relies on polling. */
export type StreamStatus = 'off' | 'connecting' | 'live' | 'down';

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 60_000;

/** Retry delays double from 1 s up to a minute (with jitter, so tabs do not reconnect in step). */
export const retryDelay = (attempt: number, random = Math.random) =>
  Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt) * (0.75 + random() * 0.5);

interface StreamOptions {
  isEnabled: boolean;
  /** The newest notification id the client holds, read at each (re)connection. */
  getSince: () => number;
  onNotification: (notification: TNotification) => void;
  /** A ticket the user may see was created or changed (live lists). */
  onTicketChanged?: (ticketId: number) => void;
}

/**
 * The live push of GET /api/notifications/stream. Each connection trades the
 * session's token for a single-use ticket first; when the stream fails or the
 * server ends it, it reconnects by itself with backoff, and when the tab
 * becomes visible again.
 */
export function useNotificationStream({
  isEnabled,
  getSince,
  onNotification,
  onTicketChanged,
}: StreamOptions): StreamStatus {
  const [status, setStatus] = useState<StreamStatus>('off');
  const callbacks = useRef({ getSince, onNotification, onTicketChanged });
  useEffect(() => {
    callbacks.current = { getSince, onNotification, onTicketChanged };
  });

  useEffect(() => {
    if (!isEnabled || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let retryTimer: number | undefined;
    let attempt = 0;
    let isDisposed = false;
    let isConnecting = false;

    const retryLater = () => {
      if (isDisposed) return;
      window.clearTimeout(retryTimer);
      retryTimer = window.setTimeout(connect, retryDelay(attempt));
      attempt += 1;
    };

    const drop = () => {
      source?.close();
      source = null;
      setStatus('down');
      retryLater();
    };

    async function connect() {
      if (isDisposed || isConnecting || source) return;
      isConnecting = true;
      setStatus('connecting');
      let ticket: string;
      try {
        ticket = (await fetchStreamTicket()).data.ticket;
      } catch (error) {
        if (isDisposed) return;
        setStatus('down');
        // A lost session is handled by the app (back to /login); anything else is retried.
        if (!(isApiError(error) && error.details.isSessionLost)) retryLater();
        return;
      } finally {
        isConnecting = false;
      }
      if (isDisposed) return;
      const es = new EventSource(streamUrl(ticket, callbacks.current.getSince()));
      source = es;
      es.addEventListener(NOTIFICATION_STREAM_EVENTS.ready, () => {
        attempt = 0;
        setStatus('live');
      });
      es.addEventListener(NOTIFICATION_STREAM_EVENTS.notification, (event) => {
        try {
          callbacks.current.onNotification(JSON.parse((event as MessageEvent<string>).data) as TNotification);
        } catch (error) {
          console.warn('notificación ilegible', error);
        }
      });
      es.addEventListener(NOTIFICATION_STREAM_EVENTS.ticket, (event) => {
        try {
          const { id } = JSON.parse((event as MessageEvent<string>).data) as { id: number };
          callbacks.current.onTicketChanged?.(id);
        } catch (error) {
          console.warn('evento de ticket ilegible', error);
        }
      });
      // The server closes on shutdown or when the token it was opened with ends: open a fresh one.
      es.addEventListener(NOTIFICATION_STREAM_EVENTS.end, drop);
      // The browser would retry with the same (used) ticket: close and reconnect with a new one instead.
      es.onerror = drop;
    }

    const onVisible = () => {
      if (document.visibilityState !== 'visible' || source || isConnecting || isDisposed) return;
      attempt = 0;
      window.clearTimeout(retryTimer);
      void connect();
    };

    void connect();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      isDisposed = true;
      window.clearTimeout(retryTimer);
      document.removeEventListener('visibilitychange', onVisible);
      source?.close();
      setStatus('off');
    };
  }, [isEnabled]);

  return status;
}
