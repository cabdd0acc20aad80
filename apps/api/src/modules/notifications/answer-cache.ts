import type { WriteWatch } from '../../db/write-watch.ts';
import { createLoadingCache } from '../../lib/loading-cache.ts';
import type { NotificationBus } from './notifications.bus.ts';

type Bus = Pick<NotificationBus, 'onInvalidate' | 'canCache' | 'subscribeTickets' | 'onTicketSignal'>;

/**
 * Answers of lists kept in memory as sent (their JSON), for lists read far more
 * often than the writes that change them. They are kept only while `bus` can
 * vouch that every change reaches this process (`canCache`), and all of them are
 * dropped on any invalidation but a revoked token's: a write to users, roles,
 * grants or a catalogue announces one (at once in this process, db/write-watch.ts;
 * on PostgreSQL in every process, by triggers).
 *
 * With `tickets` (the database's write watch), every ticket change drops them
 * too: a change of this process at once once it has committed (before its answer
 * is sent, so its writer reads it back), the others' as they arrive (the live
 * lists' ticket changes), and any write to `tickets` made through this process's
 * Kysely (a script, a test). A write made outside every portal process (psql)
 * shows once anything drops the answers, or with `Cache-Control: no-cache`. A load that
 * an invalidation overtook is used by its caller but not kept, so a read that ran
 * beside an uncommitted write is never kept. A request with `Cache-Control:
 * no-cache` is answered from the database (and its answer kept).
 */
export function createAnswerCache(
  bus: Bus,
  { max, tickets, counts }: { max: number; tickets?: WriteWatch; counts?: AnswerCounts },
) {
  const answers = createLoadingCache<string, Buffer>(max, () => bus.canCache());
  bus.onInvalidate((invalidation) => {
    if (invalidation.kind !== 'token') answers.clear();
  });
  if (tickets) {
    bus.onTicketSignal(() => answers.clear());
    bus.subscribeTickets(() => answers.clear());
    tickets.onWrite((table) => {
      if (table === 'tickets') answers.clear();
    });
  }
  return {
    /**
     * The answer for `key`, as the bytes to send: kept, or loaded (`load` gives its JSON)
     * and kept; `fresh` loads it again. Being one Buffer while kept, it is also compressed
     * only once per encoding (plugins/compression.ts).
     */
    get(key: unknown[], load: () => Promise<string>, { fresh = false } = {}): Promise<Buffer> {
      const k = JSON.stringify(key);
      if (fresh) answers.delete(k);
      // The cache calls `load` at once when it keeps no answer for `k`, so `source` is known on return.
      let source: keyof AnswerCounts = 'kept';
      const answer = answers.get(k, async () => {
        source = 'database';
        return Buffer.from(await load());
      });
      if (counts) counts[source] += 1;
      return answer;
    },
  };
}

/** How many answers were served from memory and how many were read from the database (for the metrics). */
export interface AnswerCounts {
  kept: number;
  database: number;
}

/** Whether a request asks for an answer not taken from a cache (`Cache-Control: no-cache`, RFC 9111 §5.2.1.4). */
export const asksFresh = (headers: { 'cache-control'?: string }) =>
  /(^|[\s,])no-cache\b/i.test(headers['cache-control'] ?? '');
export type AnswerCache = ReturnType<typeof createAnswerCache>;
