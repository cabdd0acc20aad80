import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  alwaysOpenCalendar,
  apiCreator,
  apiToken,
  choose,
  field,
  priorityWithPolicy,
  signInQuickly,
  uniqueLetters,
} from './support.ts';

/**
 * SLAs end to end: a supervisor creates an Urgente ticket and sees it on time with its business
 * time left, puts it on hold (the clock pauses), and the quick filter 'Por vencer o vencidos'
 * finds a ticket whose due date has passed.
 */

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * A ticket due one business minute after its creation on a calendar open all week: an
 * administrator adds the calendar, a priority, its policy and an area through the API. The area
 * is new, so nobody supervises it and its SLA alerts reach no one: not the supervisor signed in
 * here, nor the administrator signed in by tests running beside it (a toast over a screen's
 * buttons, held open while the pointer rests on it, would stop their clicks).
 */
async function ticketDueInAMinute(request: APIRequestContext, name: string) {
  const { token } = await apiToken(request, 'admin');
  const post = apiCreator(request, token);
  const letters = uniqueLetters();
  const calendarId = await alwaysOpenCalendar(post, `Siempre abierto ${letters}`);
  const priorityId = await priorityWithPolicy(post, `Inmediata ${letters}`, calendarId, {
    firstResponseMinutes: 1,
    resolutionMinutes: 1,
  });
  const areaId = await post('/api/areas/create', { name: `Sin supervisor ${letters}`, status_id: 1 });
  const ticket = {
    name,
    description: 'Debe resolverse en un minuto',
    area_id: areaId,
    project_id: 1,
    category_id: 1,
    priority_type_id: priorityId,
    difficulty_id: 1,
    status_id: 1,
  };
  const id = await post('/api/tickets/create', ticket);
  return { id, ticket, token };
}

test('a supervisor sees an Urgente ticket on time, pauses it, and finds the overdue ones', async ({ page }) => {
  test.setTimeout(180_000);
  const overdueName = `Vencido ${uniqueLetters()}`;
  // Started first: its minute runs while the rest of the test does.
  const overdue = await ticketDueInAMinute(page.request, overdueName);

  const name = `Montacargas sin frenos ${uniqueLetters()}`;
  await signInQuickly(page, 'supervisor');
  await page.goto('/tickets');
  await page.getByRole('button', { name: 'Agregar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nuevo ticket' });
  await field(page, 'Nombre').fill(name);
  await field(page, 'Descripción').fill('El montacargas del andén tres no frena');
  await choose(page, 'Área', 'Almacén');
  await choose(page, 'Proyecto', 'Ruta Bajío');
  await choose(page, 'Categoría', 'Incidencia');
  await choose(page, 'Prioridad', 'Urgente');
  await choose(page, 'Dificultad', 'Media');
  await choose(page, 'Estado', 'Abierto');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();

  await page.getByPlaceholder('Buscar...').fill(name);
  const ticketRow = page.getByRole('row').filter({ hasText: name });
  await expect(ticketRow).toContainText('A tiempo');
  await ticketRow.getByRole('link', { name: new RegExp(name) }).click();

  // Four business hours to resolve it (less the minute a slow machine may take to show the page).
  await expect(page.getByText(/^A tiempo · vence en (4 h|3 h 5\d min) hábiles$/)).toBeVisible();
  await page.getByRole('combobox', { name: 'Cambiar estado' }).click();
  await page.getByRole('option', { name: 'En espera', exact: true }).click();
  await expect(page.getByText(/^En pausa · vence en (4 h|3 h 5\d min) hábiles$/)).toBeVisible();
  await expect(page.getByText('SLA pausado')).toBeVisible();

  // The other ticket's minute passes; the next write to it stores it as overdue.
  await expect
    .poll(
      async () => {
        const response = await page.request.get(`/api/tickets/${overdue.id}`, { headers: auth(overdue.token) });
        return ((await response.json()) as { data: { sla: { state: string } } }).data.sla.state;
      },
      { timeout: 120_000, intervals: [2_000] },
    )
    .toBe('breached');
  const touched = await page.request.put(`/api/tickets/update/${overdue.id}`, {
    headers: {
      ...auth(overdue.token),
      'x-csrf-token': (await page.locator('meta[name="csrf-token"]').getAttribute('content')) ?? '',
    },
    data: { ...overdue.ticket, status_id: 2 },
  });
  expect(touched.status(), await touched.text()).toBe(200);

  await page.goto('/general-tickets');
  await page.getByRole('button', { name: 'Por vencer o vencidos' }).click();
  await expect(page).toHaveURL(/sla=at_risk%2Cbreached|sla=at_risk,breached/);
  const overdueRow = page.getByRole('row').filter({ hasText: overdueName });
  await expect(overdueRow).toContainText('Vencido');
  // The paused ticket is neither.
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
});
