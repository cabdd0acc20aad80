import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiCreator, apiToken, demoTicket, signInQuickly, uniqueLetters } from './support.ts';

/**
 * A ticket's link in Mis Tickets opens the ticket whatever the list is doing meanwhile: while
 * it asks the server for a search just typed (the rows shown stay in place until the answer),
 * and when the search settles only after the link was followed (the list does not take the
 * address back). And a sort chosen right after a search keeps that search.
 */

// A loaded machine may take a while to show a screen: the waits for one are generous.
test.describe.configure({ timeout: 120_000 });
const slow = { timeout: 45_000 };

/** A ticket the supervisor created (so it heads Mis Tickets, newest first): its id. */
async function supervisorTicket(page: Page, name: string) {
  const { token } = await apiToken(page.request, 'supervisor');
  return apiCreator(page.request, token)(
    '/api/tickets/create',
    demoTicket(name, 'La banda transportadora del andén dos se detiene sola'),
  );
}

/** Holds Mis Tickets' requests for `search` until `release()`; `arrived` resolves once one is held. */
async function holdListSearch(page: Page, search: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  await page.route('**/api/tickets', async (route) => {
    if ((route.request().postDataJSON() as { search?: string }).search !== search) return route.fallback();
    arrive();
    await released;
    // The page may have given the request up once it left the list.
    await route.continue().catch(() => undefined);
  });
  return { arrived, release };
}

/** Opens Mis Tickets on a new ticket of the supervisor's: its id and its link in the list. */
async function openListWithTicket(page: Page, name: string) {
  const id = await supervisorTicket(page, name);
  await signInQuickly(page, 'supervisor');
  await page.goto('/tickets');
  const link = page.getByRole('row').filter({ hasText: name }).getByRole('link', { name });
  await expect(link).toBeVisible(slow);
  return { id, link };
}

const expectTicketPage = async (page: Page, id: number, name: string) => {
  await expect(page).toHaveURL(new RegExp(`/tickets/${id}$`));
  await expect(page.getByRole('heading', { name: `#${id} · ${name}` })).toBeVisible(slow);
};

const activations: [string, (link: Locator) => Promise<void>][] = [
  ['a click', (link) => link.click()],
  ['Enter', (link) => link.press('Enter')],
];

for (const [activation, activate] of activations) {
  test(`${activation} on a ticket's link while the list asks for a search opens the ticket`, async ({ page }) => {
    const name = `Banda detenida ${uniqueLetters()}`;
    const { id, link } = await openListWithTicket(page, name);

    const search = await holdListSearch(page, name);
    await page.getByPlaceholder('Buscar...').fill(name);
    await search.arrived;
    // The list waits for the answer (busy) and keeps the rows it shows, the link among them.
    await expect(page.getByRole('table', { name: 'Mis Tickets' })).toHaveAttribute('aria-busy', 'true');
    await expect(link).toBeVisible();
    await activate(link);

    await expectTicketPage(page, id, name);
    search.release();
  });
}

test('a ticket followed before the typed search settles stays open', async ({ page }) => {
  const name = `Banda detenida ${uniqueLetters()}`;
  await page.clock.install();
  const { id, link } = await openListWithTicket(page, name);

  // The ticket page's code arrives when the test lets it: until then the list stays on screen.
  let releasePage!: () => void;
  const pageCode = new Promise<void>((resolve) => (releasePage = resolve));
  await page.route('**/assets/ticket-page-*.js', async (route) => {
    await pageCode;
    await route.continue();
  });
  // The search box's pause runs only when the test moves the clock on.
  await page.clock.pauseAt(Date.now() + 1_000);
  await page.getByPlaceholder('Buscar...').fill(name);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/tickets/${id}$`));
  await page.clock.runFor(1_000);
  await page.clock.resume();
  releasePage();

  await expectTicketPage(page, id, name);
});

test('a sort chosen right after typing a search keeps the search', async ({ page }) => {
  const name = `Banda detenida ${uniqueLetters()}`;
  await page.clock.install();
  await openListWithTicket(page, name);

  // The search settles into the address, then the sort is chosen before the list has shown it.
  await page.clock.pauseAt(Date.now() + 1_000);
  await page.getByPlaceholder('Buscar...').fill(name);
  await page.clock.runFor(1_000);
  await expect(page).toHaveURL(/[?&]q=/);
  await page.getByLabel('Ordenar por').selectOption({ label: 'Nombre' });
  await page.clock.resume();

  await expect(page).toHaveURL(/[?&]sort=name/);
  expect(new URL(page.url()).searchParams.get('q')).toBe(name);
  await expect(page.getByText('Mostrando 1–1 de 1 ticket')).toBeVisible(slow);
});
