/**
 * Lighthouse on the built portal, in the system Chromium (never a downloaded
 * browser): /login and /tickets (signed in as `agente`, with a full tray of
 * unread notifications, as at a fresh sign-in), each with the mobile preset
 * (slow 4G, 4× CPU) and the desktop preset, three runs each; reports the median
 * performance and accessibility scores, LCP, TBT and CLS.
 *
 *   npx tsx bench/lighthouse.ts                        # a fresh demo database
 *   npx tsx bench/lighthouse.ts --data-dir /tmp/portal-bench-NAME   # e.g. the bench's kept 1M database
 *   npx tsx bench/lighthouse.ts --base http://127.0.0.1:8080        # a server already running
 *   npx tsx bench/lighthouse.ts --pages /tickets --presets mobile   # one page, one preset
 *
 * `npm run bench` runs it too (on its first dialect's database, after the API
 * figures); `--only lighthouse` runs just it there. Results go to
 * bench/results/lighthouse-*.json. Each run gets a fresh browser profile: the
 * cache is cold, and /tickets finds only the session in local storage.
 */
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags } from 'lighthouse';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromiumLaunchOptions } from '../e2e/tools/browser.ts';

const root = path.resolve(import.meta.dirname, '..');
// The e2e tests' system Chromium and flags: never a downloaded browser.
const chromePath = chromiumLaunchOptions.executablePath!;
const chromeFlags = chromiumLaunchOptions.args!;

const ADMIN = { username: 'admin', password: 'PortalAdmin1' };
const AGENT = { username: 'agente', password: 'PortalDemo1' };
/** As many as the tray shows (MAX_ACTIVE_NOTIFICATIONS): the largest notifications answer. */
const UNREAD_NOTIFICATIONS = 100;

export type Preset = 'mobile' | 'desktop';
export interface LighthouseRow {
  page: string;
  preset: Preset;
  performance: number;
  'performance (runs)': string;
  accessibility: number;
  'LCP ms': number;
  'TBT ms': number;
  CLS: number;
  /** Audits of accessibility and weighed performance metrics scoring under 0.9 in any run. */
  notes: string;
}

interface Signed {
  token: string;
  user: { id: number };
}

async function post<T>(
  base: string,
  url: string,
  body: unknown,
  token?: string,
  method = 'POST',
  csrf?: string,
): Promise<T> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(csrf ? { 'x-csrf-token': csrf } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

const signIn = async (base: string, who: typeof ADMIN) => (await post<{ data: Signed }>(base, '/api/login', who)).data;

/**
 * Gives the measured user a full tray: tickets the admin creates and assigns
 * to them, each assignment one unread notification (only what is missing).
 */
async function fillTray(base: string, agent: Signed) {
  const unread = (
    await post<{ data: unknown[] }>(base, '/api/notifications/active-records', undefined, agent.token, 'GET')
  ).data.length;
  if (unread >= UNREAD_NOTIFICATIONS) return;
  const admin = await signIn(base, ADMIN);
  // What the web app sends with a change: the anti-forgery token of its page.
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(await (await fetch(`${base}/login`)).text())?.[1];
  if (!csrf) throw new Error('no csrf-token in the page: is the web app built?');
  for (let i = unread; i < UNREAD_NOTIFICATIONS; i++) {
    const created = await post<{ data: { id: number } }>(
      base,
      '/api/tickets/create',
      {
        name: `Revisión de inventario ${i + 1}`,
        description: 'Conteo cíclico del pasillo con diferencias',
        area_id: 1,
        project_id: 1,
        category_id: 1,
        priority_type_id: 3,
        difficulty_id: 1,
        status_id: 1,
      },
      admin.token,
    );
    await post(base, `/api/tickets/${created.data.id}/assign/${agent.user.id}`, undefined, admin.token, 'PATCH', csrf);
  }
}

/** A fresh profile whose local storage holds `agent`'s session, as the web app saves it at sign-in. */
async function profileWithSession(base: string, agent: Signed): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-lighthouse-'));
  const context = await chromium.launchPersistentContext(dir, { executablePath: chromePath, args: chromeFlags });
  try {
    const page = await context.newPage();
    // A same-origin JSON answer: the storage is the app's, and the cache stays empty of the app's files.
    await page.goto(`${base}/api/healthz`);
    await page.evaluate((s) => {
      localStorage.setItem('token', s.token);
      localStorage.setItem('user', JSON.stringify(s.user));
      localStorage.setItem('userId', String(s.user.id));
    }, agent);
  } finally {
    await context.close();
  }
  return dir;
}

interface Run {
  performance: number;
  accessibility: number;
  lcp: number;
  tbt: number;
  cls: number;
  failing: string[];
  report: string;
}

async function runOnce(url: string, preset: Preset, userDataDir: string | undefined): Promise<Run> {
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags,
    ...(userDataDir ? { userDataDir } : {}),
    logLevel: 'silent',
  });
  try {
    const flags: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      disableStorageReset: userDataDir !== undefined,
    };
    const result = await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined);
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const failing = Object.entries(lhr.audits)
      .filter(([id, audit]) => {
        if (audit.score === null || audit.score >= 0.9) return false;
        const inCategory = (category: string) =>
          lhr.categories[category]?.auditRefs.some((ref) => ref.id === id && ref.weight > 0);
        return inCategory('accessibility') || inCategory('performance');
      })
      .map(([id]) => id);
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      lcp: numeric('largest-contentful-paint'),
      tbt: numeric('total-blocking-time'),
      cls: numeric('cumulative-layout-shift'),
      failing,
      report: JSON.stringify(lhr),
    };
  } finally {
    await chrome.kill();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** Lighthouse on /login and /tickets of the portal at `base`, both presets, `runs` runs each. */
export async function runLighthouse(
  base: string,
  {
    runs = 3,
    log = console.log,
    reportsDir = undefined as string | undefined,
    pages = ['/login', '/tickets'],
    presets = ['mobile', 'desktop'] as Preset[],
  } = {},
): Promise<LighthouseRow[]> {
  const agent = await signIn(base, AGENT);
  await fillTray(base, agent);
  const rows: LighthouseRow[] = [];
  for (const page of pages) {
    const signedIn = page !== '/login';
    for (const preset of presets) {
      const results: Run[] = [];
      for (let i = 0; i < runs; i++) {
        // A fresh session each run: its notifications were never shown in this profile.
        for (let attempt = 1; ; attempt++) {
          const profile = signedIn ? await profileWithSession(base, await signIn(base, AGENT)) : undefined;
          try {
            results.push(await runOnce(`${base}${page}`, preset, profile));
            break;
          } catch (error) {
            // Now and then Chromium loses the trace (NO_NAVSTART…): that run is taken again.
            if (attempt === 3) throw error;
            log(`  lighthouse ${page} ${preset}: ${(error as Error).message.slice(0, 160)}; again`);
          } finally {
            if (profile) rmSync(profile, { recursive: true, force: true });
          }
        }
        const last = results.at(-1)!;
        if (reportsDir) {
          mkdirSync(reportsDir, { recursive: true });
          writeFileSync(path.join(reportsDir, `${page.slice(1)}-${preset}-${i + 1}.json`), last.report);
        }
        log(
          `  lighthouse ${page} ${preset} run ${i + 1}: performance ${last.performance}, accessibility ${last.accessibility}, LCP ${Math.round(last.lcp)} ms, TBT ${Math.round(last.tbt)} ms, CLS ${last.cls.toFixed(3)}`,
        );
      }
      const performances = results.map((r) => r.performance);
      rows.push({
        page,
        preset,
        performance: median(performances),
        'performance (runs)': performances.join(' '),
        accessibility: median(results.map((r) => r.accessibility)),
        'LCP ms': Math.round(median(results.map((r) => r.lcp))),
        'TBT ms': Math.round(median(results.map((r) => r.tbt))),
        CLS: Number(median(results.map((r) => r.cls)).toFixed(3)),
        notes: [...new Set(results.flatMap((r) => r.failing))].join(', '),
      });
    }
  }
  return rows;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Builds what is stale (web, server) and starts the built server on `dataDir` (seeded with the demo when empty). */
async function startServer(dataDir: string) {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-stale'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('build failed');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [path.join(root, 'apps/api/dist/server.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SEED_DEMO: '1',
      LOG_LEVEL: 'warn',
      JWT_SECRET: randomBytes(32).toString('hex'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const started = Date.now();
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    if (Date.now() - started > 120_000) throw new Error('server did not start in 120 s');
    try {
      if ((await fetch(`${base}/api/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const stop = async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  };
  return { base, stop };
}

export function printLighthouse(rows: LighthouseRow[]) {
  console.log('\nLighthouse, median of the runs (mobile: slow 4G, 4× CPU):');
  console.table(rows.map(({ notes: _notes, ...row }) => row));
  for (const row of rows) if (row.notes) console.log(`  ${row.page} ${row.preset}: ${row.notes}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values: args } = parseArgs({
    options: {
      base: { type: 'string' },
      'data-dir': { type: 'string' },
      runs: { type: 'string', default: '3' },
      /** A folder for every run's full Lighthouse report (JSON), to see what costs points. */
      reports: { type: 'string' },
      /** Only these pages or presets, comma-separated (quicker iterations): `--pages /tickets --presets mobile`. */
      pages: { type: 'string', default: '/login,/tickets' },
      presets: { type: 'string', default: 'mobile,desktop' },
    },
  });
  const freshDir =
    args.base || args['data-dir'] ? undefined : mkdtempSync(path.join(tmpdir(), 'portal-lighthouse-data-'));
  const server = args.base ? undefined : await startServer(args['data-dir'] ?? freshDir!);
  try {
    const base = args.base ?? server!.base;
    const rows = await runLighthouse(base, {
      runs: Number(args.runs),
      reportsDir: args.reports,
      pages: args.pages.split(','),
      presets: args.presets.split(',') as Preset[],
    });
    printLighthouse(rows);
    const resultsDir = path.join(root, 'bench/results');
    mkdirSync(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `lighthouse-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, JSON.stringify({ base, runs: Number(args.runs), loadavg: loadavg(), rows }, null, 2));
    console.log(`Results written to ${path.relative(process.cwd(), file)}`);
  } finally {
    await server?.stop();
    if (freshDir) rmSync(freshDir, { recursive: true, force: true });
  }
}
