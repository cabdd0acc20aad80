import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { sidebar, signInQuickly, untilSettled } from './support.ts';

/** A figure card of the dashboard by its title. */
const card = (page: Page, title: string) => page.getByRole('region', { name: title });

test('the supervisor opens Reportes → Tablero: figures, charts, table alternatives, sorting and CSV', async ({
  page,
}) => {
  await signInQuickly(page, 'supervisor');
  await page.goto('/tickets');
  await sidebar(page).getByRole('link', { name: 'Tablero' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Tablero', level: 2 })).toBeVisible();

  // The default range: the last 12 weeks up to today.
  const today = new Date();
  const iso = (d: Date) =>
    `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  await expect(page.getByLabel('Hasta')).toHaveValue(iso(today));
  await expect(page.getByLabel('Desde')).toHaveValue(iso(new Date(today.getTime() - 83 * 86_400_000)));

  // Headline figures from the demo data.
  const headline = page.getByRole('list', { name: 'Cifras principales' });
  for (const label of [
    'Abiertos ahora',
    'En proceso ahora',
    'Sin asignar ahora',
    'Creados en el periodo',
    'Cerrados en el periodo',
    'Mediana de cierre',
  ]) {
    await expect(headline.getByRole('listitem').filter({ hasText: label })).toBeVisible();
  }
  await expect(headline.getByRole('listitem').filter({ hasText: 'Creados en el periodo' })).toHaveText(/\d+$/);

  // Every chart is drawn (recharts SVG) and says where its figures are.
  for (const title of [
    'Creados y cerrados por semana',
    'Pendientes por etapa',
    'Pendientes por prioridad',
    'Pendientes por área',
    'Pendientes por proyecto',
  ]) {
    const region = card(page, title);
    await expect(region.getByRole('img', { name: new RegExp(title) })).toBeVisible();
    await expect(region.locator('svg.recharts-surface').first()).toBeVisible();
  }

  // The weekly chart as a table: Spanish dates and numbers, 12 or 13 weeks.
  const weekly = card(page, 'Creados y cerrados por semana');
  await weekly.getByText('Tabla', { exact: true }).click();
  const table = weekly.getByRole('table', { name: 'Creados y cerrados por semana' });
  await expect(table.getByRole('columnheader')).toHaveText(['Semana del', 'Días', 'Creados', 'Cerrados']);
  await expect(table.getByRole('row').nth(1)).toContainText(/\d+ de [a-z]+ de \d{4}/);
  const weeks = await table.getByRole('row').count();
  expect(weeks - 1).toBeGreaterThanOrEqual(12);

  // Its CSV: BOM, header, one line per week, days adding up to 84.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    weekly.getByRole('button', { name: 'Exportar CSV: Creados y cerrados por semana' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^tablero-semanal-\d{4}-\d{2}-\d{2}-a-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv.startsWith('\uFEFFSemana del,Días,Creados,Cerrados\r\n')).toBe(true);
  const lines = csv.trim().split('\r\n').slice(1);
  expect(lines).toHaveLength(weeks - 1);
  expect(lines.reduce((sum, line) => sum + Number(line.split(',')[1]), 0)).toBe(84);

  // Per agent: a chart beside a table sorted by a click on its headers.
  const agents = card(page, 'Por agente');
  await expect(agents.getByRole('img', { name: /por agente/ })).toBeVisible();
  const agentTable = agents.getByRole('table', { name: 'Por agente' });
  await expect(agentTable.getByRole('row')).not.toHaveCount(1);
  const byName = agentTable.getByRole('columnheader', { name: 'Agente' });
  await byName.getByRole('button').click();
  await expect(byName).toHaveAttribute('aria-sort', 'ascending');
  const names = await agentTable.locator('tbody tr td:first-child').allTextContents();
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'es')));
  await byName.getByRole('button').click();
  await expect(byName).toHaveAttribute('aria-sort', 'descending');
  const [agentsCsv] = await Promise.all([
    page.waitForEvent('download'),
    agents.getByRole('button', { name: 'Exportar CSV: Por agente' }).click(),
  ]);
  const agentLines = readFileSync((await agentsCsv.path())!, 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(agentLines[0]).toBe('\uFEFFAgente,Asignados ahora,Cerrados en el periodo,Mediana de cierre (horas)');
  expect(agentLines.slice(1).map((l) => l.split(',')[0])).toEqual(names.reverse());

  // A filter by area asks again and the figures follow.
  const answer = page.waitForResponse((r) => r.url().includes('/api/reports/summary') && r.url().includes('area_id='));
  await page.getByLabel('Área', { exact: true }).click();
  await page.getByRole('option', { name: 'Almacén', exact: true }).click();
  expect((await answer).status()).toBe(200);
  await expect(page.getByLabel('Área', { exact: true })).toContainText('Almacén');

  // A range the wrong way round is explained and not asked for.
  await page.getByLabel('Desde').fill(iso(new Date(today.getTime() + 86_400_000)));
  await expect(page.getByText('La fecha inicial debe ser anterior o igual a la fecha final.')).toBeVisible();
});

test('/dashboard has no serious or critical accessibility violation, in charts and in tables', async ({ page }) => {
  // The charts then draw at once, without the animation axe would otherwise catch halfway.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await signInQuickly(page, 'supervisor');
  await page.goto('/dashboard');
  await expect(card(page, 'Pendientes por área').locator('svg.recharts-surface').first()).toBeVisible({
    timeout: 30_000,
  });
  await untilSettled(page);
  const serious = async () =>
    (
      await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
    ).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  expect(await serious()).toEqual([]);
  await card(page, 'Pendientes por prioridad').getByText('Tabla', { exact: true }).click();
  await expect(card(page, 'Pendientes por prioridad').getByRole('table')).toBeVisible();
  expect(await serious()).toEqual([]);
});

test('the agente has no Tablero: not in the menu, refused on the screen and by the API', async ({ page }) => {
  await signInQuickly(page, 'agente');
  await page.goto('/tickets');
  await expect(sidebar(page).getByRole('link', { name: 'Mis Tickets' })).toBeVisible();
  await expect(sidebar(page).getByRole('link', { name: 'Tablero' })).toHaveCount(0);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Acceso denegado' })).toBeVisible();
  const token = await page.evaluate(() => window.localStorage.getItem('token'));
  const refused = await page.request.get('/api/reports/summary', { headers: { Authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(403);
});
