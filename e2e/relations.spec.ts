import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, signInQuickly } from './support.ts';

/** Relations between tickets on the ticket page: the Relacionados panel, children's progress, closing a parent. */

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function createTicket(request: APIRequestContext, token: string, name: string, description: string) {
  const response = await request.post('/api/tickets/create', {
    headers: auth(token),
    data: {
      name,
      description,
      area_id: 1,
      project_id: 1,
      category_id: 1,
      priority_type_id: 1,
      difficulty_id: 1,
      status_id: 1,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: number } }).data.id;
}

/** A shipment number of this run only: a ticket mentioning another run's would be linked to its tickets. */
const shipment = (offset: number) => `EMB-${String((Date.now() + offset) % 1_000_000).padStart(6, '0')}`;

const panel = (page: Page) => page.getByRole('region', { name: 'Relacionados' });

/** Adds a relation from the open ticket page, finding the other ticket by its number. */
async function addRelation(page: Page, relation: string, otherId: number) {
  await panel(page).getByRole('combobox', { name: 'Tipo de relación' }).click();
  await page.getByRole('option', { name: relation, exact: true }).click();
  await panel(page).getByRole('combobox', { name: 'Ticket' }).fill(String(otherId));
  await page.getByRole('option', { name: new RegExp(`^#${otherId} · `) }).click();
  await panel(page).getByRole('button', { name: 'Agregar relación' }).click();
}

async function changeStatus(page: Page, status: string) {
  await page.getByRole('combobox', { name: 'Cambiar estado' }).click();
  await page.getByRole('option', { name: status, exact: true }).click();
}

test('a parent gathers its children in Relacionados, with their progress; closing it with an open child asks first; cycles are refused', async ({
  page,
}) => {
  // Many steps, each a real page load on a shared machine.
  test.setTimeout(120_000);
  const { token } = await apiToken(page.request, 'admin');
  const description = `Sin energía desde las 6:00; embarque ${shipment(0)} en riesgo.`;
  const parent = await createTicket(page.request, token, 'Cámara fría de Monterrey sin energía', description);
  const first = await createTicket(page.request, token, 'Revisar planta de emergencia', 'Planta 2, tablero A-3.');
  const third = await createTicket(page.request, token, 'Contar cajas dañadas', 'Inventario del rack B.');
  const second = await createTicket(page.request, token, 'Reubicar producto perecedero', 'Mover a cámara 4, rack B.');
  await signInQuickly(page, 'admin');

  await page.goto(`/tickets/${parent}`);
  await expect(panel(page).getByText('Este ticket no tiene relaciones.')).toBeVisible({ timeout: 30_000 });
  // The description keeps its punctuation and the shipment number.
  await expect(page.getByText(description)).toBeVisible();
  await addRelation(page, 'Hijo', first);
  await expect(panel(page).getByRole('link', { name: `#${first} · Revisar planta de emergencia` })).toBeVisible();
  await addRelation(page, 'Hijo', second);
  await expect(panel(page).getByTestId('children-progress')).toHaveText('0 de 2 resueltos');

  // The child shows its parent, and is resolved.
  await page.goto(`/tickets/${first}`);
  await expect(panel(page).getByTestId('relations-parent')).toContainText(`#${parent} · Cámara fría de Monterrey`);
  await changeStatus(page, 'Resuelto');
  await expect(page.getByText('Estado del ticket actualizado.')).toBeVisible();

  // A grandchild may not become the parent of its own ancestor.
  await page.goto(`/tickets/${second}`);
  await addRelation(page, 'Hijo', third);
  await expect(panel(page).getByTestId('relations-child')).toContainText(`#${third} · Contar cajas dañadas`);
  await page.goto(`/tickets/${third}`);
  await addRelation(page, 'Hijo', parent);
  await expect(
    page.getByText('La relación formaría un ciclo: un ticket no puede ser su propio antecesor.'),
  ).toBeVisible();

  await page.goto(`/tickets/${parent}`);
  await expect(panel(page).getByTestId('children-progress')).toHaveText('1 de 2 resueltos');
  await changeStatus(page, 'Cerrado');
  const dialog = page.getByRole('dialog', { name: '¿Cerrar el ticket con hijos abiertos?' });
  await expect(dialog).toContainText(`#${second} Reubicar producto perecedero`);
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByRole('combobox', { name: 'Cambiar estado' })).toHaveValue('Abierto');
  await changeStatus(page, 'Cerrado');
  await page
    .getByRole('dialog', { name: '¿Cerrar el ticket con hijos abiertos?' })
    .getByRole('button', { name: 'Sí, cerrar' })
    .click();
  await expect(page.getByRole('combobox', { name: 'Cambiar estado' })).toHaveValue('Cerrado');

  // Removing a relation takes it off both tickets.
  await panel(page)
    .getByRole('button', { name: `Quitar relación con #${second}` })
    .click();
  await expect(panel(page).getByTestId('children-progress')).toHaveText('1 de 1 resueltos');
  await page.goto(`/tickets/${second}`);
  await expect(panel(page).getByTestId('relations-child')).toBeVisible();
  await expect(panel(page).getByTestId('relations-parent')).toHaveCount(0);
  await expect(page.getByTestId('timeline-item').last()).toContainText(`Quitó la relación con #${parent}`);
});

/** Calls the API from the signed-in page, with its bearer token and the CSRF meta tag, as the app does. */
async function callFrom(page: Page, method: string, url: string, body?: unknown): Promise<number> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
      const response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${localStorage.getItem('token')}`,
          'x-csrf-token': csrf,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return response.status;
    },
    { method, url, body },
  );
}

test('marking a ticket as a duplicate moves its activity to the original and leaves a banner leading there', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { token, user } = await apiToken(page.request, 'admin');
  // Each its own shipment: sharing one would link them as related on creation.
  const original = await createTicket(
    page.request,
    token,
    `Retraso embarque ${shipment(1)}`,
    'Llega tarde a Monterrey.',
  );
  const duplicate = await createTicket(page.request, token, `Embarque ${shipment(2)} sin llegar`, 'Mismo embarque.');
  await signInQuickly(page, 'admin');
  await page.goto(`/tickets/${duplicate}`);
  await expect(panel(page).getByText('Este ticket no tiene relaciones.')).toBeVisible({ timeout: 30_000 });
  expect(await callFrom(page, 'PATCH', `/api/tickets/${duplicate}/assign/${user.id}`)).toBe(200);
  expect(
    await callFrom(page, 'POST', '/api/activities/create', { name: 'Llamada al transportista', ticket_id: duplicate }),
  ).toBe(201);

  await panel(page).getByRole('combobox', { name: 'Tipo de relación' }).click();
  await page.getByRole('option', { name: 'Duplicado de', exact: true }).click();
  await panel(page).getByRole('combobox', { name: 'Ticket' }).fill(String(original));
  await page.getByRole('option', { name: new RegExp(`^#${original} · `) }).click();
  await panel(page)
    .getByRole('button', { name: `Marcar como duplicado de #${original}` })
    .click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sí, marcar como duplicado' }).click();

  const banner = page.getByRole('status').filter({ hasText: `Este ticket es un duplicado de #${original}.` });
  await expect(banner).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Cambiar estado' })).toHaveValue('Cancelado');
  await banner.getByRole('link', { name: `Ir al ticket #${original}` }).click();
  await expect(page).toHaveURL(new RegExp(`/tickets/${original}$`));
  await expect(panel(page).getByTestId('relations-duplicated_by')).toContainText(`#${duplicate}`);
  await page.getByRole('button', { name: 'Ver actividades' }).click();
  const activities = page.getByRole('dialog');
  await expect(activities.getByText('Llamada al transportista')).toBeVisible();
  await expect(activities.getByText(`Del ticket #${duplicate}`)).toBeVisible();
});
