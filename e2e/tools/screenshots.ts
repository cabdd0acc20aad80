/**
 * Screenshots of the main screens for a visual check:
 *   BASE_URL=http://127.0.0.1:8181 OUT=/tmp/shots npx tsx e2e/tools/screenshots.ts
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { launchChromium } from './browser.ts';

const base = process.env.BASE_URL ?? 'http://127.0.0.1:8181';
const out = process.env.OUT ?? 'screenshots';
mkdirSync(out, { recursive: true });

const browser = await launchChromium();
const shot = async (page: import('@playwright/test').Page, name: string) => {
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(out, `${name}.png`) });
  console.log('wrote', path.join(out, `${name}.png`));
};

try {
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 }, locale: 'es-MX' });
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && console.log('console error:', m.text()));
  await page.goto(`${base}/login`);
  await page.getByRole('button', { name: 'Iniciar Sesión' }).waitFor();
  await shot(page, 'login');
  await page.getByLabel('Usuario').fill('admin');
  await page.getByLabel('Contraseña', { exact: false }).first().fill('PortalAdmin1');
  await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
  await page.waitForURL('**/tickets');
  await page.goto(`${base}/areas`);
  await page.waitForTimeout(3000);
  await shot(page, 'areas');
  await page.getByRole('cell', { name: 'Aduanas' }).waitFor();
  await page.getByRole('button', { name: 'Agregar' }).click();
  await page.getByRole('dialog').waitFor();
  await shot(page, 'areas-modal');
  await page.keyboard.press('Escape');
  await page.goto(`${base}/users`);
  await page.getByRole('cell', { name: 'admin', exact: true }).waitFor();
  await shot(page, 'users');
  await page.getByRole('button', { name: 'Agregar' }).click();
  await page.getByRole('dialog').waitFor();
  await shot(page, 'users-modal');
  await page.getByRole('dialog').getByLabel(/^Rol/).click();
  await page.getByRole('textbox', { name: 'Buscar...', exact: true }).filter({ visible: true }).fill('zz');
  await shot(page, 'select-empty');
  await page.getByRole('textbox', { name: 'Buscar...', exact: true }).filter({ visible: true }).fill('');
  await shot(page, 'select-open');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.goto(`${base}/routes`);
  await page.getByRole('tab', { name: 'Roles' }).waitFor();
  await page.getByRole('cell', { name: 'Administrador' }).waitFor();
  await shot(page, 'routes');
  await page.getByRole('tab', { name: 'Permisos de Secciones' }).click();
  await page.getByRole('columnheader', { name: 'R', exact: true }).waitFor();
  await page.waitForTimeout(800);
  await shot(page, 'routes-section-permissions');
  await page
    .getByRole('button', { name: 'Fijar menú abierto' })
    .or(page.getByRole('button', { name: 'Desfijar menú' }))
    .click();
  await page.mouse.move(900, 400);
  await shot(page, 'sidebar-collapsed');
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`${base}/areas`);
  await page.getByRole('cell', { name: 'Aduanas' }).waitFor();
  await shot(page, 'mobile-areas');
  await page.getByRole('button', { name: 'Abrir menú' }).click();
  await shot(page, 'mobile-drawer');
  await page.goto(`${base}/no-existe`);
  await shot(page, 'not-found');
} finally {
  await browser.close();
}
