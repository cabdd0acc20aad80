import { expect, test } from '@playwright/test';
import { apiToken, choose, field, signInQuickly, signInWithForm, sidebar, uniqueLetters } from './support.ts';

test('a role given only r on areas sees no Agregar nor actions, and the server refuses it anyway', async ({
  page,
  browser,
}) => {
  const roleName = `Auditor ${uniqueLetters()}`;
  await signInQuickly(page, 'admin');
  await page.goto('/routes');
  for (const tab of ['Roles', 'Rutas', 'Permisos de Rutas', 'Secciones', 'Permisos de Secciones']) {
    await expect(page.getByRole('tab', { name: tab, exact: true })).toBeVisible();
  }

  // 1. The role.
  await page.getByRole('button', { name: 'Agregar' }).click();
  await field(page, 'Nombre').fill(roleName);
  await page.getByRole('dialog').getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Registro creado exitosamente.')).toBeVisible();
  await page.getByText('Registro creado exitosamente.').waitFor({ state: 'hidden' });

  // 2. The route permission: areas for the role.
  await page.getByRole('tab', { name: 'Permisos de Rutas' }).click();
  await page.getByRole('button', { name: 'Agregar' }).click();
  await choose(page, 'Ruta', 'areas');
  await choose(page, 'Rol', roleName);
  await page.getByRole('dialog').getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Registro creado exitosamente.')).toBeVisible();
  await page.getByText('Registro creado exitosamente.').waitFor({ state: 'hidden' });

  // 3. The section permission: ar_main with r only.
  await page.getByRole('tab', { name: 'Permisos de Secciones' }).click();
  await page.getByRole('button', { name: 'Agregar' }).click();
  await choose(page, 'Sección', 'ar_main');
  await choose(page, 'Rol', roleName);
  await page.getByRole('dialog').getByLabel('Leer (r)').check();
  await page.getByRole('dialog').getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Registro creado exitosamente.')).toBeVisible();
  const permission = page.getByRole('table').getByRole('row').filter({ hasText: roleName });
  await expect(permission.getByRole('img', { name: 'Sí' })).toHaveCount(1);
  await expect(permission.getByRole('img', { name: 'No' })).toHaveCount(3);
  // Editing keeps the section fixed.
  await permission.getByRole('button', { name: /^Editar/ }).click();
  await expect(page.getByRole('dialog').getByLabel(/^Sección/)).toBeDisabled();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();

  // 4. A user with that role (through the API: /users has its own test).
  const admin = await apiToken(page.request, 'admin');
  const roles = (await (
    await page.request.get('/api/roles/active-records', { headers: { Authorization: `Bearer ${admin.token}` } })
  ).json()) as { data: { id: number; name: string }[] };
  const roleId = roles.data.find((r) => r.name === roleName)!.id;
  const username = `auditor${uniqueLetters()}`;
  const created = await page.request.post('/api/users/create', {
    headers: { Authorization: `Bearer ${admin.token}` },
    data: {
      name: 'Rosa',
      last_name: 'Vega',
      username,
      email: `${username}@portal.local`,
      password: 'ClaveSegura1',
      role_id: roleId,
    },
  });
  expect(created.status()).toBe(201);

  // The auditor sees Áreas without Agregar or Acciones, and nothing else of the menu.
  const context = await browser.newContext();
  const auditor = await context.newPage();
  await signInWithForm(auditor, username, 'ClaveSegura1');
  await expect(auditor).toHaveURL(/\/tickets$/);
  await expect(sidebar(auditor).getByRole('link')).toHaveText(['Áreas']);
  await sidebar(auditor).getByRole('link', { name: 'Áreas' }).click();
  await expect(auditor.getByRole('heading', { name: 'Áreas', level: 2 })).toBeVisible();
  await expect(auditor.getByRole('table').getByRole('row').nth(1)).toBeVisible();
  await expect(auditor.getByRole('button', { name: 'Agregar' })).toHaveCount(0);
  await expect(auditor.getByRole('columnheader', { name: 'Acciones' })).toHaveCount(0);
  await expect(auditor.getByRole('button', { name: /^Editar/ })).toHaveCount(0);

  // The server refuses what the screen hides.
  const token = await auditor.evaluate(() => localStorage.getItem('token'));
  const refused = await auditor.request.post('/api/areas/create', {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: 'Intrusa', status_id: 1 },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toBe('No tienes permiso para realizar esta acción.');
  await context.close();
});

test('the sidebar hides the routes the role lacks', async ({ page }) => {
  await signInQuickly(page, 'supervisor');
  await page.goto('/areas');
  const menu = sidebar(page);
  await expect(menu.getByRole('link', { name: 'Áreas' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Usuarios' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Roles y Permisos' })).toHaveCount(0);
  // Supervisor reads catalogues only: no Agregar.
  await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Agregar' })).toHaveCount(0);
});
