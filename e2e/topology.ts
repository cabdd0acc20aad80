import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * The company set-up of compose.yaml without containers: nginx (Debian's package) in front of two
 * portal processes (the built server) on one fresh PostgreSQL database and Redis. nginx runs a
 * throwaway configuration made from deploy/nginx/portal.conf itself (only the upstream addresses and
 * the listening port change) and includes deploy/nginx/portal-locations.nginx as it is, so the
 * test proves those files.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(ROOT, 'apps/api/dist/server.js');
const DEPLOY_NGINX = path.join(ROOT, 'deploy/nginx');
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const until = async (what: string, timeoutMs: number, check: () => Promise<boolean>) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const tail = (file: string, lines = 40) =>
  existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n') : '(no log)';

/** One portal process (`node apps/api/dist/server.js`), as one container of compose.yaml runs it. */
export class PortalProcess {
  readonly url: string;
  readonly logFile: string;
  private child: ChildProcess | null = null;
  private csrf: string | undefined;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string> = Promise.resolve('not started');

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly dir: string,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    this.logFile = path.join(dir, `${name}.log`);
  }

  async start(): Promise<void> {
    const out = openSync(this.logFile, 'a');
    // Started from the temporary folder, so a developer's `.env` in the repository is not read.
    const child = spawn(process.execPath, [SERVER], {
      cwd: this.dir,
      env: { PATH: process.env.PATH ?? '', PORT: String(this.port), HOST: '127.0.0.1', ...this.env },
      stdio: ['ignore', out, out],
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
    let hasEnded = false;
    void this.exited.then(() => (hasEnded = true));
    await until(`${this.name} to be ready`, 60_000, async () => {
      if (hasEnded) throw new Error(`${this.name} ended while starting:\n${tail(this.logFile)}`);
      return (await fetch(`${this.url}/api/readyz`)).ok;
    }).catch((error: Error) => {
      throw new Error(hasEnded ? `${this.name} ended while starting:\n${tail(this.logFile)}` : error.message);
    });
  }

  /** Sends the signal; `exited` tells when the process is gone. */
  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }

  get isRunning(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The live notification streams this process holds, from its own metrics. */
  async openStreams(metricsToken: string): Promise<number> {
    const response = await fetch(`${this.url}/api/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    if (!response.ok) throw new Error(`${this.name} metrics: ${response.status}`);
    const match = /^portal_notification_streams_open (\d+)$/m.exec(await response.text());
    if (!match) throw new Error(`${this.name} metrics: no portal_notification_streams_open`);
    return Number(match[1]);
  }

  /** A JSON request straight to this process (not through nginx), with a bearer token and the CSRF header. */
  async call(token: string | null, method: string, url: string, body?: unknown): Promise<Response> {
    // The anti-forgery token the web app reads from its page's meta tag.
    this.csrf ??= /<meta name="csrf-token" content="([^"]+)"/.exec(
      await (await fetch(`${this.url}/login`)).text(),
    )?.[1];
    const csrf = this.csrf;
    return fetch(`${this.url}${url}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(csrf ? { 'x-csrf-token': csrf } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
}

/** deploy/nginx/portal.conf with the upstreams and port of this machine: each change must find its line. */
function nginxConfig(dir: string, port: number, upstreams: [number, number]): string {
  let conf = readFileSync(path.join(DEPLOY_NGINX, 'portal.conf'), 'utf8');
  const change = (pattern: RegExp, replacement: string) => {
    if (!pattern.test(conf)) throw new Error(`deploy/nginx/portal.conf no longer has a line matching ${pattern}`);
    conf = conf.replace(pattern, replacement);
  };
  change(/^(\s*)server portal-1:8080\b/m, `$1server 127.0.0.1:${upstreams[0]}`);
  change(/^(\s*)server portal-2:8080\b/m, `$1server 127.0.0.1:${upstreams[1]}`);
  change(/^(\s*)listen 80;/m, `$1listen 127.0.0.1:${port};`);
  change(/^\s*listen \[::\]:80;\n/m, '');
  change(
    /^(\s*)include conf\.d\/portal-locations\.nginx;/m,
    `$1include ${path.join(DEPLOY_NGINX, 'portal-locations.nginx')};`,
  );
  const temp = (name: string) => path.join(dir, name);
  return `# Made by e2e/topology.ts from deploy/nginx/portal.conf.
pid ${temp('nginx.pid')};
error_log ${temp('nginx-error.log')} warn;
worker_processes 1;
events { worker_connections 512; }
http {
  access_log ${temp('nginx-access.log')};
  client_body_temp_path ${temp('client_body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
${conf}
}
`;
}

/** A plain TCP relay to `port` whose connections leave from `localAddress`: another client, as far as nginx can tell. */
export async function startRelay(port: number, localAddress: string): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: '127.0.0.1', port, localAddress });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: relayPort } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${relayPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface Topology {
  nginxUrl: string;
  processes: [PortalProcess, PortalProcess];
  metricsToken: string;
  /** A client of the topology's own database. */
  db: pg.Client;
  /** The logs of both processes and nginx, for a failed test's attachments. */
  logs(): Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Starts the topology: a fresh database, process A (which migrates and seeds it), then process B
 * once A is ready (as compose.yaml orders them), then nginx on `port` in front of both, on the
 * following two ports. Both processes share DATA_DIR, JWT_SECRET, REDIS_URL and TRUST_PROXY=1.
 */
export async function startTopology(port: number, redisUrl: string): Promise<Topology> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-topology-'));
  // nginx's workers run as `nobody` when the test runs as root: they must reach their temporary folders.
  chmodSync(dir, 0o755);
  const dataDir = path.join(dir, 'data');
  mkdirSync(dataDir);

  const dbName = `portal_e2e_topology_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const databaseUrl = new URL(PG_ADMIN_URL);
  databaseUrl.pathname = `/${dbName}`;

  const metricsToken = randomBytes(24).toString('base64url');
  const env = {
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: redisUrl,
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(36).toString('base64url'),
    TRUST_PROXY: '1',
    SEED_DEMO: '1',
    METRICS_TOKEN: metricsToken,
    LOG_LEVEL: 'warn',
  };
  const processes: [PortalProcess, PortalProcess] = [
    new PortalProcess('portal-A', port + 1, env, dir),
    new PortalProcess('portal-B', port + 2, env, dir),
  ];
  let nginx: ChildProcess | null = null;
  let db: pg.Client | null = null;
  const nginxExited = { value: false };

  const stop = async () => {
    for (const p of processes) p.kill('SIGTERM');
    if (nginx && !nginxExited.value) {
      const gone = new Promise((resolve) => nginx!.once('exit', resolve));
      nginx.kill('SIGQUIT');
      await gone;
    }
    await Promise.all(processes.map((p) => p.exited));
    await db?.end().catch(() => undefined);
    const cleanup = new pg.Client({ connectionString: PG_ADMIN_URL });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${dbName} with (force)`);
    await cleanup.end();
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await processes[0].start();
    await processes[1].start();

    const confFile = path.join(dir, 'nginx.conf');
    writeFileSync(confFile, nginxConfig(dir, port, [processes[0].port, processes[1].port]));
    const nginxArgs = ['-p', dir, '-c', confFile, '-e', path.join(dir, 'nginx-error.log')];
    const check = spawnSync(NGINX, [...nginxArgs, '-t'], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`nginx -t refused the configuration:\n${check.stderr}`);
    nginx = spawn(NGINX, [...nginxArgs, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
    nginx.once('exit', () => (nginxExited.value = true));
    const nginxUrl = `http://127.0.0.1:${port}`;
    await until('nginx to answer', 15_000, async () => {
      if (nginxExited.value) throw new Error(`nginx ended:\n${tail(path.join(dir, 'nginx-error.log'))}`);
      return (await fetch(`${nginxUrl}/api/readyz`)).ok;
    });

    db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    return {
      nginxUrl,
      processes,
      metricsToken,
      db,
      logs: () => ({
        'portal-A.log': tail(processes[0].logFile, 200),
        'portal-B.log': tail(processes[1].logFile, 200),
        'nginx-error.log': tail(path.join(dir, 'nginx-error.log'), 200),
        'nginx-access.log': tail(path.join(dir, 'nginx-access.log'), 200),
      }),
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
