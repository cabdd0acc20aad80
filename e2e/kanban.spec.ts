import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiToken, demoTicket, signInQuickly, uniqueLetters } from './support.ts';

/**
 * Kanban: a card dragged with the mouse or moved with the keyboard alone changes the ticket's
 * status (and its timeline says so); a refused move goes back with the reason; a move in one
 * browser shows in another; no accessibility violation in either colour scheme.
 */

// A loaded machine may take a while to show a screen: the waits for one are generous.
test.describe.configure({ timeout: 180_000 });
const slow = { timeout: 45_000 };

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function createTicket(request: APIRequestContext, token: string, name: string) {
  const response = await request.post('/api/tickets/create', {
    headers: auth(token),
    data: demoTicket(name, 'Tarjeta del tablero'),
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: number } }).data.id;
}

const column = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const card = (page: Page, id: number) => page.getByTestId(`kanban-card-${id}`);

/** Opens the board searched by a word only these tests' tickets carry. */
async function openBoard(page: Page, word: string) {
  await page.goto(`/kanban?q=${encodeURIComponent(word)}`);
  await expect(page.getByRole('heading', { name: 'Kanban', level: 2 })).toBeVisible(slow);
  await expect(column(page, 'Abierto')).toBeVisible(slow);
}

async function newPageAs(browser: Browser, username: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInQuickly(page, username);
  return page;
}

async function expectTimelineStatus(page: Page, id: number, from: string, to: string) {
  await page.goto(`/tickets/${id}`);
  await expect(page.getByTestId('timeline-item').filter({ hasText: 'Cambió el estado' })).toContainText(
    `${from} → ${to}`,
    slow,
  );
}

test('a card dragged with the mouse changes the ticket’s status, and the timeline shows it', async ({ page }) => {
  const word = `Raton${uniqueLetters()}`;
  const { token } = await apiToken(page.request, 'admin');
  const id = await createTicket(page.request, token, `Bomba ${word}`);
  await signInQuickly(page, 'admin');
  await openBoard(page, word);
  await expect(column(page, 'Abierto').getByTestId(`kanban-card-${id}`)).toBeVisible(slow);

  // Pressed on the card's lower edge (not its link), then carried over the next column.
  const from = (await card(page, id).boundingBox())!;
  const to = (await column(page, 'En progreso').boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height - 4);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 20, from.y + from.height, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + 80, { steps: 15 });
  await page.mouse.up();

  await expect(column(page, 'En progreso').getByTestId(`kanban-card-${id}`)).toBeVisible(slow);
  await expect(column(page, 'Abierto').getByTestId(`kanban-card-${id}`)).toHaveCount(0, slow);
  await expectTimelineStatus(page, id, 'Abierto', 'En progreso');
});

test('the keyboard alone moves a card: Space lifts, arrows move, Space drops, Escape cancels', async ({ page }) => {
  const word = `Teclado${uniqueLetters()}`;
  const { token } = await apiToken(page.request, 'admin');
  const id = await createTicket(page.request, token, `Cámara ${word}`);
  await signInQuickly(page, 'admin');
  await openBoard(page, word);
  const handle = page.getByRole('button', { name: `Mover ticket #${id} Cámara ${word}` });

  // Escape puts it back where it was.
  await handle.focus();
  await page.keyboard.press('Space');
  await expect(page.getByText(`Ticket ${id} levantado en Abierto.`)).toBeAttached(slow);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Escape');
  await expect(page.getByText(`Movimiento del ticket ${id} cancelado; no cambió.`)).toBeAttached(slow);
  await expect(column(page, 'Abierto').getByTestId(`kanban-card-${id}`)).toBeVisible(slow);

  await handle.focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByText(`Ticket ${id} sobre la columna En progreso.`)).toBeAttached(slow);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByText(`Ticket ${id} sobre la columna En espera.`)).toBeAttached(slow);
  await page.keyboard.press('Space');
  await expect(column(page, 'En espera').getByTestId(`kanban-card-${id}`)).toBeVisible(slow);
  await expectTimelineStatus(page, id, 'Abierto', 'En espera');
});

test('a refused move goes back to its column with the reason', async ({ page }) => {
  const word = `Padre${uniqueLetters()}`;
  const { token } = await apiToken(page.request, 'admin');
  const parent = await createTicket(page.request, token, `Ruta ${word}`);
  const child = await createTicket(page.request, token, `Tramo ${word}`);
  const link = await page.request.post(`/api/tickets/${parent}/links`, {
    headers: auth(token),
    data: { relation: 'child', ticket_id: child },
  });
  expect(link.status(), await link.text()).toBe(201);
  await signInQuickly(page, 'admin');
  await openBoard(page, word);

  // Closing a parent whose child is still open is refused: the card goes back.
  const handle = page.getByRole('button', { name: `Mover ticket #${parent} Ruta ${word}` });
  await handle.focus();
  await page.keyboard.press('Space');
  for (const name of ['En progreso', 'En espera', 'Resuelto']) {
    await page.keyboard.press('ArrowRight');
    await expect(page.getByText(`Ticket ${parent} sobre la columna ${name}.`)).toBeAttached(slow);
  }
  await page.keyboard.press('Space');
  await expect(page.getByText(`No se pudo mover el ticket #${parent}`)).toBeVisible(slow);
  await expect(page.getByText(`El ticket tiene tickets hijos abiertos: #${child}`)).toBeVisible(slow);
  await expect(column(page, 'Abierto').getByTestId(`kanban-card-${parent}`)).toBeVisible(slow);
  await expect(column(page, 'Resuelto').getByTestId(`kanban-card-${parent}`)).toHaveCount(0, slow);
});

test('a card moved in another browser moves on the open board', async ({ browser }) => {
  const word = `Vivo${uniqueLetters()}`;
  const watcher = await newPageAs(browser, 'admin');
  const mover = await newPageAs(browser, 'supervisor');
  const { token } = await apiToken(watcher.request, 'admin');
  const id = await createTicket(watcher.request, token, `Andén ${word}`);
  await openBoard(watcher, word);
  await openBoard(mover, word);
  await expect(column(watcher, 'Abierto').getByTestId(`kanban-card-${id}`)).toBeVisible(slow);

  await mover.getByRole('button', { name: `Mover ticket #${id} Andén ${word}` }).focus();
  await mover.keyboard.press('Space');
  await expect(mover.getByText(`Ticket ${id} levantado en Abierto.`)).toBeAttached(slow);
  await mover.keyboard.press('ArrowRight');
  await expect(mover.getByText(`Ticket ${id} sobre la columna En progreso.`)).toBeAttached(slow);
  await mover.keyboard.press('Space');
  await expect(column(mover, 'En progreso').getByTestId(`kanban-card-${id}`)).toBeVisible(slow);

  await expect(column(watcher, 'En progreso').getByTestId(`kanban-card-${id}`)).toBeVisible(slow);
  await expect(column(watcher, 'Abierto').getByTestId(`kanban-card-${id}`)).toHaveCount(0, slow);
  await watcher.context().close();
  await mover.context().close();
});

test('filters live in the URL in the lists’ encoding, and a phone shows one column at a time', async ({ page }) => {
  const word = `Filtro${uniqueLetters()}`;
  const { token } = await apiToken(page.request, 'admin');
  const id = await createTicket(page.request, token, `Etiqueta ${word}`);
  await signInQuickly(page, 'admin');
  await page.goto(`/kanban?q=${word}&priority=3`);
  await expect(column(page, 'Abierto').getByTestId(`kanban-card-${id}`)).toBeVisible(slow);
  await page.goto(`/kanban?q=${word}&priority=4`);
  await expect(column(page, 'Abierto').getByText('Sin tickets')).toBeVisible(slow);
  await page.getByRole('switch', { name: 'Mis tickets' }).click();
  await expect(page).toHaveURL(/mine=1/, slow);
  await expect(page.getByRole('switch', { name: 'Mis tickets' })).toBeChecked(slow);

  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`/kanban?q=${word}`);
  await expect(column(page, 'Abierto')).toBeVisible(slow);
  await expect(column(page, 'En progreso')).toHaveCount(0, slow);
  await page.getByRole('combobox', { name: 'Columna' }).click();
  await page.getByRole('option', { name: /^En progreso/ }).click();
  await expect(column(page, 'En progreso')).toBeVisible(slow);
  await expect(column(page, 'Abierto')).toHaveCount(0, slow);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`/kanban has no accessibility violation in the ${colorScheme} scheme`, async ({ page }) => {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await signInQuickly(page, 'admin');
    await page.goto('/kanban');
    await expect(column(page, 'Abierto').getByRole('listitem').first()).toBeVisible(slow);
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(colorScheme);
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    expect(
      results.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) })),
    ).toEqual([]);
  });
}
