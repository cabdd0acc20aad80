import { expect, test, type Browser, type Page } from '@playwright/test';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { RATE_LIMITS } from '../apps/api/src/lib/rate-limiter.ts';
import { E2E_TOPOLOGY_PORT } from '../playwright.config.ts';
import { passwordOf, signInWithForm } from './support.ts';
import { NGINX, startRelay, startTopology, type PortalProcess, type Topology } from './topology.ts';

/**
 * The company set-up (compose.yaml) proven without containers: nginx with deploy/nginx's
 * configuration in front of two portal processes on one PostgreSQL database and Redis, used in
 * Chromium through nginx only. Needs nginx (Debian's package) and Redis (`TEST_REDIS_URL`): without
 * either it is skipped, saying so, except in CI, where it must run.
 */

const isCi = !!process.env.CI;
const REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const missing = [
  !existsSync(NGINX) && `nginx is not installed at ${NGINX} (apt-get install nginx-light)`,
  !REDIS_URL && 'TEST_REDIS_URL is unset (set TEST_REDIS_URL=redis://127.0.0.1:6379)',
].filter((reason): reason is string => !!reason);
const skipReason = missing.length ? `skipping the nginx topology test: ${missing.join('; ')}` : '';
if (skipReason && !isCi) console.warn(`\n${skipReason}\n`);

// One topology for the three tests, in order; under load a sign-in alone can take seconds.
test.describe.configure({ mode: 'serial', timeout: 150_000 });
test.skip(!!skipReason && !isCi, skipReason);
test.use({ baseURL: `http://127.0.0.1:${E2E_TOPOLOGY_PORT}` });

let topology: Topology;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  if (skipReason) throw new Error(`CI must run the nginx topology test: ${missing.join('; ')}`);
  topology = await startTopology(E2E_TOPOLOGY_PORT, REDIS_URL!);
});
test.afterAll(async () => {
  await topology?.stop();
});
test.afterEach(async () => {
  const testInfo = test.info();
  if (testInfo.status === testInfo.expectedStatus || !topology) return;
  for (const [name, body] of Object.entries(topology.logs())) await testInfo.attach(name, { body });
});

const STREAM = '/api/notifications/stream?';
const isStreamOpened = (r: { url(): string; status(): number }) => r.url().includes(STREAM) && r.status() === 200;

/** Waits until both processes hold `count` notification streams in all (their metrics); the one holding all of them, and the other. */
async function holderOf(count: number): Promise<{ holder: PortalProcess; other: PortalProcess }> {
  const [a, b] = topology.processes;
  let held: [number, number] = [0, 0];
  await expect
    .poll(async () => {
      held = [await a.openStreams(topology.metricsToken), await b.openStreams(topology.metricsToken)];
      return held[0] + held[1];
    })
    .toBe(count);
  return held[0] === count ? { holder: a, other: b } : { holder: b, other: a };
}

/** A person's page, signed in through nginx with the form, once its notification stream is open. */
async function signedInPage(browser: Browser, username: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  const streamOpened = page.waitForResponse(isStreamOpened);
  await signInWithForm(page, username);
  await expect(page).toHaveURL(/\/tickets$/);
  await expect(page.getByText(`@${username}`)).toBeVisible();
  await streamOpened;
  return page;
}

/** Admin signs in on `process` directly, creates a ticket and assigns it to `userId` there; returns its id. */
async function assignThrough(process: PortalProcess, userId: number, name: string): Promise<number> {
  const login = await process.call(null, 'POST', '/api/login', { username: 'admin', password: passwordOf('admin') });
  expect(login.status).toBe(200);
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  const created = await process.call(token, 'POST', '/api/tickets/create', ticketBody(name));
  expect(created.status, await created.clone().text()).toBe(201);
  const ticketId = ((await created.json()) as { data: { id: number } }).data.id;
  expect((await process.call(token, 'PATCH', `/api/tickets/${ticketId}/assign/${userId}`)).status).toBe(200);
  return ticketId;
}

/** A ticket's create body with the first demo catalogue values (a fresh demo database: all active). */
const ticketBody = (name: string) => ({
  name,
  description: `Prueba de la topología ${name}`,
  area_id: 1,
  project_id: 1,
  category_id: 1,
  priority_type_id: 1,
  difficulty_id: 1,
  status_id: 1,
});

const userIdOf = async (page: Page) => Number(await page.evaluate(() => localStorage.getItem('userId')));

test('signs in through nginx; a ticket assigned through one process shows live where the other holds the stream', async ({
  browser,
}) => {
  const agente = await signedInPage(browser, 'agente');
  const { holder, other } = await holderOf(1);

  const ticketId = await assignThrough(other, await userIdOf(agente), 'Asignado en el otro proceso');
  // Live through the stream, unbuffered by nginx: the tray polls only once a minute.
  await expect(agente.getByText(`Ticket #${ticketId}`).first()).toBeVisible({ timeout: 5_000 });
  expect(await holder.openStreams(topology.metricsToken)).toBe(1);
  await agente.context().close();
});

test('failed sign-ins from one client behind nginx lock that client only', async ({ browser }) => {
  // Another office: its connections reach nginx from another address. It also sends an
  // X-Forwarded-For of its choosing, which nginx must replace with the address it sees.
  const officeAddress = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(2, 255)}`;
  const spoofed = '203.0.113.7';
  const relay = await startRelay(E2E_TOPOLOGY_PORT, officeAddress);
  try {
    const office = await (
      await browser.newContext({ baseURL: relay.url, extraHTTPHeaders: { 'x-forwarded-for': spoofed } })
    ).newPage();
    await office.goto('/login');
    const run = randomBytes(4).toString('hex');
    const attempt = async (username: string, password: string) => {
      await office.getByLabel('Usuario').fill(username);
      await office.getByRole('textbox', { name: 'Contraseña', exact: true }).fill(password);
      const answered = office.waitForResponse((r) => r.url().endsWith('/api/login'));
      await office.getByRole('button', { name: 'Iniciar Sesión' }).click();
      return (await answered).status();
    };
    // Unknown accounts, a new one each time, so only the address's limit is reached: all but the
    // last failure at once from the page, the last one through the form.
    const { limit } = RATE_LIMITS.loginAddress;
    const statuses = await office.evaluate(
      ({ run, count }) =>
        Promise.all(
          Array.from({ length: count }, (_, i) =>
            fetch('/api/login', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ username: `nadie-${run}-${i}`, password: 'NoEsLaClave1' }),
            }).then((r) => r.status),
          ),
        ),
      { run, count: limit - 1 },
    );
    expect(statuses).toEqual(Array<number>(limit - 1).fill(401));
    expect(await attempt(`nadie-${run}-${limit}`, 'NoEsLaClave1')).toBe(401);
    await expect(office.getByRole('alert').filter({ hasText: 'Tenemos un problema' })).toContainText(
      'Usuario o contraseña incorrectos.',
    );
    expect(await attempt('agente', passwordOf('agente'))).toBe(429);
    await expect(office.getByRole('alert').filter({ hasText: 'Tenemos un problema' })).toContainText(
      /Demasiados intentos\. Vuelve a intentarlo en \d+ (segundos|minuto)/,
    );
    await expect(office).toHaveURL(/\/login$/);

    // Everyone else, through the same nginx and both processes, signs in as before.
    const elsewhere = await signedInPage(browser, 'agente');
    await elsewhere.context().close();

    const byAddress = await topology.db.query<{ event: string; ip: string; n: number }>(
      `select event, ip, count(*)::int as n from audit_log
        where event in ('login.failure', 'login.throttled', 'login.success') group by event, ip order by event, ip`,
    );
    expect(byAddress.rows).toEqual(
      expect.arrayContaining([
        { event: 'login.failure', ip: officeAddress, n: limit },
        { event: 'login.throttled', ip: officeAddress, n: 1 },
      ]),
    );
    expect(byAddress.rows.filter((r) => r.event === 'login.success').map((r) => r.ip)).not.toContain(officeAddress);
    expect(byAddress.rows.map((r) => r.ip)).not.toContain(spoofed);
  } finally {
    await relay.close();
  }
});

test('SIGTERM of one process while people write: no acknowledged write lost, the stream moves to the other, the session stays', async ({
  browser,
}) => {
  const agente = await signedInPage(browser, 'agente');
  const { holder, other: survivor } = await holderOf(1);
  const admin = await signedInPage(browser, 'admin');
  await holderOf(2);

  // Admin's page creates tickets on four connections through nginx until told to stop.
  const prefix = `Escritura ${randomBytes(3).toString('hex')}`;
  const writing = admin.evaluate(
    async ({ prefix, body }) => {
      const w = window as unknown as { acked: number[]; failed: string[]; stop: boolean };
      w.acked = [];
      w.failed = [];
      w.stop = false;
      const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
      let n = 0;
      const writer = async () => {
        while (!w.stop) {
          n += 1;
          try {
            const response = await fetch('/api/tickets/create', {
              method: 'POST',
              headers: {
                authorization: `Bearer ${localStorage.getItem('token')}`,
                'x-csrf-token': csrf,
                'content-type': 'application/json',
              },
              body: JSON.stringify({ ...body, name: `${prefix} ${n}` }),
            });
            if (response.status === 201) w.acked.push(((await response.json()) as { data: { id: number } }).data.id);
            else w.failed.push(String(response.status));
          } catch (error) {
            w.failed.push(String(error));
          }
        }
      };
      await Promise.all([writer(), writer(), writer(), writer()]);
      return { acked: w.acked, failed: w.failed };
    },
    { prefix, body: ticketBody('') },
  );
  // Awaited below; should the test fail first, closing the page ends it without an unhandled rejection.
  writing.catch(() => undefined);
  const acked = () => admin.evaluate(() => (window as unknown as { acked?: number[] }).acked?.length ?? 0);
  await expect.poll(acked, { timeout: 30_000 }).toBeGreaterThanOrEqual(10);

  const streamReopened = agente.waitForResponse(isStreamOpened);
  holder.kill('SIGTERM');
  // The stopping process finishes what it was doing and exits cleanly.
  expect(await holder.exited).toBe(0);
  const ackedAtExit = await acked();
  // Writes go on through the other process.
  await expect.poll(acked, { timeout: 30_000 }).toBeGreaterThanOrEqual(ackedAtExit + 10);
  await admin.evaluate(() => ((window as unknown as { stop: boolean }).stop = true));
  const result = await writing;
  console.log(
    `writes through nginx: ${result.acked.length} acknowledged, ${result.failed.length} refused or failed` +
      (result.failed.length ? ` (${[...new Set(result.failed)].join(', ')})` : ''),
  );

  // Every acknowledged write is in the database; nothing was written twice.
  const stored = await topology.db.query<{ id: number }>('select id from tickets where name like $1', [`${prefix} %`]);
  const storedIds = new Set(stored.rows.map((r) => r.id));
  expect(result.acked.filter((id) => !storedIds.has(id))).toEqual([]);
  expect(stored.rows.length).toBeLessThanOrEqual(result.acked.length + result.failed.length);

  // Both browsers' streams reconnected through nginx to the process left.
  await streamReopened;
  expect(holder.isRunning).toBe(false);
  await expect.poll(() => survivor.openStreams(topology.metricsToken)).toBe(2);
  const ticketId = await assignThrough(survivor, await userIdOf(agente), 'Asignado tras el cierre');
  await expect(agente.getByText(`Ticket #${ticketId}`).first()).toBeVisible({ timeout: 5_000 });

  // The people stay signed in, also on a reload.
  for (const [page, username] of [
    [agente, 'agente'],
    [admin, 'admin'],
  ] as const) {
    await page.reload();
    await expect(page).toHaveURL(/\/tickets$/);
    await expect(page.getByText(`@${username}`)).toBeVisible();
    await expect(page.getByRole('table', { name: 'Mis Tickets' })).toBeVisible();
  }
});
