import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  RATE_LIMITS,
  createMemoryStore,
  createRateLimiter,
  createRedisStore,
  type RateLimitPolicy,
  type RateLimitStore,
} from '../src/lib/rate-limiter.ts';
import { createTestApp, dialects, type TestApp } from './helper.ts';

const MINUTE = 60_000;
/**
 * The Redis tests need a Redis server: `TEST_REDIS_URL=redis://127.0.0.1:6379` (what `.ci/run` sets).
 * Without it they are skipped with a word saying so, except in CI, where they must run.
 */
const REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const SKIP_REASON =
  'TEST_REDIS_URL is unset: skipping the Redis rate-limit tests (set TEST_REDIS_URL=redis://127.0.0.1:6379 to run them)';
if (!REDIS_URL) console.warn(`\n${SKIP_REASON}\n`);

const fixed: RateLimitPolicy = { name: 'test-fixed', limit: 3, windowMs: 15 * MINUTE };
const growing: RateLimitPolicy = {
  name: 'test-growing',
  limit: 5,
  windowMs: 15 * MINUTE,
  backoff: { baseMs: MINUTE, maxMs: 15 * MINUTE },
};

/** The same rules must hold in memory and in Redis; Redis keys get a prefix of their own and are removed. */
const stores: {
  name: string;
  skip?: boolean;
  open: () => Promise<{ store: RateLimitStore; second?: RateLimitStore; cleanup(): Promise<void> }>;
}[] = [
  { name: 'memory', open: async () => ({ store: createMemoryStore(), cleanup: async () => undefined }) },
  {
    name: 'redis',
    skip: !REDIS_URL,
    open: async () => {
      const prefix = `portal-test:${process.pid}:${randomBytes(4).toString('hex')}:`;
      const a = new Redis(REDIS_URL!);
      const b = new Redis(REDIS_URL!);
      return {
        store: createRedisStore(a, { prefix }),
        second: createRedisStore(b, { prefix }),
        async cleanup() {
          const keys = await a.keys(`${prefix}*`);
          if (keys.length) await a.del(...keys);
          await a.quit();
          await b.quit();
        },
      };
    },
  },
];

describe.runIf(!REDIS_URL && process.env.CI)('Redis in CI', () => {
  it('has TEST_REDIS_URL set', () => {
    throw new Error('CI must run the Redis rate-limit tests: set TEST_REDIS_URL (.ci/run does)');
  });
});

for (const { name, skip, open } of stores)
  describe.skipIf(skip)(`rate-limit rules in the ${name} store`, () => {
    let opened: Awaited<ReturnType<typeof open>>;
    let clock = Date.UTC(2030, 0, 1);
    const limiter = () => createRateLimiter(opened.store, { now: () => clock });

    beforeAll(async () => {
      opened = await open();
    });
    afterAll(() => opened?.cleanup());

    it('allows the limit, refuses the next attempt until the fixed window ends, then allows again', async () => {
      const l = limiter();
      for (let i = 0; i < 3; i++) expect((await l.take(fixed, 'a@x.io')).allowed).toBe(true);
      clock += 5 * MINUTE;
      expect(await l.take(fixed, 'A@X.io ')).toEqual({ allowed: false, retryAfterMs: 10 * MINUTE });
      expect((await l.take(fixed, 'b@x.io')).allowed).toBe(true);
      clock += 10 * MINUTE;
      expect((await l.take(fixed, 'a@x.io')).allowed).toBe(true);
    });

    it('grows the delay after the limit (1, 2, 4, 8 minutes) up to a 15-minute cap, and forgets after the window', async () => {
      const l = limiter();
      for (let i = 0; i < 5; i++) expect((await l.take(growing, 'user')).allowed).toBe(true);
      const delays: number[] = [];
      for (let i = 0; i < 6; i++) {
        const refused = await l.take(growing, 'user');
        expect(refused.allowed).toBe(false);
        delays.push(refused.retryAfterMs / MINUTE);
        clock += refused.retryAfterMs;
        expect((await l.take(growing, 'user')).allowed).toBe(true);
      }
      expect(delays).toEqual([1, 2, 4, 8, 15, 15]);
      clock += 15 * MINUTE + 15 * MINUTE;
      for (let i = 0; i < 5; i++) expect((await l.take(growing, 'user')).allowed).toBe(true);
      expect((await l.take(growing, 'user')).allowed).toBe(false);
    });

    it('a refund lifts the block the refunded attempt started, and clear forgets everything', async () => {
      const l = limiter();
      for (let i = 0; i < 5; i++) await l.take(growing, 'refund');
      expect((await l.take(growing, 'refund')).allowed).toBe(false);
      await l.refund(growing, 'refund');
      expect((await l.take(growing, 'refund')).allowed).toBe(true);
      expect((await l.take(growing, 'refund')).allowed).toBe(false);
      await l.clear(growing, 'refund');
      expect((await l.take(growing, 'refund')).allowed).toBe(true);
    });

    it('lets exactly the limit through when attempts arrive in parallel', async () => {
      const l = limiter();
      const results = await Promise.all(Array.from({ length: 30 }, () => l.take(growing, 'parallel')));
      expect(results.filter((r) => r.allowed)).toHaveLength(5);
    });

    it.runIf(name === 'redis')('shares counters between API processes', async () => {
      const first = limiter();
      const second = createRateLimiter(opened.second!, { now: () => clock });
      for (let i = 0; i < 3; i++) expect((await first.take(fixed, 'shared')).allowed).toBe(true);
      expect((await second.take(fixed, 'shared')).allowed).toBe(false);
    });
  });

describe('rate limiter without its store', () => {
  it('lets attempts through and reports the failure when Redis is unreachable', async () => {
    const redis = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    const errors: unknown[] = [];
    const l = createRateLimiter(createRedisStore(redis), { onError: (e) => errors.push(e) });
    expect(await l.take(fixed, 'x')).toEqual({ allowed: true, retryAfterMs: 0 });
    expect(errors).toHaveLength(1);
    redis.disconnect();
  });
});

describe.skipIf(!REDIS_URL)('sign-in limits with REDIS_URL set', () => {
  it('keeps the counters in Redis, where every API process sees them', async () => {
    const t = await createTestApp('sqlite', { REDIS_URL: REDIS_URL! });
    const redis = new Redis(REDIS_URL!);
    const username = `redis-${randomBytes(4).toString('hex')}`;
    const ip = `10.77.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
    try {
      for (let i = 0; i < 5; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { username, password: 'mala-clave' },
          remoteAddress: ip,
        });
        expect(res.statusCode).toBe(401);
      }
      const keys = await redis.keys('portal:rate-limit:login-account:*');
      const counts = await Promise.all(keys.map((k) => redis.hget(k, 'count')));
      expect(counts).toContain('5');
      const blocked = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username, password: 'mala-clave' },
        remoteAddress: ip,
      });
      expect(blocked.statusCode).toBe(429);
    } finally {
      await t.services.limiter.clear(RATE_LIMITS.loginAccount, username);
      await t.services.limiter.clear(RATE_LIMITS.loginAddress, ip);
      await t.close();
      await redis.quit();
    }
  });
});

describe.each(dialects)('sign-in limits on %s', (dialect) => {
  let t: TestApp;
  let lastIp = 0;
  const freshIp = () => `10.9.${Math.floor(++lastIp / 250)}.${(lastIp % 250) + 1}`;
  const signIn = (username: string, password: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password }, remoteAddress: ip });

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t?.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  it('blocks an account after 5 failures with a Spanish 429 and Retry-After, from any address, and recovers after the delay', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    for (let i = 0; i < 5; i++) {
      const res = await signIn('supervisor', `incorrecta${i}`, freshIp());
      expect(res.statusCode).toBe(401);
    }
    const blocked = await signIn('Supervisor', 'PortalDemo1', freshIp());
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ status: false, message: 'Demasiados intentos. Vuelve a intentarlo en 1 minuto.' });
    expect(blocked.headers['retry-after']).toBe('60');

    expect((await signIn('agente', 'PortalDemo1', freshIp())).statusCode).toBe(200);

    vi.setSystemTime(Date.now() + 30_000);
    const later = await signIn('supervisor', 'PortalDemo1', freshIp());
    expect(later.statusCode).toBe(429);
    expect(later.headers['retry-after']).toBe('30');
    expect(later.json().message).toBe('Demasiados intentos. Vuelve a intentarlo en 30 segundos.');

    vi.setSystemTime(Date.now() + 30_000);
    expect((await signIn('supervisor', 'PortalDemo1', freshIp())).statusCode).toBe(200);
    // The success forgot the failures: four more mistakes are plain 401s.
    for (let i = 0; i < 4; i++) expect((await signIn('supervisor', 'mal', freshIp())).statusCode).toBe(401);
    expect((await signIn('supervisor', 'PortalDemo1', freshIp())).statusCode).toBe(200);

    const events = await t.services.database.db
      .selectFrom('audit_log')
      .select(['event', 'username', 'detail'])
      .where('event', '=', 'login.throttled')
      .execute();
    expect(events).toHaveLength(2);
    expect(JSON.parse(events[0]!.detail!)).toEqual({ scope: 'account', retry_after_s: 60 });
  });

  it('grows the delay for an attacker who keeps guessing, never beyond 15 minutes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const retries: number[] = [];
    for (let i = 0; i < 5; i++) await signIn('lmartinez', `mala${i}`, freshIp());
    for (let round = 0; round < 6; round++) {
      const refused = await signIn('lmartinez', 'otra-mala', freshIp());
      expect(refused.statusCode).toBe(429);
      const seconds = Number(refused.headers['retry-after']);
      retries.push(seconds);
      vi.setSystemTime(Date.now() + seconds * 1000);
      expect((await signIn('lmartinez', 'otra-mala', freshIp())).statusCode).toBe(401);
    }
    expect(retries).toEqual([60, 120, 240, 480, 900, 900]);
  });

  it('blocks an address after 20 failures over any accounts, without blocking other addresses', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const ip = freshIp();
    for (let i = 0; i < 20; i++) expect((await signIn(`nadie${i}`, 'mala-clave', ip)).statusCode).toBe(401);
    const blocked = await signIn('admin', 'PortalAdmin1', ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('60');
    expect((await signIn('admin', 'PortalAdmin1', freshIp())).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + MINUTE);
    expect((await signIn('admin', 'PortalAdmin1', ip)).statusCode).toBe(200);
  });

  it('never counts successful sign-ins against an address', async () => {
    const ip = freshIp();
    for (let i = 0; i < RATE_LIMITS.loginAddress.limit + 5; i++) {
      expect((await signIn('jcastillo', 'PortalDemo1', ip)).statusCode).toBe(200);
    }
  });

  it('refuses parallel guesses beyond the limit before checking any password', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signIn('mflores', `paralela${i}`, freshIp())),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(7);
  });
});
