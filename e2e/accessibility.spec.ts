import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signInQuickly, untilSettled } from './support.ts';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
}

test('/login has no serious or critical accessibility violation', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Iniciar Sesión' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('/areas has no serious or critical accessibility violation', async ({ page }) => {
  await signInQuickly(page, 'admin');
  await page.goto('/areas');
  await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();
  await untilSettled(page);
  expect(await seriousViolations(page)).toEqual([]);
});

test('the create modal of /areas has no serious or critical accessibility violation', async ({ page }) => {
  await signInQuickly(page, 'admin');
  await page.goto('/areas');
  await page.getByRole('button', { name: 'Agregar' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await untilSettled(page);
  expect(await seriousViolations(page)).toEqual([]);
});

test('/record-tickets has no serious or critical accessibility violation, its table scrolling in a box', async ({
  page,
}) => {
  // Twenty rows in a tablet-wide window: the table scrolls inside its box, which axe then checks (scrollable-region-focusable).
  await page.setViewportSize({ width: 800, height: 700 });
  await signInQuickly(page, 'admin');
  await page.addInitScript(() => window.localStorage.setItem('perPage:tickets-current', '20'));
  await page.goto('/record-tickets');
  await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();
  const box = page.locator('.mantine-ScrollArea-viewport').filter({ has: page.getByRole('table') });
  expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight)).toBe(true);
  await untilSettled(page);
  expect(await seriousViolations(page)).toEqual([]);
  await expect(box).toHaveAttribute('tabindex', '0');

  // No match: the box still scrolls sideways but holds no link, only the empty state.
  await page.goto('/record-tickets?q=zafiroinexistente');
  await expect(page.getByText('No se encontraron tickets.')).toBeVisible();
  expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
});
