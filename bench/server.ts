import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from './lighthouse.ts';

const root = path.resolve(import.meta.dirname, '..');

export async function waitFor(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${url} did not answer in ${timeoutMs} ms`);
}

/**
 * CPU time (user + system) the process has used, in ms (Linux /proc, 100 ticks a second): per request, what a
 * server costs whatever else the shared machine runs (PostgreSQL's own work not included).
 */
export const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** `cpuMs` of a process and of every process it started (the serving processes of `WORKERS=N`). */
export const treeCpuMs = (pid: number): number => {
  let total = cpuMs(pid);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      if (parent === pid) total += treeCpuMs(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
};

export interface BenchServer {
  base: string;
  child: ChildProcess;
  /** Milliseconds from spawn to the first answer of /api/healthz. */
  startMs: number;
  stop(): Promise<void>;
}

/** The built server (apps/api/dist) on `dataDir` (SQLite) or `databaseUrl`, silent, on a free port of 127.0.0.1. */
export async function startServer(options: {
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string;
  /** Serve the built web app too (Lighthouse); otherwise the API alone. */
  withWeb?: boolean;
  env?: Record<string, string>;
}): Promise<BenchServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  // BENCH_CPU_PROF=DIR: each server writes a CPU profile (node --cpu-prof) into DIR when it stops.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, path.join(root, 'apps/api/dist/server.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      LOG_LEVEL: 'silent',
      ...(options.withWeb ? {} : { WEB_DIST: path.join(options.dataDir, 'no-web') }),
      JWT_SECRET: options.jwtSecret,
      DATABASE_URL: options.databaseUrl ?? '',
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  };
  try {
    await waitFor(`${base}/api/healthz`, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, child, startMs: performance.now() - started, stop };
}
