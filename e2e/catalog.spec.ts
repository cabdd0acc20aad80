import { expect, test } from '@playwright/test';
import { field, signInQuickly, uniqueLetters } from './support.ts';

test.describe('generic catalogue screen', () => {
  test.beforeEach(async ({ page }) => {
    await signInQuickly(page, 'admin');
  });

  test('create, edit, search, page size remembered, deactivate and restore', async ({ page }) => {
    const name = `Patio ${uniqueLetters()}`;
    await page.goto('/categories');
    const table = page.getByRole('table');
    await expect(table.getByRole('row')).toHaveCount(1 + 6); // six seeded categories

    // Create: quotes and digits are stripped as the user types (onlyLetters).
    await page.getByRole('button', { name: 'Agregar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Agregar categoría' });
    await expect(dialog).toBeVisible();
    await field(page, 'Nombre').fill(`${name}'7"`);
    await expect(field(page, 'Nombre')).toHaveValue(name);
    await expect(dialog.getByLabel(/^Estado/)).toHaveText('Activo');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('Registro creado exitosamente.')).toBeVisible();
    await expect(dialog).toBeHidden();
    const row = table.getByRole('row').filter({ hasText: name });
    await expect(row).toBeVisible();

    // A duplicate is refused by the server with its field error.
    await page.getByRole('button', { name: 'Agregar' }).click();
    await field(page, 'Nombre').fill(name);
    await page.getByRole('dialog').getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByRole('dialog').getByRole('alert')).toContainText('Error de validación');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();

    // Edit.
    await row.getByRole('button', { name: /^Editar/ }).click();
    await expect(page.getByRole('dialog', { name: 'Editar categoría' })).toBeVisible();
    await field(page, 'Nombre').fill(`${name} Sur`);
    await page.getByRole('dialog').getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('Registro actualizado exitosamente.')).toBeVisible();
    const edited = table.getByRole('row').filter({ hasText: `${name} Sur` });
    await expect(edited).toBeVisible();

    // Search finds it (and only it).
    await page.getByPlaceholder('Buscar...').fill(`${name} Sur`);
    await expect(table.getByRole('row')).toHaveCount(2);
    await page.getByPlaceholder('Buscar...').fill('zzzz nada');
    await expect(page.getByText('Sin resultados por ahora')).toBeVisible();
    await page.getByPlaceholder('Buscar...').fill('');

    // Page size 5, remembered after a reload.
    await page.getByLabel('Mostrar').selectOption('5');
    await expect(table.getByRole('row')).toHaveCount(1 + 5);
    await expect(page.getByRole('button', { name: 'Página 2' })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Mostrar')).toHaveValue('5');
    await expect(table.getByRole('row')).toHaveCount(1 + 5);
    expect(await page.evaluate(() => localStorage.getItem('perPage:categories'))).toBe('5');

    // Deactivate: confirmation, then 'Eliminado'; an inactive record cannot be edited.
    await page.getByPlaceholder('Buscar...').fill(`${name} Sur`);
    await expect(table.getByRole('row')).toHaveCount(2);
    await edited.getByRole('button', { name: /^Eliminar/ }).click();
    const confirm = page.getByRole('dialog');
    await expect(confirm).toContainText('¿Estás seguro de eliminar?');
    await expect(confirm).toContainText('Este registro será desactivado');
    await confirm.getByRole('button', { name: 'Sí, eliminar' }).click();
    await expect(page.getByText('Eliminado', { exact: true })).toBeVisible();
    await expect(edited).toContainText('Inactivo');
    await expect(edited.getByRole('button', { name: /^Editar/ })).toHaveCount(0);

    // Restore.
    await edited.getByRole('button', { name: /^Restaurar/ }).click();
    await expect(page.getByRole('dialog')).toContainText('¿Estás seguro de restaurar?');
    await page.getByRole('dialog').getByRole('button', { name: 'Sí, restaurar' }).click();
    await expect(page.getByText('Restaurado', { exact: true })).toBeVisible();
    await expect(edited).toContainText('Activo');
    await expect(edited.getByRole('button', { name: /^Editar/ })).toBeVisible();
  });

  test('a status change keeps the current page', async ({ page }) => {
    await page.goto('/areas');
    await page.getByLabel('Mostrar').selectOption('5');
    await page.getByRole('button', { name: 'Página 2' }).click();
    const table = page.getByRole('table');
    const first = table.getByRole('row').nth(1);
    await expect(first).toBeVisible();
    await first.getByRole('button', { name: /^Eliminar/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sí, eliminar' }).click();
    await expect(page.getByText('Eliminado', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Página 2' })).toHaveAttribute('data-active');
    await expect(first).toContainText('Inactivo');
    await first.getByRole('button', { name: /^Restaurar/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sí, restaurar' }).click();
    await expect(first).toContainText('Activo');
  });

  test('every catalogue of the menu opens with its own title', async ({ page }) => {
    await page.goto('/areas');
    for (const [entry, title] of [
      ['Categorías', 'Categorías'],
      ['Proyectos', 'Proyectos'],
      ['Dificultades', 'Dificultades'],
      ['Estados de Ticket', 'Estados de Ticket'],
      ['Grupos', 'Grupos'],
      ['Prioridades', 'Prioridades'],
    ]) {
      await page.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name: entry }).click();
      await expect(page.getByRole('heading', { name: title, level: 2 })).toBeVisible();
      await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
      await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();
    }
  });
});
