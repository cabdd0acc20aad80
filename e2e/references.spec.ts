import { expect, test, type Page } from '@playwright/test';
import { apiToken, field, signInQuickly, signInWithEmptyTray, uniqueLetters } from './support.ts';

/** Logistics references: a new ticket naming a shipment already reported is suggested as a duplicate. */

/** A shipment number of this run only (another run's tickets must not share it). */
const shipment = `EMB-${String(Date.now() % 1_000_000).padStart(6, '0')}`;

/** Picks an option of a select in the open modal, through its own search box. */
async function choose(page: Page, label: string, option: string) {
  await page
    .getByRole('dialog')
    .getByLabel(new RegExp(`^${label}( \\*)?$`))
    .click();
  await page.getByRole('textbox', { name: 'Buscar...', exact: true }).last().fill(option);
  await page.getByRole('option', { name: option, exact: true }).click();
}

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

test('a ticket naming a shipment already reported suggests the duplicate; marking it moves its activity; the reference page lists both', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { token, user } = await apiToken(page.request, 'admin');
  const created = await page.request.post('/api/tickets/create', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name: `Retraso del embarque ${shipment}`,
      description: 'El transportista no ha llegado a Monterrey.',
      area_id: 1,
      project_id: 1,
      category_id: 1,
      priority_type_id: 1,
      difficulty_id: 1,
      status_id: 1,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const original = ((await created.json()) as { data: { id: number } }).data.id;

  await signInQuickly(page, 'admin');
  await page.goto('/tickets');
  await page.getByRole('button', { name: 'Agregar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nuevo ticket' });
  await field(page, 'Nombre').fill('Embarque sin llegar');
  await field(page, 'Descripción').fill(`El ${shipment.toLowerCase()} sigue sin llegar, cliente molesto.`);
  await choose(page, 'Área', 'Almacén');
  await choose(page, 'Proyecto', 'Ruta Bajío');
  await choose(page, 'Categoría', 'Incidencia');
  await choose(page, 'Prioridad', 'Alta');
  await choose(page, 'Dificultad', 'Media');
  await choose(page, 'Estado', 'Abierto');
  await dialog.getByRole('button', { name: 'Guardar' }).click();

  // The new ticket's page: the suggestion, its chip, and the automatic relation.
  await expect(page).toHaveURL(/\/tickets\/\d+$/, { timeout: 30_000 });
  const duplicate = Number(/\/tickets\/(\d+)$/.exec(page.url())![1]);
  const suggestion = page.getByRole('status').filter({ hasText: 'Posible duplicado' });
  await expect(suggestion).toContainText(`Posible duplicado: #${original} (mismo embarque ${shipment})`);
  await expect(page.getByRole('list', { name: 'Referencias' })).toContainText(`Embarque ${shipment}`);
  await expect(page.getByRole('region', { name: 'Relacionados' })).toContainText(`#${original}`);

  // An activity on the duplicate, then 'Marcar como duplicado': it moves to the original.
  expect(await callFrom(page, 'PATCH', `/api/tickets/${duplicate}/assign/${user.id}`)).toBe(200);
  expect(
    await callFrom(page, 'POST', '/api/activities/create', { name: 'Llamada al transportista', ticket_id: duplicate }),
  ).toBe(201);
  await suggestion.getByRole('button', { name: 'Marcar como duplicado' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sí, marcar como duplicado' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `Este ticket es un duplicado de #${original}.` }),
  ).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Cambiar estado' })).toHaveValue('Cancelado');
  await expect(suggestion).toHaveCount(0);

  await page.goto(`/tickets/${original}`);
  await page.getByRole('button', { name: 'Ver actividades' }).click();
  await expect(page.getByRole('dialog').getByText('Llamada al transportista')).toBeVisible();
  await page.keyboard.press('Escape');

  // The chip opens the reference's page: both tickets, one open and one closed.
  await page
    .getByRole('list', { name: 'Referencias' })
    .getByRole('link', { name: `Embarque ${shipment}: ver sus tickets` })
    .click();
  await expect(page.getByRole('heading', { name: `Embarque ${shipment}` })).toBeVisible();
  const table = page.getByRole('table', { name: `Tickets con la referencia ${shipment}` });
  await expect(table.getByRole('link', { name: `#${original} Retraso del embarque ${shipment}` })).toBeVisible();
  await expect(table.getByRole('link', { name: `#${duplicate} Embarque sin llegar` })).toBeVisible();
  const summary = page.getByLabel('Resumen de la referencia');
  await expect(summary).toContainText('Abiertos1');
  await expect(summary).toContainText('Cerrados1');

  // Typing the reference in a list's search finds exactly its tickets.
  await page.goto('/general-tickets');
  await page.getByPlaceholder('Buscar...').fill(shipment.toLowerCase());
  const rows = page.getByRole('table').first().getByRole('row');
  await expect(rows.filter({ hasText: 'Embarque sin llegar' })).toHaveCount(1);
  await expect(rows.filter({ hasText: `Retraso del embarque ${shipment}` })).toHaveCount(1);
});

test('Referencias: the seeded types, an unsafe pattern refused, a new type extracted in the background', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const name = `Contenedor ${uniqueLetters()}`;
  await signInWithEmptyTray(page, 'admin');
  await page.goto('/reference-types');
  const table = page.getByRole('table');
  await expect(table.getByRole('row').filter({ hasText: 'Embarque' })).toContainText('EMB-\\d{6}', {
    timeout: 30_000,
  });
  await expect(table.getByRole('row').filter({ hasText: 'Placa' })).toContainText('ABC-123-D');

  await page.getByRole('button', { name: 'Agregar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agregar referencia' });
  await field(page, 'Nombre').fill(name);
  await field(page, 'Patrón').fill('(a+)+$');
  await field(page, 'Ejemplo').fill('aaa');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toContainText('El patrón no es seguro');
  await field(page, 'Patrón').fill('CONT-\\d{4}');
  await field(page, 'Ejemplo').fill('CONT-1234');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Registro creado exitosamente.')).toBeVisible();
  // The re-extraction of every ticket runs in the background; the row says when it is done.
  await expect(table.getByRole('row').filter({ hasText: name })).toContainText('Al día', { timeout: 30_000 });
});
