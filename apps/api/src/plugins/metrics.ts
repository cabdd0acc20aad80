import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import cluster from 'node:cluster';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { HttpError } from '../lib/http-error.ts';
import { bearerToken } from './access.ts';

/** What the metrics read from the rest of the process, when Prometheus scrapes. */
export interface MetricsSources {
  /** The bearer token a scraper must send. */
  token: string;
  poolStats?: (() => { total: number; idle: number; waiting: number }) | undefined;
  openStreams: () => number;
  /** Kept list answers by list: served from memory, or read from the database. */
  listAnswerCounts: Record<string, { kept: number; database: number }>;
  /** Mails in the outbox by state (one database shared by every process). */
  mailOutbox?: () => Promise<Record<string, number>>;
  /** Tells, in ms, how long each write of a reference re-extraction held the database. */
  onReextractionStep?: (listener: (ms: number) => void) => void;
}

/** Request durations, in seconds: from a cached list (a millisecond) to a slow export. */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A re-extraction write's hold, in seconds: a ticket write waits at most that long for one. */
const STEP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

const digest = (value: string) => createHash('sha256').update(value).digest();

/** A process of `WORKERS=N` asks the primary for every process's metrics, and gets them added up. */
export const CLUSTER_METRICS = 'portal:metrics';
export interface ClusterMetricsMessage {
  type: typeof CLUSTER_METRICS;
  id: string;
  text?: string;
  error?: string;
}

function clusterMetrics(): Promise<string> {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const onMessage = (message: ClusterMetricsMessage) => {
      if (message?.type !== CLUSTER_METRICS || message.id !== id) return;
      process.off('message', onMessage);
      if (message.error === undefined) resolve(message.text ?? '');
      else reject(new Error(message.error));
    };
    process.on('message', onMessage);
    process.send!({ type: CLUSTER_METRICS, id } satisfies ClusterMetricsMessage);
  });
}

/**
 * `GET /api/metrics` in Prometheus' text format, for a scraper that sends `Authorization: Bearer METRICS_TOKEN`:
 * every request by method, route pattern and status with its duration, the database pool, the open
 * notification streams, the kept list answers, and Node's own (event loop lag, memory, CPU, GC).
 * Under `WORKERS=N` the answer adds up every process of the machine; separate machines or containers
 * count their own: scrape each one, not the load balancer in front of them.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, sources: MetricsSources) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    if (cluster.isWorker) {
      // This process answers the primary's requests for its metrics with this registry's.
      new AggregatorRegistry();
      AggregatorRegistry.setRegistries([registry]);
    }

    const requests = new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status, with their duration (its _count counts requests).',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: DURATION_BUCKETS,
      registers: [registry],
    });
    app.addHook('onResponse', (request, reply, done) => {
      requests.observe(
        {
          method: request.method,
          // The pattern (`/api/tickets/:id`), never the raw URL: one series per route, whatever the ids.
          route: request.routeOptions.url ?? 'unmatched',
          status: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
      done();
    });

    if (sources.poolStats) {
      const poolStats = sources.poolStats;
      new Gauge({
        name: 'portal_db_pool_connections',
        help: 'Connections of the PostgreSQL pool, by state (busy or idle).',
        labelNames: ['state'] as const,
        registers: [registry],
        collect() {
          const { total, idle } = poolStats();
          this.set({ state: 'busy' }, total - idle);
          this.set({ state: 'idle' }, idle);
        },
      });
      new Gauge({
        name: 'portal_db_pool_waiting_queries',
        help: 'Queries waiting for a connection of the PostgreSQL pool.',
        registers: [registry],
        collect() {
          this.set(poolStats().waiting);
        },
      });
    }

    new Gauge({
      name: 'portal_notification_streams_open',
      help: 'Live notification streams (server-sent events) this process holds.',
      registers: [registry],
      collect() {
        this.set(sources.openStreams());
      },
    });

    // Read before the scrape's collection, so that this query is not counted among the pool's at work.
    let outboxCounts: Record<string, number> | undefined;
    if (sources.mailOutbox) {
      const mailOutbox = sources.mailOutbox;
      new Gauge({
        name: 'portal_mail_outbox',
        help: 'Mails in the outbox, by state: pending (waiting or between retries), sending, sent, failed.',
        labelNames: ['status'] as const,
        registers: [registry],
        // Every process reads the same table: under WORKERS the processes' values are not added up.
        aggregator: 'max',
        async collect() {
          const counts = outboxCounts ?? (await mailOutbox());
          outboxCounts = undefined;
          for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
        },
      });
    }

    if (sources.onReextractionStep) {
      const steps = new Histogram({
        name: 'portal_reference_reextraction_step_seconds',
        help: 'Writes of the background reference re-extraction (a cursor, or changed references), by how long each held the database: a ticket write waits at most that long.',
        buckets: STEP_BUCKETS,
        registers: [registry],
      });
      const longest = new Gauge({
        name: 'portal_reference_reextraction_step_max_seconds',
        help: 'The longest write of a reference re-extraction since the process started.',
        registers: [registry],
        aggregator: 'max',
      });
      let max = 0;
      sources.onReextractionStep((ms) => {
        steps.observe(ms / 1000);
        if (ms > max) longest.set((max = ms) / 1000);
      });
    }

    new Counter({
      name: 'portal_list_answers_total',
      help: 'Answers of the kept lists, by list and source: kept in memory, or read from the database.',
      labelNames: ['list', 'source'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [list, counts] of Object.entries(sources.listAnswerCounts)) {
          this.inc({ list, source: 'kept' }, counts.kept);
          this.inc({ list, source: 'database' }, counts.database);
        }
      },
    });

    const expected = digest(sources.token);
    app.get(
      '/api/metrics',
      { config: { access: 'public', noStore: true }, schema: { hide: true } },
      async (request, reply) => {
        // Compared as digests, in constant time: the answer tells nothing about how much of a guess was right.
        if (!timingSafeEqual(digest(bearerToken(request.headers.authorization)), expected)) {
          throw new HttpError(401, 'Se necesita el token de métricas.', {
            headers: { 'www-authenticate': 'Bearer realm="metrics"' },
          });
        }
        if (sources.mailOutbox && !cluster.isWorker) outboxCounts = await sources.mailOutbox();
        const text = cluster.isWorker ? await clusterMetrics() : await registry.metrics();
        return reply.type(registry.contentType).send(text);
      },
    );
  },
  { name: 'metrics' },
);
