import type { Database } from '../../db/database.ts';
import { nowIso } from '../../db/database.ts';

export interface AuditEvent {
  event: string;
  userId?: number | null;
  username?: string | null;
  ip?: string | null;
  detail?: Record<string, unknown>;
}

/** Anonymous refusals are counted in memory and written as one row per event and address per window. */
export const ANONYMOUS_WINDOW_MS = 5 * 60 * 1000;
/** Most distinct (event, address) pairs counted at once; beyond it they are counted without their address. */
const MAX_ANONYMOUS_KEYS = 1_000;
/** Rows deleted per statement when pruning, so the prune never holds the database (or SQLite's thread) for long. */
const PRUNE_BATCH = 1_000;

interface AnonymousCount {
  event: string;
  ip: string | null;
  count: number;
  firstAt: string;
  lastAt: string;
  sample: Record<string, unknown> | undefined;
}

export function createAuditRepository({ db }: Database) {
  const insert = (e: AuditEvent, createdAt = nowIso()) =>
    db
      .insertInto('audit_log')
      .values({
        event: e.event,
        user_id: e.userId ?? null,
        username: e.username?.slice(0, 120) ?? null,
        ip: e.ip ?? null,
        detail: e.detail ? JSON.stringify(e.detail).slice(0, 2000) : null,
        created_at: createdAt,
      })
      .execute();

  const anonymous = new Map<string, AnonymousCount>();
  let flushTimer: NodeJS.Timeout | undefined;

  async function flushAnonymous(): Promise<void> {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    const counts = [...anonymous.values()];
    anonymous.clear();
    for (const c of counts) {
      await insert(
        {
          event: c.event,
          ip: c.ip,
          detail: { count: c.count, first_at: c.firstAt, last_at: c.lastAt, ...(c.sample ? { sample: c.sample } : {}) },
        },
        c.lastAt,
      );
    }
  }

  return {
    async record(e: AuditEvent): Promise<void> {
      await insert(e);
    },

    /**
     * A refusal that names no user (no token, a token that is not ours): noise
     * when it is one row each, so it is counted per event and address and written
     * as one row (`detail.count`) at the end of each window.
     */
    recordAnonymous(event: string, ip: string | null, sample?: Record<string, unknown>): void {
      let key = `${event}|${ip ?? ''}`;
      if (!anonymous.has(key) && anonymous.size >= MAX_ANONYMOUS_KEYS) {
        key = `${event}|*`;
        ip = null;
      }
      const now = nowIso();
      const entry = anonymous.get(key);
      if (entry) {
        entry.count += 1;
        entry.lastAt = now;
      } else {
        anonymous.set(key, { event, ip, count: 1, firstAt: now, lastAt: now, sample });
      }
      if (!flushTimer) {
        flushTimer = setTimeout(() => void flushAnonymous().catch(() => undefined), ANONYMOUS_WINDOW_MS);
        flushTimer.unref();
      }
    },

    /** Writes the anonymous counts gathered so far (at the end of each window and on shutdown). */
    flushAnonymous,

    /**
     * Deletes rows older than `retentionDays`, a batch at a time with a pause
     * between batches so requests keep being served. Returns how many went.
     */
    async prune(retentionDays: number): Promise<number> {
      const cutoff = new Date(Date.now() - retentionDays * 24 * 60 * 60 * 1000).toISOString();
      let deleted = 0;
      for (;;) {
        const batch = db
          .selectFrom('audit_log')
          .select('id')
          .where('created_at', '<', cutoff)
          .orderBy('created_at')
          .limit(PRUNE_BATCH);
        const result = await db.deleteFrom('audit_log').where('id', 'in', batch).executeTakeFirst();
        const n = Number(result.numDeletedRows);
        deleted += n;
        if (n < PRUNE_BATCH) return deleted;
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;
