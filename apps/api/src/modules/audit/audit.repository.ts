import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { likePattern, nowIso } from '../../db/database.ts';
import { paginate, type Paging } from '../../db/paging.ts';

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

/** Which entries a reader wants: instants as ISO strings (`from` inclusive, `before` exclusive). */
export interface AuditLogFilter {
  userId?: number;
  events?: string[];
  from?: string;
  before?: string;
  search?: string;
  /** Events whose Spanish name matches the search: they match too. */
  searchEvents?: string[];
}

/** Where a keyset page of the export starts: after this entry, newest first. */
export interface AuditCursor {
  createdAt: string;
  id: number;
}

/** Reads the audit log for the Auditoría screen and its CSV, newest first. */
export function createAuditLogReader(database: Database) {
  const { db } = database;

  const matching = (filter: AuditLogFilter) => {
    const like = sql.raw(database.like);
    const pattern = filter.search ? likePattern(filter.search) : '';
    return db
      .selectFrom('audit_log as a')
      .leftJoin('users as u', 'u.id', 'a.user_id')
      .$if(filter.userId !== undefined, (q) => q.where('a.user_id', '=', filter.userId!))
      .$if(filter.events !== undefined, (q) =>
        // An empty choice matches nothing, as an empty list of actions should.
        filter.events!.length === 0 ? q.where(sql<boolean>`1 = 0`) : q.where('a.event', 'in', filter.events!),
      )
      .$if(filter.from !== undefined, (q) => q.where('a.created_at', '>=', filter.from!))
      .$if(filter.before !== undefined, (q) => q.where('a.created_at', '<', filter.before!))
      .$if(pattern !== '', (q) =>
        q.where((eb) =>
          eb.or([
            ...['a.username', 'a.ip', 'a.event', 'a.detail', 'u.name', 'u.last_name', 'u.username'].map(
              (column) => sql<boolean>`${sql.ref(column)} ${like} ${pattern} escape '\\'`,
            ),
            ...(filter.searchEvents?.length ? [eb('a.event', 'in', filter.searchEvents)] : []),
          ]),
        ),
      );
  };

  const selectEntry = (query: ReturnType<typeof matching>) =>
    query
      .select([
        'a.id',
        'a.created_at',
        'a.event',
        'a.user_id',
        'a.username',
        'a.ip',
        'a.detail',
        'u.name as user_name',
        'u.last_name as user_last_name',
        'u.username as user_username',
      ])
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc');

  return {
    /** How many entries match, counted no further than `cap + 1` so a huge log costs a bounded scan. */
    async countUpTo(filter: AuditLogFilter, cap: number): Promise<number> {
      const { total } = await db
        .selectFrom(
          matching(filter)
            .select(sql<number>`1`.as('one'))
            .limit(cap + 1)
            .as('capped'),
        )
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .executeTakeFirstOrThrow();
      return Number(total);
    },

    page: (filter: AuditLogFilter, paging: Paging) => selectEntry(matching(filter)).$call(paginate(paging)).execute(),

    /** Up to `size` entries older than `after` (the export reads the log in these keyset batches). */
    batch: (filter: AuditLogFilter, after: AuditCursor | null, size: number) =>
      selectEntry(matching(filter))
        .$if(after !== null, (q) =>
          q.where((eb) =>
            eb.or([
              eb('a.created_at', '<', after!.createdAt),
              eb.and([eb('a.created_at', '=', after!.createdAt), eb('a.id', '<', after!.id)]),
            ]),
          ),
        )
        .limit(size)
        .execute(),

    /** `Nombre Apellido (@usuario)` of the given users, inactive ones included. */
    async namesOf(ids: number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('users')
        .select(['id', 'name', 'last_name', 'username'])
        .where('id', 'in', ids)
        .execute();
      return new Map(rows.map((r) => [r.id, `${r.name} ${r.last_name} (@${r.username})`]));
    },

    /** Every user, active or not, by name: the choices of the user filter. */
    async everyUser(): Promise<{ id: number; name: string }[]> {
      const rows = await db
        .selectFrom('users')
        .select(['id', 'name', 'last_name', 'username'])
        .orderBy('name')
        .orderBy('last_name')
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ id: r.id, name: `${r.name} ${r.last_name} (@${r.username})` }));
    },
  };
}
export type AuditLogReader = ReturnType<typeof createAuditLogReader>;
