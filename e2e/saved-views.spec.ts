import { expect, test, type Page } from '@playwright/test';
import { apiToken, sidebar, signInQuickly, uniqueLetters } from './support.ts';

/** A page's first render on a machine shared by many test runs may take a while. */
const SLOW = 30_000;

/** The sidebar's entry of a view, by its name (its badge says how many tickets it shows). */
const viewLink = (page: Page, name: string) => sidebar(page).getByRole('link', { name: new RegExp(`^${name}`) });

test('saves a view of a list, finds it in the sidebar after a reload, opens it from its URL, renames and deletes it', async ({
  page,
  request,
  browser,
}) => {
  // One long flow through three people's browsers.
  test.setTimeout(180_000);
  // A priority of its own, so the view's filter can later name a deactivated value.
  const { token } = await apiToken(request, 'admin');
  const { token: csrf } = (await (await request.get('/api/csrf-token')).json()) as { token: string };
  const headers = { authorization: `Bearer ${token}`, 'x-csrf-token': csrf };
  const priorityName = `Temporal ${uniqueLetters()}`;
  const created = await request.post('/api/priority-types/create', { headers, data: { name: priorityName } });
  expect(created.status()).toBe(201);
  const priorityId = ((await created.json()) as { data: { id: number } }).data.id;

  await signInQuickly(page, 'admin');
  await page.goto(`/general-tickets?priority=4,${priorityId}&sort=name:asc`);
  await expect(page.getByRole('button', { name: 'Guardar vista' })).toBeVisible({ timeout: SLOW });

  const name = `Urgentes ${uniqueLetters()}`;
  await page.getByRole('button', { name: 'Guardar vista' }).click();
  const dialog = page.getByRole('dialog', { name: 'Guardar vista' });
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText('Este campo es obligatorio.')).toBeVisible();
  await dialog.getByLabel(/^Nombre de la vista/).fill(name);
  await dialog.getByRole('radio', { name: 'Compartida con roles' }).check();
  await dialog.getByRole('checkbox', { name: 'Supervisor' }).check();
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/[?&]view=\d+/);
  const viewId = Number(new URL(page.url()).searchParams.get('view'));
  await expect(page.getByRole('region', { name: `Vista guardada ${name}` })).toBeVisible();

  // After a reload the sidebar lists it under Vistas, with its count.
  await page.reload();
  const link = viewLink(page, name);
  await expect(link).toBeVisible({ timeout: SLOW });
  const total = await request.post('/api/general-tickets', {
    headers,
    data: { page: 1, per_page: 5, filters: { priority_type_id: [4, priorityId] } },
  });
  const expected = ((await total.json()) as { meta: { total: number } }).meta.total;
  await expect(link).toContainText(
    new Intl.NumberFormat('es', { useGrouping: 'always' } as Intl.NumberFormatOptions).format(expected),
  );

  // Opened from its URL on a clean list, the view's filters and sort come back into the URL.
  await page.goto('/general-tickets');
  await expect(page.getByRole('button', { name: 'Guardar vista' })).toBeVisible({ timeout: SLOW });
  await expect(page.getByRole('region', { name: /^Vista guardada/ })).toHaveCount(0);
  await page.goto(`/general-tickets?view=${viewId}`);
  await expect(page).toHaveURL(new RegExp(`priority=4(%2C|,)${priorityId}`), { timeout: SLOW });
  await expect(page).toHaveURL(/sort=name(%3A|:)asc/);
  await expect(link).toHaveAttribute('aria-current', 'page');

  // Someone with the role it is shared with finds it too; an agent does not.
  const supervisor = await browser.newPage();
  await signInQuickly(supervisor, 'supervisor');
  await supervisor.goto('/tickets');
  await expect(viewLink(supervisor, name)).toBeVisible({ timeout: SLOW });
  await supervisor.close();
  const agent = await browser.newPage();
  await signInQuickly(agent, 'agente');
  await agent.goto('/tickets');
  await expect(agent.getByRole('button', { name: 'Guardar vista' })).toBeVisible({ timeout: SLOW });
  await expect(viewLink(agent, name)).toHaveCount(0);
  await agent.close();

  // A deactivated value of its filter: the view still opens and says which value no longer applies.
  const off = await request.patch(`/api/priority-types/${priorityId}/change-status`, {
    headers,
    data: { status_id: 2 },
  });
  expect(off.status()).toBe(200);
  await page.goto(`/general-tickets?view=${viewId}`);
  await expect(page.getByRole('alert').filter({ hasText: 'Valores que ya no aplican' })).toContainText(
    `Prioridad «${priorityName}» ya no aplica: fue desactivado.`,
    { timeout: SLOW },
  );

  // Rename.
  const bar = page.getByRole('region', { name: `Vista guardada ${name}` });
  await bar.getByRole('button', { name: 'Renombrar' }).click();
  const rename = page.getByRole('dialog', { name: 'Renombrar vista' });
  const renamed = `${name} del turno`;
  await rename.getByLabel(/^Nombre de la vista/).fill(renamed);
  await rename.getByRole('button', { name: 'Guardar' }).click();
  await expect(rename).toBeHidden();
  await expect(page.getByRole('region', { name: `Vista guardada ${renamed}` })).toBeVisible();
  await expect(viewLink(page, renamed)).toBeVisible();

  // Delete, after confirming.
  await page
    .getByRole('region', { name: `Vista guardada ${renamed}` })
    .getByRole('button', { name: 'Eliminar vista' })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Eliminar vista' });
  await expect(confirm).toContainText(`¿Eliminar la vista «${renamed}»?`);
  await confirm.getByRole('button', { name: 'Eliminar' }).click();
  await expect(confirm).toBeHidden();
  await expect(page).not.toHaveURL(/[?&]view=/);
  await expect(viewLink(page, renamed)).toHaveCount(0);
  expect((await request.get(`/api/views/${viewId}`, { headers })).status()).toBe(404);
});

test('saves a view of the board and opens it again from the sidebar with its filters', async ({ page }) => {
  await signInQuickly(page, 'admin');
  await page.goto('/kanban?priority=4&sort=name:asc');
  await expect(page.getByRole('button', { name: 'Guardar vista' })).toBeVisible({ timeout: SLOW });
  const name = `Tablero urgente ${uniqueLetters()}`;
  await page.getByRole('button', { name: 'Guardar vista' }).click();
  const dialog = page.getByRole('dialog', { name: 'Guardar vista' });
  await dialog.getByLabel(/^Nombre de la vista/).fill(name);
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/kanban\?.*view=\d+/);
  await expect(page.getByRole('region', { name: `Vista guardada ${name}` })).toBeVisible();

  // From a clean board, the sidebar's entry brings the board back with the view's filter and sort.
  await page.goto('/kanban');
  await expect(page.getByRole('button', { name: 'Guardar vista' })).toBeVisible({ timeout: SLOW });
  await expect(page.getByRole('region', { name: /^Vista guardada/ })).toHaveCount(0);
  await viewLink(page, name).click();
  await expect(page).toHaveURL(/\/kanban\?.*priority=4/, { timeout: SLOW });
  await expect(page).toHaveURL(/sort=name(%3A|:)asc/);
  await expect(page.getByRole('region', { name: `Vista guardada ${name}` })).toBeVisible();
});
