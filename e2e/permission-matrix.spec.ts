import { expect, test } from '@playwright/test';
import { signInQuickly } from './support.ts';

test('an administrator grants a section from the matrix in one click, and it stays after a reload', async ({
  page,
}) => {
  await signInQuickly(page, 'admin');
  await page.goto('/routes');
  await page.getByRole('tab', { name: 'Matriz' }).click();
  const matrix = page.getByRole('table', { name: 'Matriz de permisos' });
  await expect(matrix.getByRole('rowheader', { name: 'Prioridades' })).toBeVisible();
  await expect(matrix.getByText('pt_main')).toHaveCount(0);
  // Every section shows its Spanish name, the showcase's too; no row shows a code.
  await expect(matrix.getByRole('rowheader', { name: 'Componentes' })).toBeVisible();
  expect((await matrix.getByRole('rowheader').allTextContents()).filter((name) => /_/.test(name))).toEqual([]);

  const box = matrix.getByRole('checkbox', { name: 'Crear en Prioridades para Agente' });
  await expect(box).not.toBeChecked();
  await box.click();
  await expect(page.getByText('Agente: Crear en Prioridades concedido.')).toBeVisible();
  await expect(box).toBeChecked();

  await page.reload();
  await page.getByRole('tab', { name: 'Matriz' }).click();
  await expect(
    page
      .getByRole('table', { name: 'Matriz de permisos' })
      .getByRole('checkbox', { name: 'Crear en Prioridades para Agente' }),
  ).toBeChecked();

  // The list tab names the section the same way.
  await page.getByRole('tab', { name: 'Permisos de Secciones' }).click();
  await page
    .getByRole('textbox', { name: /Buscar/ })
    .first()
    .fill('pt_main');
  await expect(page.getByRole('cell', { name: 'Prioridades', exact: true }).first()).toBeVisible();

  // Put it back, so other tests see the seeded permissions.
  await page.getByRole('tab', { name: 'Matriz' }).click();
  const again = page.getByRole('table', { name: 'Matriz de permisos' }).getByRole('checkbox', {
    name: 'Crear en Prioridades para Agente',
  });
  await again.click();
  await expect(page.getByText('Agente: Crear en Prioridades retirado.')).toBeVisible();
  await expect(again).not.toBeChecked();
});
