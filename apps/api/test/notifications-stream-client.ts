import type { AddressInfo } from 'node:net';
import type { TestApp } from './helper.ts';

export interface StreamEvent {
  event: string;
  data: unknown;
  id?: string;
  at: number;
}

/** Starts `t` on a free local port (once) and returns its base URL; streams need a real socket. */
export async function listen(t: TestApp): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export async function streamTicket(t: TestApp, token: string): Promise<string> {
  const res = await t.call(token, 'POST', '/api/notifications/stream-ticket');
  if (res.statusCode !== 200) throw new Error(`stream-ticket ${res.statusCode} ${res.body}`);
  return res.json().data.ticket as string;
}

/** A minimal server-sent-events reader over fetch, collecting every event it parses. */
export async function openStream(baseUrl: string, query: Record<string, string>) {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/api/notifications/stream?${new URLSearchParams(query)}`, {
    signal: controller.signal,
  });
  const events: StreamEvent[] = [];
  const waiters = new Set<() => void>();
  let isDone = false;

  const wake = () => {
    for (const w of waiters) w();
  };

  const pump = (async () => {
    if (!res.ok || !res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields: Record<string, string> = {};
          for (const line of block.split('\n')) {
            if (!line || line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
          }
          if (fields.event || fields.data) {
            events.push({
              event: fields.event ?? 'message',
              data: fields.data ? JSON.parse(fields.data) : null,
              id: fields.id,
              at: performance.now(),
            });
            wake();
          }
        }
      }
    } catch {
      // aborted by the test
    } finally {
      isDone = true;
      wake();
    }
  })();

  return {
    res,
    events,
    get isDone() {
      return isDone;
    },
    /** Resolves with the first event matching `predicate`, waiting up to `timeoutMs`. */
    waitFor(predicate: (e: StreamEvent) => boolean, timeoutMs = 3000): Promise<StreamEvent> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(predicate);
          if (found) return finish(() => resolve(found));
          if (isDone) return finish(() => reject(new Error(`stream ended; events: ${JSON.stringify(events)}`)));
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`timed out; events: ${JSON.stringify(events)}`))),
          timeoutMs,
        );
        const finish = (fn: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          fn();
        };
        waiters.add(check);
        check();
      });
    },
    /** Resolves once the server has ended the response. */
    ended: pump,
    close() {
      controller.abort();
      return pump;
    },
  };
}
export type OpenStream = Awaited<ReturnType<typeof openStream>>;
