import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signInQuickly, untilSettled } from './support.ts';

/** Serious or critical violations, colour contrast among them, in whatever scheme the page shows. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
}

const scheme = (page: Page) => page.locator('html').getAttribute('data-mantine-color-scheme');

async function openThemeMenu(page: Page) {
  await page.getByRole('button', { name: 'Configuración de la cuenta' }).click();
  return page.getByRole('menu');
}

test('the gear menu switches to Oscuro, the choice survives a reload, and Sistema follows the system', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await signInQuickly(page, 'admin');
  await page.goto('/tickets');
  await expect.poll(() => scheme(page)).toBe('light');

  let menu = await openThemeMenu(page);
  await expect(menu.getByRole('menuitemradio', { name: 'Sistema' })).toHaveAttribute('aria-checked', 'true');
  await menu.getByRole('menuitemradio', { name: 'Oscuro' }).click();
  await expect.poll(() => scheme(page)).toBe('dark');
  await expect(menu.getByRole('menuitemradio', { name: 'Oscuro' })).toHaveAttribute('aria-checked', 'true');
  const background = await page.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(background).not.toBe('rgb(248, 249, 250)');

  await page.reload();
  await expect.poll(() => scheme(page)).toBe('dark');

  menu = await openThemeMenu(page);
  await menu.getByRole('menuitemradio', { name: 'Sistema' }).click();
  await expect.poll(() => scheme(page)).toBe('light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => scheme(page)).toBe('dark');
  await page.keyboard.press('Escape');

  menu = await openThemeMenu(page);
  await menu.getByRole('menuitemradio', { name: 'Claro' }).click();
  await expect.poll(() => scheme(page)).toBe('light');
  await page.reload();
  await expect.poll(() => scheme(page)).toBe('light');
});

const screens: { path: string; ready: (page: Page) => Promise<void> }[] = [
  { path: '/tickets', ready: (p) => expect(p.getByRole('table').getByRole('row').nth(1)).toBeVisible() },
  { path: '/general-tickets', ready: (p) => expect(p.getByRole('table').getByRole('row').nth(1)).toBeVisible() },
  { path: '/areas', ready: (p) => expect(p.getByRole('table').getByRole('row').nth(1)).toBeVisible() },
  { path: '/users', ready: (p) => expect(p.getByRole('table').getByRole('row').nth(1)).toBeVisible() },
  { path: '/routes', ready: (p) => expect(p.getByRole('table').getByRole('row').nth(1)).toBeVisible() },
  { path: '/workload', ready: (p) => expect(p.getByRole('listitem').first()).toBeVisible() },
  {
    path: '/users-profile',
    ready: (p) => expect(p.getByRole('button', { name: 'Cambiar foto de perfil' })).toBeVisible(),
  },
];

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the main screens have no serious accessibility violation in the ${colorScheme} scheme`, async ({ page }) => {
    test.setTimeout(420_000);
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Iniciar Sesión' })).toBeVisible();
    await expect.poll(() => scheme(page)).toBe(colorScheme);
    expect(await seriousViolations(page), '/login').toEqual([]);

    await signInQuickly(page, 'admin');
    for (const screen of screens) {
      await page.goto(screen.path);
      await screen.ready(page);
      await untilSettled(page);
      expect(await seriousViolations(page), screen.path).toEqual([]);
    }
    await page.goto('/routes');
    await page.getByRole('tab', { name: 'Matriz' }).click();
    await expect(page.getByRole('table', { name: 'Matriz de permisos' })).toBeVisible();
    await untilSettled(page);
    expect(await seriousViolations(page), 'permission matrix').toEqual([]);

    await page.getByRole('button', { name: /Notificaciones/ }).click();
    await expect(page.getByTestId('notification-dropdown')).toBeVisible();
    await untilSettled(page);
    expect(await seriousViolations(page), 'notification panel').toEqual([]);
  });
}
