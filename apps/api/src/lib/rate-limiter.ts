import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createRequire } from 'node:module';
import { HttpError } from './http-error.ts';

const MINUTE = 60_000;

/**
 * How many attempts a subject gets. Attempts are counted when they start
 * (`take`), so parallel requests cannot slip past the limit; a caller may give
 * one back (`refund`) once the attempt turned out legitimate.
 */
export interface RateLimitPolicy {
  /** Prefix of the keys, one per kind of attempt and subject (account, address, e-mail). */
  name: string;
  /** Attempts allowed before a block starts; the attempt that reaches it is still allowed. */
  limit: number;
  /** With `backoff`: memory after the last attempt or block. Without: a fixed window from the first attempt. */
  windowMs: number;
  /**
   * Growing delays: reaching the limit blocks for `baseMs`, every further allowed
   * attempt doubles it, never beyond `maxMs`. Without it the block lasts until the window ends.
   */
  backoff?: { baseMs: number; maxMs: number };
}

/**
 * Login and recovery are rate limited per account and per address.
 * Sign-in blocks are short and capped at 15 minutes, and both a successful sign-in and a
 * password reset clear the account's counter, so nobody can keep a real user out for long.
 */
export const RATE_LIMITS = {
  loginAccount: {
    name: 'login-account',
    limit: 5,
    windowMs: 15 * MINUTE,
    backoff: { baseMs: MINUTE, maxMs: 15 * MINUTE },
  },
  /** Higher than per account: a whole office may sign in through one address. */
  loginAddress: {
    name: 'login-address',
    limit: 20,
    windowMs: 15 * MINUTE,
    backoff: { baseMs: MINUTE, maxMs: 15 * MINUTE },
  },
  resetCodeEmail: { name: 'reset-code-email', limit: 3, windowMs: 15 * MINUTE },
  resetCodeAddress: { name: 'reset-code-address', limit: 10, windowMs: 15 * MINUTE },
  resetVerifyAddress: { name: 'reset-verify-address', limit: 20, windowMs: 15 * MINUTE },
  resetPasswordAddress: { name: 'reset-password-address', limit: 10, windowMs: 15 * MINUTE },
} as const satisfies Record<string, RateLimitPolicy>;

export interface TakeResult {
  allowed: boolean;
  /** When refused, how long until the next attempt is allowed. */
  retryAfterMs: number;
}

/** Where counters live: this process's memory, or Redis shared by every API process. */
export interface RateLimitStore {
  take(key: string, policy: RateLimitPolicy, now: number): Promise<TakeResult>;
  refund(key: string, policy: RateLimitPolicy, now: number): Promise<void>;
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}

interface Counter {
  count: number;
  blockedUntil: number;
  expiresAt: number;
}

/** The rules of a counter; the Redis script below is the same logic, line for line. */
function takeStep(current: Counter | undefined, p: RateLimitPolicy, now: number): [Counter, TakeResult] {
  const c =
    current && current.expiresAt > now ? { ...current } : { count: 0, blockedUntil: 0, expiresAt: now + p.windowMs };
  if (c.blockedUntil > now) return [c, { allowed: false, retryAfterMs: c.blockedUntil - now }];
  c.count += 1;
  if (c.count >= p.limit) {
    c.blockedUntil = p.backoff
      ? now + Math.min(p.backoff.baseMs * 2 ** (c.count - p.limit), p.backoff.maxMs)
      : c.expiresAt;
  }
  if (p.backoff) c.expiresAt = Math.max(now + p.windowMs, c.blockedUntil + p.windowMs);
  return [c, { allowed: true, retryAfterMs: 0 }];
}

/** Gives an allowed attempt back; a block that attempt started is lifted. */
function refundStep(current: Counter | undefined, now: number): Counter | undefined {
  if (!current || current.expiresAt <= now) return undefined;
  return { ...current, count: Math.max(0, current.count - 1), blockedUntil: 0 };
}

export function createMemoryStore(options: { maxKeys?: number; sweepEveryMs?: number } = {}): RateLimitStore {
  const maxKeys = options.maxKeys ?? 100_000;
  const counters = new Map<string, Counter>();
  const sweep = () => {
    const now = Date.now();
    for (const [key, c] of counters) if (c.expiresAt <= now) counters.delete(key);
  };
  const timer = setInterval(sweep, options.sweepEveryMs ?? MINUTE);
  timer.unref();
  return {
    async take(key, policy, now) {
      const [next, result] = takeStep(counters.get(key), policy, now);
      counters.delete(key);
      if (counters.size >= maxKeys) {
        sweep();
        // Still full: forget the least recently touched counter rather than grow without bound.
        if (counters.size >= maxKeys) counters.delete(counters.keys().next().value as string);
      }
      counters.set(key, next);
      return result;
    },
    async refund(key, _policy, now) {
      const next = refundStep(counters.get(key), now);
      if (next) counters.set(key, next);
      else counters.delete(key);
    },
    async clear(key) {
      counters.delete(key);
    },
    async close() {
      clearInterval(timer);
      counters.clear();
    },
  };
}

/**
 * KEYS[1] = counter hash; ARGV = op ('take' | 'refund'), now, limit, windowMs, baseMs (0: no
 * backoff), maxMs. Times come from the API's clock, so every process applies the same rules.
 */
const REDIS_SCRIPT = `
local key = KEYS[1]
local op = ARGV[1]
local now = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local window = tonumber(ARGV[4])
local base = tonumber(ARGV[5])
local maxDelay = tonumber(ARGV[6])
local v = redis.call('HMGET', key, 'count', 'blocked', 'expires')
local count = tonumber(v[1]) or 0
local blocked = tonumber(v[2]) or 0
local expires = tonumber(v[3]) or 0
if op == 'refund' then
  if expires <= now then return {1, 0} end
  count = math.max(0, count - 1)
  redis.call('HSET', key, 'count', count, 'blocked', 0)
  return {1, 0}
end
if expires <= now then
  count = 0
  blocked = 0
  expires = now + window
end
if blocked > now then
  return {0, blocked - now}
end
count = count + 1
if count >= limit then
  if base > 0 then
    blocked = now + math.min(base * 2 ^ (count - limit), maxDelay)
  else
    blocked = expires
  end
end
if base > 0 then
  expires = math.max(now + window, blocked + window)
end
redis.call('HSET', key, 'count', count, 'blocked', blocked, 'expires', expires)
redis.call('PEXPIRE', key, math.max(1000, expires - now))
return {1, 0}
`;

/** Counters shared by every API process through Redis; `prefix` keeps them apart from other data. */
export function createRedisStore(
  redis: Redis,
  options: { prefix?: string; quitOnClose?: boolean } = {},
): RateLimitStore {
  const prefix = options.prefix ?? 'portal:rate-limit:';
  const run = async (op: 'take' | 'refund', key: string, p: RateLimitPolicy, now: number) => {
    const [allowed, retryAfterMs] = (await redis.eval(
      REDIS_SCRIPT,
      1,
      prefix + key,
      op,
      now,
      p.limit,
      p.windowMs,
      p.backoff?.baseMs ?? 0,
      p.backoff?.maxMs ?? 0,
    )) as [number, number];
    return { allowed: allowed === 1, retryAfterMs: Number(retryAfterMs) };
  };
  return {
    take: (key, policy, now) => run('take', key, policy, now),
    async refund(key, policy, now) {
      await run('refund', key, policy, now);
    },
    async clear(key) {
      await redis.del(prefix + key);
    },
    async close() {
      if (options.quitOnClose ?? true) await redis.quit().catch(() => undefined);
    },
  };
}

/** Redis when `REDIS_URL` is set (counters shared by every API process), this process's memory otherwise. */
export function createRateLimitStore(redisUrl: string | undefined, onError: (error: unknown) => void): RateLimitStore {
  if (!redisUrl) return createMemoryStore();
  // Loaded only when configured (start-up time).
  const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  // Fail fast rather than queue: a sign-in should not hang while Redis is away.
  const redis = new RedisClient(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000, enableOfflineQueue: true });
  redis.on('error', onError);
  return createRedisStore(redis);
}

export interface RateLimiterOptions {
  now?: () => number;
  /** A store failure lets the attempt through (sign-in keeps working without Redis) and is reported here. */
  onError?: (error: unknown) => void;
}

/** Subjects (e-mails, usernames, addresses) become opaque, bounded keys. */
const keyOf = (policy: RateLimitPolicy, subject: string) =>
  `${policy.name}:${createHash('sha256').update(subject.trim().toLowerCase()).digest('base64url')}`;

export function createRateLimiter(store: RateLimitStore, options: RateLimiterOptions = {}) {
  const now = options.now ?? (() => Date.now());
  const onError = options.onError ?? (() => undefined);
  return {
    async take(policy: RateLimitPolicy, subject: string): Promise<TakeResult> {
      try {
        return await store.take(keyOf(policy, subject), policy, now());
      } catch (error) {
        onError(error);
        return { allowed: true, retryAfterMs: 0 };
      }
    },
    async refund(policy: RateLimitPolicy, subject: string): Promise<void> {
      await store.refund(keyOf(policy, subject), policy, now()).catch(onError);
    },
    async clear(policy: RateLimitPolicy, subject: string): Promise<void> {
      await store.clear(keyOf(policy, subject)).catch(onError);
    },
    close: () => store.close(),
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** "2 minutos", "45 segundos": how long to wait, in words. */
export function waitInWords(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return seconds === 1 ? '1 segundo' : `${seconds} segundos`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minuto' : `${minutes} minutos`;
}

/** 429 with a Spanish message and `Retry-After` in seconds. */
export function tooManyAttempts(retryAfterMs: number): HttpError {
  return new HttpError(429, `Demasiados intentos. Vuelve a intentarlo en ${waitInWords(retryAfterMs)}.`, {
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
  });
}
