import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { apiToken, signInQuickly } from './support.ts';

/** Serious or critical violations on the open palette, colour contrast among them. */
async function paletteViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .include('[role="dialog"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
}

const palette = (page: Page) => page.getByRole('dialog', { name: 'Paleta de comandos' });
const paletteSearch = (page: Page) => palette(page).getByRole('textbox', { name: /Buscar pantallas y tickets/ });
const topBarTitle = (page: Page) => page.getByRole('banner').getByRole('heading', { level: 1 });

async function openPalette(page: Page) {
  await page.keyboard.press('Control+K');
  await expect(paletteSearch(page)).toBeFocused();
}

/** The newest seeded ticket whose name starts with `name`, found through the API. */
async function ticketNamed(page: Page, username: string, name: string) {
  const { token } = await apiToken(page.request, username);
  const response = await page.request.post('/api/general-tickets', {
    headers: { Authorization: `Bearer ${token}` },
    data: { page: 1, per_page: 1, search: name },
  });
  const body = (await response.json()) as { data: { id: number; name: string }[] };
  expect(body.data[0]?.name.startsWith(name)).toBe(true);
  return body.data[0]!;
}

for (const scheme of ['light', 'dark'] as const) {
  test(`Ctrl+K, a ticket number and Enter open that ticket (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const ticket = await ticketNamed(page, 'admin', 'Montacargas con falla hidráulica');
    await signInQuickly(page, 'admin');
    await page.goto('/areas');
    await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);

    await openPalette(page);
    const dialog = palette(page);
    await page.screenshot({ path: test.info().outputPath(`command-palette-open-${scheme}.png`) });
    // The shortcuts are listed in the palette; the screens are the sidebar's.
    const shortcuts = dialog.getByRole('group', { name: 'Atajos de teclado' });
    for (const label of ['Mis Tickets', 'Tickets Generales', 'Nuevo ticket', 'Buscar en la lista']) {
      await expect(shortcuts).toContainText(label);
    }
    await expect(dialog.getByRole('group', { name: 'Ir a' }).getByRole('button', { name: /^Usuarios/ })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Crear ticket' })).toBeVisible();
    expect(await paletteViolations(page)).toEqual([]);

    await page.keyboard.type(`#${ticket.id}`);
    const open = dialog.getByRole('button', { name: new RegExp(`^Abrir ticket #${ticket.id}`) });
    await expect(open).toHaveAttribute('data-selected', 'true');
    // The search recognises the number: the action names the ticket.
    await expect(open).toContainText(ticket.name);
    expect(await paletteViolations(page)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`command-palette-${scheme}.png`) });

    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`/tickets/${ticket.id}`);
    await expect(topBarTitle(page)).toHaveText(`Ticket #${ticket.id}`);
    await expect(page.getByRole('heading', { level: 2, name: `#${ticket.id} · ${ticket.name}` })).toBeVisible();
    await expect(dialog).toBeHidden();
  });
}

test('a text search lists matching tickets with their status, and choosing one opens it', async ({ page }) => {
  const ticket = await ticketNamed(page, 'admin', 'Impresora de etiquetas atascada');
  await signInQuickly(page, 'admin');
  await page.goto('/tickets');
  await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();

  await openPalette(page);
  await page.keyboard.type('impresora etiq');
  const results = palette(page).getByRole('group', { name: 'Tickets' });
  const result = results.getByRole('button', { name: `#${ticket.id} · ${ticket.name}`, exact: false });
  await expect(result).toBeVisible();
  expect(await results.getByRole('button').count()).toBeLessThanOrEqual(8);
  await page.screenshot({ path: test.info().outputPath('command-palette-search.png') });
  await result.click();
  await expect(page).toHaveURL(`/tickets/${ticket.id}`);
  await expect(topBarTitle(page)).toHaveText(`Ticket #${ticket.id}`);

  await openPalette(page);
  await page.keyboard.type('zzqx sin coincidencias');
  await expect(palette(page).getByText('Sin resultados')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(palette(page)).toBeHidden();
});

test('g g, g t, / and n work from the keyboard, but not while typing', async ({ page }) => {
  await signInQuickly(page, 'admin');
  await page.goto('/tickets');
  const search = page.getByRole('textbox', { name: 'Buscar en Mis Tickets' });
  await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();

  await page.keyboard.press('g');
  await page.keyboard.press('g');
  await expect(page).toHaveURL('/general-tickets');
  await expect(topBarTitle(page)).toHaveText('Tickets Generales');
  await page.keyboard.press('g');
  await page.keyboard.press('t');
  await expect(page).toHaveURL('/tickets');
  await expect(search).toBeVisible();

  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  // Typed into the search box, g g and n are text.
  await page.keyboard.type('gg n');
  await expect(search).toHaveValue('gg n');
  await expect(page).toHaveURL(/\/tickets/);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Ctrl+K works inside an input too.
  await openPalette(page);
  await page.keyboard.press('Escape');
  await expect(palette(page)).toBeHidden();

  await search.blur();
  await page.keyboard.press('n');
  const form = page.getByRole('dialog', { name: 'Nuevo ticket' });
  await expect(form).toBeVisible();
  // No shortcut acts while a modal is open.
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();

  // 'Crear ticket' in the palette opens the same form from any screen.
  await page.goto('/areas');
  await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();
  await openPalette(page);
  await page.keyboard.type('crear');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/tickets$/);
  await expect(page.getByRole('dialog', { name: 'Nuevo ticket' })).toBeVisible();
});

test('an agent sees only the screens the role may open, and g g does nothing for them', async ({ page }) => {
  await signInQuickly(page, 'agente');
  await page.goto('/tickets');
  await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();

  await openPalette(page);
  const screens = palette(page).getByRole('group', { name: 'Ir a' }).getByRole('button');
  await expect(screens).toHaveText([/^Mis Tickets/, /^Historial/, /^Colas/, /^Kanban/, /^Perfil/]);
  const shortcuts = palette(page).getByRole('group', { name: 'Atajos de teclado' });
  await expect(shortcuts).not.toContainText('Tickets Generales');
  await page.keyboard.type('usuarios');
  await expect(palette(page).getByRole('group', { name: 'Ir a' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  // Shortcuts are ignored while any modal is open, the closing palette included.
  await expect(page.locator('[aria-modal="true"]')).toHaveCount(0);

  await page.keyboard.press('g');
  await page.keyboard.press('g');
  // A later shortcut taking effect shows the keys before it were read (and g g went nowhere).
  await page.keyboard.press('/');
  await expect(page.getByRole('textbox', { name: 'Buscar en Mis Tickets' })).toBeFocused();
  await expect(page).toHaveURL('/tickets');
});

test('Ctrl+K pressed as soon as the address opens, before the screen has rendered, opens the palette', async ({
  page,
}) => {
  await signInQuickly(page, 'admin');
  await page.goto('/areas');
  await page.keyboard.press('Control+K');
  await expect(paletteSearch(page)).toBeFocused();
  await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();
});
