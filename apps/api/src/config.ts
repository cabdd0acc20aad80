import { DEFAULT_ATTACHMENT_MAX_BYTES } from '@portal/contract';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must have at least 32 characters').optional(),
  TOKEN_TTL_MINUTES: z.coerce
    .number()
    .positive()
    .max(60 * 24 * 30)
    .default(60),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Portal de tickets <no-reply@portal.local>'),
  MAIL_REPLY_ADDRESS: z
    .string()
    .regex(/^[^\s@+]+@[^\s@]+$/, 'MAIL_REPLY_ADDRESS must be an address without + (soporte@empresa.mx)')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^\s]+$/, 'PUBLIC_URL must be an http(s):// address')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_POLL_MS: z.coerce.number().int().min(10).default(1000),
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(10).default(15_000),
  SLA_SWEEP_MS: z.coerce.number().int().min(0).default(30_000),
  MAIL_IN_URL: z
    .string()
    .regex(
      /^imaps?:\/\/[^\s]+$/,
      'MAIL_IN_URL must be an imaps:// (or imap://) address: imaps://user:pass@host:993/INBOX',
    )
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_IN_POLL_MS: z.coerce.number().int().min(10).default(60_000),
  MAIL_IN_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
  REDIS_URL: z.string().optional(),
  SEED_DEMO: z.enum(['0', '1']).default('1'),
  ADMIN_PASSWORD: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(256 * 1024),
  ATTACHMENT_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .max(1024 * 1024 * 1024)
    .default(DEFAULT_ATTACHMENT_MAX_BYTES),
  SERVED_OVER_HTTPS: z.enum(['0', '1']).default('0'),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (parsed === null) {
        ctx.addIssue({
          code: 'custom',
          message: 'TRUST_PROXY must be true, false, a hop count or a comma-separated list of addresses/CIDRs',
        });
        return z.NEVER;
      }
      return parsed;
    }),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(500).default(10_000),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).default(72_000),
  MAX_CONNECTIONS: z.coerce.number().int().positive().default(1_000),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).default(365),
  WORKERS: z
    .string()
    .default('1')
    .transform((value, ctx) => {
      const v = value.trim().toLowerCase();
      if (v === 'auto') return availableParallelism();
      if (/^[1-9]\d*$/.test(v)) return Number(v);
      ctx.addIssue({ code: 'custom', message: 'WORKERS must be auto or a number of processes (1 or more)' });
      return z.NEVER;
    }),
  METRICS_TOKEN: z
    .string()
    .min(16, 'METRICS_TOKEN must have at least 16 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

/** `TRUST_PROXY` as Fastify's `trustProxy` takes it: a boolean, a hop count, or addresses and CIDR ranges. */
export function parseTrustProxy(value: string): boolean | number | string[] | null {
  const v = value.trim().toLowerCase();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v.split(',').map((a) => a.trim());
  const isAddress = (a: string) =>
    /^[0-9a-f.:]+(\/\d{1,3})?$/.test(a) || a === 'loopback' || a === 'linklocal' || a === 'uniquelocal';
  return list.length > 0 && list.every(isAddress) ? list : null;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  sqliteFile: string;
  jwtSecret: string;
  tokenTtlMinutes: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Replies to notification mails go to this address with a per-ticket `+t<id>.<token>`; unset, no Reply-To. */
  mailReplyAddress: string | undefined;
  /** The portal's address as people open it, for the links in mails. */
  publicUrl: string;
  /** How often the mail outbox is read when nothing woke it, and its first retry's delay (doubling). */
  mailPollMs: number;
  /** Between two SLA alert sweeps in each process; 0: none (modules/sla/sla-alerts.ts). */
  slaSweepMs: number;
  mailRetryBaseMs: number;
  /** The mailbox replies and new tickets arrive in (`imaps://user:pass@host:993/INBOX`); unset, nothing polls. */
  mailInUrl: string | undefined;
  /** How often it is read, and the largest message read (a larger one goes to Errores unread). */
  mailInPollMs: number;
  mailInMaxBytes: number;
  redisUrl: string | undefined;
  seedDemo: boolean;
  adminPassword: string | undefined;
  logLevel: string;
  webDist: string | undefined;
  bodyLimit: number;
  /** Largest file a ticket attachment may have. */
  attachmentMaxBytes: number;
  /** The portal is reached over https (the CSP then carries upgrade-insecure-requests). */
  servedOverHttps: boolean;
  /** Fastify's `trustProxy`: which proxies' X-Forwarded-For is believed (client address for rate limits, audit). */
  trustProxy: boolean | number | string[];
  /** Longest time to receive a whole request, and its headers; idle keep-alive time; open connections at most. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  auditRetentionDays: number;
  /** Processes serving the portal (`node:cluster`); more than one only on PostgreSQL. */
  workers: number;
  /** The bearer token of GET /api/metrics; unset, the portal serves no metrics. */
  metricsToken: string | undefined;
}

/** A configuration the portal cannot start with: its message names each variable and what is wrong. */
export class ConfigError extends Error {}

/** Reads the configuration (README's table) from an environment object. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.WORKERS > 1 && !e.DATABASE_URL) {
    throw new ConfigError(
      `Invalid configuration:\nWORKERS: ${e.WORKERS} processes need PostgreSQL (DATABASE_URL); SQLite is served by one process, leave WORKERS unset`,
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    sqliteFile: path.join(dataDir, 'portal.sqlite'),
    jwtSecret: e.JWT_SECRET ?? persistentSecret(dataDir, 'jwt-secret'),
    tokenTtlMinutes: e.TOKEN_TTL_MINUTES,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    mailReplyAddress: e.MAIL_REPLY_ADDRESS,
    publicUrl: e.PUBLIC_URL ?? `http://${e.HOST === '0.0.0.0' ? 'localhost' : e.HOST}:${e.PORT}`,
    mailPollMs: e.MAIL_POLL_MS,
    slaSweepMs: e.SLA_SWEEP_MS,
    mailRetryBaseMs: e.MAIL_RETRY_BASE_MS,
    mailInUrl: e.MAIL_IN_URL,
    mailInPollMs: e.MAIL_IN_POLL_MS,
    mailInMaxBytes: e.MAIL_IN_MAX_BYTES,
    redisUrl: e.REDIS_URL || undefined,
    seedDemo: e.SEED_DEMO === '1',
    adminPassword: e.ADMIN_PASSWORD || undefined,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST,
    bodyLimit: e.BODY_LIMIT_BYTES,
    attachmentMaxBytes: e.ATTACHMENT_MAX_BYTES,
    servedOverHttps: e.SERVED_OVER_HTTPS === '1',
    trustProxy: e.TRUST_PROXY,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: Math.min(e.HEADERS_TIMEOUT_MS, e.REQUEST_TIMEOUT_MS),
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: e.MAX_CONNECTIONS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    workers: e.WORKERS,
    metricsToken: e.METRICS_TOKEN,
  };
}

/** Creates DATA_DIR readable by the portal's user only (0700), and makes it so if it exists. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** A random secret generated on first start and kept in DATA_DIR (0600), so tokens survive restarts. */
function persistentSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    return readFileSync(file, 'utf8').trim();
  }
  ensurePrivateDir(dataDir);
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}
