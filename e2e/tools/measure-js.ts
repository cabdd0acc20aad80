/**
 * Compressed JavaScript bytes that /login loads, and what signing in and
 * opening /areas adds, from a cold cache with `Accept-Encoding: br` (the API
 * serves the pre-compressed .br files):
 *   BASE_URL=http://127.0.0.1:8181 npx tsx e2e/tools/measure-js.ts
 */
import { launchChromium } from './browser.ts';

const base = process.env.BASE_URL ?? 'http://127.0.0.1:8181';
const browser = await launchChromium();
try {
  const context = await browser.newContext({ extraHTTPHeaders: { 'Accept-Encoding': 'br' } });
  const page = await context.newPage();
  const totals = { login: 0, areas: 0 };
  let phase: keyof typeof totals = 'login';
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (request) => {
    if (!request.url().endsWith('.js')) return;
    const current = phase;
    pending.push(
      (async () => {
        const { responseBodySize } = await request.sizes();
        const encoding = (await (await request.response())?.allHeaders())?.['content-encoding'] ?? 'identity';
        totals[current] += responseBodySize;
        console.log(
          `${current.padEnd(6)} ${String(responseBodySize).padStart(7)} B ${encoding.padEnd(4)} ${request.url().replace(base, '')}`,
        );
      })(),
    );
  });

  // /areas without a session shows /login; signing in then opens /areas itself.
  await page.goto(`${base}/areas`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'Iniciar Sesión' }).waitFor();
  await Promise.all(pending.splice(0));
  phase = 'areas';
  await page.getByLabel('Usuario').fill('admin');
  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill('PortalAdmin1');
  await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
  await page.getByRole('heading', { name: 'Áreas', level: 2 }).waitFor();
  await page.getByRole('table').getByRole('row').nth(1).waitFor();
  await page.waitForLoadState('networkidle');
  await Promise.all(pending.splice(0));
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB (${n} B)`;
  console.log(`\n/login loads ${kib(totals.login)} of compressed JavaScript`);
  console.log(`signing in and opening /areas adds ${kib(totals.areas)}`);
} finally {
  await browser.close();
}
