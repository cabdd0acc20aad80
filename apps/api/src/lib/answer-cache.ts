import { createLoadingCache } from './loading-cache.ts';

/**
 * What tells kept answers that they may be stale (the notification bus satisfies it):
 * `canCache` is false while a change could go unannounced, and every invalidation but
 * a revoked token's may change what a list shows.
 */
export interface AnswerInvalidations {
  canCache(): boolean;
  onInvalidate(listener: (invalidation: { kind: string }) => void): unknown;
}

/**
 * Answers of lists kept in memory as sent (their JSON), for lists read far more
 * often than the writes that change them. They are kept only while `invalidations`
 * can vouch that every change reaches this process (`canCache`), and all of them
 * are dropped on any invalidation but a revoked token's: a write to users, roles,
 * grants or a catalogue announces one (at once in this process, db/write-watch.ts;
 * on PostgreSQL in every process, by triggers). An owner whose answers name other
 * data drops them on its changes too (`clear`).
 *
 * A load that an invalidation overtook is used by its caller but not kept, so a read
 * that ran beside an uncommitted write is never kept. A request with `Cache-Control:
 * no-cache` is answered from the database (and its answer kept).
 */
export function createAnswerCache(
  invalidations: AnswerInvalidations,
  { max, counts }: { max: number; counts?: AnswerCounts },
) {
  const answers = createLoadingCache<string, Buffer>(max, () => invalidations.canCache());
  invalidations.onInvalidate((invalidation) => {
    if (invalidation.kind !== 'token') answers.clear();
  });
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
    /** Drops every kept answer. */
    clear: () => answers.clear(),
  };
}

/** How many answers were served from memory and how many were read from the database (for the metrics). */
export interface AnswerCounts {
  kept: number;
  database: number;
}

/** Whether a request asks for an answer not taken from a cache (`Cache-Control: no-cache`). */
export const asksFresh = (headers: { 'cache-control'?: string }) =>
  /(^|[\s,])no-cache\b/i.test(headers['cache-control'] ?? '');
export type AnswerCache = ReturnType<typeof createAnswerCache>;
