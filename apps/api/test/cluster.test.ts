import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createTestApp, type TestApp } from './helper.ts';

const METRICS_TOKEN = 'metrics-token-0123456789';
const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `npm start`'s server, from the sources, with JSON logs on stdout. */
function startServer(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-cluster-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: apiDir,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info', WEB_DIST: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  /** The JSON log lines so far. */
  const logs = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { pid: number; msg: string });
  return {
    child,
    port,
    exited,
    logs,
    stderr: () => stderr,
    /** The processes that have started listening. */
    listeningPids: () =>
      new Set(
        logs()
          .filter((l) => l.msg.startsWith('Portal de tickets listening'))
          .map((l) => l.pid),
      ),
    cleanup() {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A GET on a new connection each time, so the primary hands each one to a process of its choice. */
function getOnNewConnection(
  port: number,
  urlPath: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, headers, agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('WORKERS', () => {
  it('is auto (one process per core) or a number, and more than one only on PostgreSQL', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-config-'));
    const env = { DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32) };
    const postgres = { ...env, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/portal' };
    try {
      expect(loadConfig(env).workers).toBe(1);
      expect(loadConfig({ ...postgres, WORKERS: '3' }).workers).toBe(3);
      expect(loadConfig({ ...postgres, WORKERS: 'auto' }).workers).toBe(availableParallelism());
      for (const WORKERS of ['0', '-1', 'two', '1.5']) {
        expect(() => loadConfig({ ...postgres, WORKERS }), WORKERS).toThrow(/WORKERS must be auto or a number/);
      }
      expect(() => loadConfig({ ...env, WORKERS: '2' })).toThrow(/WORKERS: 2 processes need PostgreSQL/);
      expect(loadConfig({ ...env, WORKERS: '1' }).workers).toBe(1);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses to start several processes on SQLite, saying why', { timeout: 30_000 }, async () => {
    const server = startServer({ WORKERS: '2', DATABASE_URL: '' });
    try {
      expect(await server.exited).toBe(1);
      expect(server.stderr()).toContain('WORKERS: 2 processes need PostgreSQL (DATABASE_URL)');
      expect(server.stderr()).not.toMatch(/\n\s+at /);
      expect(server.listeningPids().size).toBe(0);
    } finally {
      server.cleanup();
    }
  });
});

describe('WORKERS=2 on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A migrated, seeded database for the processes to share; this app itself serves nothing.
    t = await createTestApp('postgres');
  });
  afterAll(async () => {
    await t?.close();
  });

  it(
    'serves from two processes on one port, replaces one that dies, and stops both on SIGTERM',
    { timeout: 90_000 },
    async () => {
      const server = startServer({ WORKERS: '2', DATABASE_URL: t.config.databaseUrl!, METRICS_TOKEN });
      try {
        await expect.poll(() => server.listeningPids().size, { timeout: 45_000, interval: 100 }).toBe(2);
        const first = server.listeningPids();
        expect(first.has(server.child.pid!)).toBe(false);

        // Connections are shared between the processes: both answer.
        const served = async () => {
          const statuses = [];
          for (let i = 0; i < 20; i += 1) statuses.push((await getOnNewConnection(server.port, '/api/readyz')).status);
          expect(statuses.every((s) => s === 200)).toBe(true);
          return new Set(
            server
              .logs()
              .filter((l) => l.msg === 'request completed')
              .map((l) => l.pid),
          );
        };
        expect(await served()).toEqual(first);

        // Whichever process answers the scrape, its metrics add up both processes' requests.
        for (let i = 0; i < 4; i += 1) {
          const scrape = await getOnNewConnection(server.port, '/api/metrics', {
            authorization: `Bearer ${METRICS_TOKEN}`,
          });
          expect(scrape.status).toBe(200);
          expect(scrape.body).toContain(
            'portal_http_request_duration_seconds_count{method="GET",route="/api/readyz",status="200"} 20\n',
          );
        }

        const [victim] = first;
        process.kill(victim!, 'SIGKILL');
        await expect.poll(() => server.listeningPids().size, { timeout: 45_000, interval: 100 }).toBe(3);
        expect((await getOnNewConnection(server.port, '/api/readyz')).status).toBe(200);

        const pids = server.listeningPids();
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
        for (const pid of pids) expect(() => process.kill(pid, 0), `process ${pid} still runs`).toThrow();
        await expect(getOnNewConnection(server.port, '/api/healthz')).rejects.toThrow();
      } finally {
        server.cleanup();
      }
    },
  );
});
