import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { sidebar, signInQuickly, signInWithForm, untilSettled } from './support.ts';

test('the administrator opens Auditoría, finds their own sign-in and downloads the CSV', async ({ page }) => {
  const failed = await page.request.post('/api/login', { data: { username: 'nadie', password: 'Equivocada1' } });
  expect(failed.status()).toBe(401);
  await signInWithForm(page, 'admin');
  await expect(page).toHaveURL(/\/tickets$/);

  await sidebar(page).getByRole('link', { name: 'Auditoría' }).click();
  await expect(page).toHaveURL(/\/audit-log$/);
  await expect(page.getByRole('heading', { name: 'Auditoría', level: 2 })).toBeVisible();

  const table = page.getByRole('table', { name: 'Auditoría' });
  const ownSignIn = table
    .getByRole('row')
    .filter({ hasText: 'Inicio de sesión' })
    .filter({ hasText: '@admin' })
    .first();
  await expect(ownSignIn).toBeVisible();
  await expect(ownSignIn).toContainText('Ana Administradora');
  await expect(ownSignIn).toContainText('127.0.0.1');
  await expect(page.getByText(/^Mostrando 1–\d+ de \d+ eventos?$/)).toBeVisible();
  // Details read as Spanish, never as the JSON they are stored as.
  await expect(
    table.getByRole('row').filter({ hasText: 'Inicio de sesión fallido' }).first().getByRole('cell').nth(4),
  ).toHaveText('Motivo: usuario inexistente');
  const details = await table.getByRole('row').locator('td:nth-child(5)').allInnerTexts();
  expect(details.filter((text) => /[{}"]/.test(text))).toEqual([]);

  // Only sign-ins.
  await page.getByRole('combobox', { name: 'Acción' }).click();
  await page.getByRole('option', { name: 'Inicio de sesión', exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(table.getByRole('row').nth(1)).toContainText('Inicio de sesión');
  const actions = await table.getByRole('row').locator('td:nth-child(3)').allInnerTexts();
  expect(actions.length).toBeGreaterThan(0);
  expect(new Set(actions)).toEqual(new Set(['Inicio de sesión']));

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^auditoria-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  expect(csv.startsWith('\uFEFFFecha,Usuario,Acción,Dirección,Detalles,Evento,Fecha (UTC)\r\n')).toBe(true);
  expect(csv).toContain('Ana Administradora (@admin),Inicio de sesión,127.0.0.1');
  expect(
    csv
      .split('\r\n')
      .filter(Boolean)
      .slice(1)
      .every((line) => line.includes(',login.success,')),
  ).toBe(true);
  await expect(page.getByText('Exportación lista')).toBeVisible();
});

test('the supervisor has no Auditoría in the menu and cannot open it', async ({ page }) => {
  await signInQuickly(page, 'supervisor');
  await page.goto('/workload');
  const menu = sidebar(page);
  await expect(menu.getByRole('link', { name: 'Usuarios' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Auditoría' })).toHaveCount(0);

  await page.goto('/audit-log');
  await expect(page.getByRole('heading', { name: 'Acceso denegado' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Auditoría' })).toHaveCount(0);
});

test('Auditoría has no serious or critical accessibility violation', async ({ page }) => {
  await signInQuickly(page, 'admin');
  await page.goto('/audit-log');
  await expect(page.getByRole('table', { name: 'Auditoría' }).getByRole('row').nth(1)).toBeVisible();
  await untilSettled(page);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  expect(serious).toEqual([]);
});
