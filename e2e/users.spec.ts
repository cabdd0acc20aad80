import { expect, test } from '@playwright/test';
import { choose, field, signInQuickly, signInWithForm, sidebar, uniqueLetters } from './support.ts';

test('a user created in /users signs in and sees only what role 3 may see', async ({ page, browser }) => {
  const suffix = uniqueLetters();
  const username = `agente${suffix}`;
  await signInQuickly(page, 'admin');
  await page.goto('/users');
  const table = page.getByRole('table');
  for (const header of [
    'ID',
    'Nombre',
    'Apellido',
    'Segundo Apellido',
    'Usuario',
    'Correo',
    'Rol',
    'Estado',
    'Acciones',
  ]) {
    await expect(table.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  }

  await page.getByRole('button', { name: 'Agregar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agregar usuario' });
  await field(page, 'Nombre').fill('Lucía');
  await field(page, 'Apellido').fill('Núñez');
  await field(page, 'Segundo Apellido').fill('Ortega');
  await field(page, 'Usuario').fill(username);
  await field(page, 'Correo').fill(`${username}@portal.local`);
  await field(page, 'Contraseña').fill('ClaveSegura1');
  await choose(page, 'Rol', 'Agente');
  await choose(page, 'Área', 'Almacén');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Registro creado exitosamente.')).toBeVisible();
  const row = table.getByRole('row').filter({ hasText: username });
  await expect(row).toContainText('Lucía');
  await expect(row).toContainText('Agente');

  // Editing a user has no password field.
  await row.getByRole('button', { name: /^Editar/ }).click();
  await expect(page.getByRole('dialog', { name: 'Editar usuario' })).toBeVisible();
  await expect(field(page, 'Contraseña')).toHaveCount(0);
  await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();

  // The new user signs in, in a browser of their own.
  const other = await browser.newContext();
  const theirs = await other.newPage();
  await signInWithForm(theirs, username, 'ClaveSegura1');
  await expect(theirs).toHaveURL(/\/tickets$/);
  await expect(theirs.getByText(`@${username}`)).toBeVisible();
  await expect(theirs.getByText('Lucía Núñez Ortega')).toBeVisible();
  const menu = sidebar(theirs);
  await expect(menu.getByRole('link', { name: 'Mis Tickets' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Historial' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Tickets Generales' })).toHaveCount(0);
  await expect(menu.getByText('Catálogos')).toHaveCount(0);
  await expect(menu.getByText('Accesos')).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Usuarios' })).toHaveCount(0);
  // A screen the role lacks is not rendered, even by its address.
  await theirs.goto('/areas');
  await expect(theirs.getByText('Acceso denegado')).toBeVisible();
  await expect(theirs.getByRole('table')).toHaveCount(0);
  await other.close();
});
