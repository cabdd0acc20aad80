import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  alwaysOpenCalendar,
  apiCreator,
  apiToken,
  priorityWithPolicy,
  signInQuickly,
  uniqueLetters,
} from './support.ts';

/**
 * SLA alerts end to end: a ticket of Almacén nobody took falls due on a calendar open all week;
 * the portal's sweep (every 30 s by default) warns Almacén's supervisor in the bell, first
 * 'por vencer' then 'vencido', and the Tablero counts it among the overdue ones now and in its
 * week's SLA figures.
 */

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** An unassigned ticket of area 1 (Almacén) due one business minute after its creation, always at risk. */
async function ticketDueInAMinute(request: APIRequestContext, name: string) {
  const { token } = await apiToken(request, 'admin');
  const post = apiCreator(request, token);
  const letters = uniqueLetters();
  const calendarId = await alwaysOpenCalendar(post, `Siempre abierto ${letters}`);
  const priorityId = await priorityWithPolicy(post, `Inmediata ${letters}`, calendarId, {
    firstResponseMinutes: 1,
    resolutionMinutes: 1,
  });
  return post('/api/tickets/create', {
    name,
    description: 'Nadie lo ha tomado',
    area_id: 1,
    project_id: 1,
    category_id: 1,
    priority_type_id: priorityId,
    difficulty_id: 1,
    status_id: 1,
  });
}

/** The figure of the Tablero's headline by its label, as a number. */
async function headlineFigure(page: Page, label: string): Promise<number> {
  const item = page.getByRole('list', { name: 'Cifras principales' }).getByRole('listitem').filter({ hasText: label });
  await expect(item).toHaveText(/\d+$/);
  return Number((await item.innerText()).match(/(\d[\d,]*)\s*$/)![1]!.replace(/,/g, ''));
}

test('the supervisor is warned in the bell as an unassigned ticket of their area falls due, and the Tablero counts it', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const name = `Rampa sin atender ${uniqueLetters()}`;
  const id = await ticketDueInAMinute(page.request, name);
  const { token } = await apiToken(page.request, 'supervisor');

  // Due a minute after its creation; the sweep runs every 30 s.
  await expect
    .poll(
      async () => {
        const response = await page.request.get('/api/notifications/active-records', { headers: auth(token) });
        const { data } = (await response.json()) as { data: { ticket_id: number | null; message: string }[] };
        return data.filter((n) => n.ticket_id === id).map((n) => n.message);
      },
      { timeout: 180_000, intervals: [5_000] },
    )
    .toContain('El SLA del ticket está vencido');

  await signInQuickly(page, 'supervisor');
  await page.goto('/tickets');
  await page.getByRole('button', { name: /^Notificaciones:/ }).click();
  const items = page.getByTestId('notification-dropdown').getByTestId('notification-item');
  await expect(
    items.filter({ hasText: `Ticket #${id}` }).filter({ hasText: 'El SLA del ticket está vencido' }),
  ).toHaveCount(1);
  await expect(
    items.filter({ hasText: `Ticket #${id}` }).filter({ hasText: 'El SLA del ticket está por vencer' }),
  ).toHaveCount(1);
  await page.keyboard.press('Escape');

  // The Tablero: overdue now, and this week's resolutions include a breached one.
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Tablero', level: 2 })).toBeVisible();
  expect(await headlineFigure(page, 'Vencidos ahora')).toBeGreaterThanOrEqual(1);
  expect(await headlineFigure(page, 'Por vencer ahora')).toBeGreaterThanOrEqual(0);
  const card = page.getByRole('region', { name: 'SLA a tiempo por semana' });
  await expect(card.getByRole('img', { name: /SLA a tiempo por semana/ })).toBeVisible();
  await card.getByText('Tabla', { exact: true }).click();
  const table = card.getByRole('table', { name: 'SLA a tiempo por semana' });
  await expect(table.getByRole('columnheader')).toHaveText([
    'Semana del',
    'Resolución a tiempo',
    'Resolución vencida',
    'Resolución a tiempo (%)',
    'Primera respuesta a tiempo',
    'Primera respuesta tardía',
    'Primera respuesta a tiempo (%)',
  ]);
  const thisWeek = table.getByRole('row').last();
  const breached = Number(await thisWeek.getByRole('cell').nth(2).innerText());
  expect(breached).toBeGreaterThanOrEqual(1);
  await expect(thisWeek.getByRole('cell').nth(3)).toHaveText(/^\d+ %$/);
});
