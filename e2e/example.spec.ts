import { expect, test } from '@playwright/test';
import { dropFiles, sampleFiles, sidebar, signInQuickly } from './support.ts';

/** /example, the component showcase: every shared component in its own card. */

const cards = [
  'Notificaciones',
  'Código de 6 dígitos',
  'Carga de archivos',
  'Botones',
  'Campos con validación',
  'Selector',
  'Modal',
  'Carga',
  'Insignia de estado',
  'Marca de permiso',
  'Cambio de estado',
  'Alertas',
  'Confirmación',
];

test('the showcase renders every component, from the menu of a role that holds it', async ({ page }) => {
  await signInQuickly(page, 'admin');
  await page.goto('/tickets');
  await sidebar(page).getByRole('link', { name: 'Componentes' }).click();
  await expect(page).toHaveURL(/\/example$/);
  for (const title of cards) {
    await expect(page.getByRole('region', { name: title, exact: true })).toBeVisible();
  }
  const card = (title: string) => page.getByRole('region', { name: title, exact: true });

  await expect(card('Notificaciones').getByText('Se te ha asignado un nuevo ticket').first()).toBeVisible();
  await expect(card('Código de 6 dígitos').getByRole('button', { name: 'Confirmar' })).toBeDisabled();
  await card('Código de 6 dígitos').getByLabel('Dígito 1 de 6').fill('1');
  await expect(card('Botones').getByRole('button', { name: 'Deshabilitado' })).toBeDisabled();
  await expect(card('Insignia de estado').getByText('Desconocido', { exact: true })).toBeVisible();

  await card('Selector').getByLabel('Área').click();
  await expect(page.getByRole('textbox', { name: 'Buscar...', exact: true }).filter({ visible: true })).toBeVisible();
  await page.getByRole('textbox', { name: 'Buscar...', exact: true }).filter({ visible: true }).fill('zzz');
  await expect(page.getByText('No se encontraron resultados')).toBeVisible();
  await page.keyboard.press('Escape');

  // Status 1 shows delete; confirming calls /example, which answers; then status 2 shows restore.
  const status = card('Cambio de estado');
  await expect(status.getByText('Activo', { exact: true })).toBeVisible();
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/example/1/change-status'));
  await status.getByRole('button', { name: 'Eliminar registro de ejemplo 1' }).click();
  await expect(page.getByRole('dialog', { name: '¿Estás seguro de eliminar?' })).toBeVisible();
  await page.getByRole('button', { name: 'Sí, eliminar' }).click();
  expect((await answered).status()).toBe(200);
  await expect(status.getByText('Inactivo', { exact: true })).toBeVisible();
  await status.getByRole('button', { name: 'Restaurar registro de ejemplo 1' }).click();
  await expect(page.getByRole('dialog', { name: '¿Estás seguro de restaurar?' })).toBeVisible();
  await page.getByRole('button', { name: 'Sí, restaurar' }).click();
  await expect(status.getByText('Activo', { exact: true })).toBeVisible();

  await card('Confirmación').getByRole('button', { name: 'Pedir confirmación' }).click();
  await page.getByRole('button', { name: 'Cancelar' }).click();
});

test('the showcase drop zone lists pdf and png files and refuses a fourth file and an .exe', async ({ page }) => {
  await signInQuickly(page, 'admin');
  await page.goto('/example');
  const zone = page.getByRole('region', { name: 'Carga de archivos', exact: true });
  const dropzone = '[data-testid="file-dropzone"]';

  await dropFiles(page, dropzone, [sampleFiles.exe()]);
  await expect(zone.getByRole('alert')).toHaveText('Formato inválido');
  await expect(zone.getByTestId('dropped-files')).toHaveCount(0);

  await dropFiles(page, dropzone, [sampleFiles.pdf(), sampleFiles.png()]);
  const list = zone.getByTestId('dropped-files');
  await expect(list.getByRole('row')).toHaveCount(3);
  await expect(list.getByRole('row', { name: /informe\.pdf .*Bytes application\/pdf/ })).toBeVisible();
  await expect(list.getByRole('row', { name: /foto\.png 70 Bytes image\/png/ })).toBeVisible();

  await dropFiles(page, dropzone, [sampleFiles.png('otra.png'), sampleFiles.png('una-mas.png')]);
  await expect(zone.getByRole('alert')).toHaveText('Solo se pueden subir 3 como máximo');
  await expect(list.getByRole('row')).toHaveCount(3);

  await dropFiles(page, dropzone, [sampleFiles.png('tercera.png')]);
  await expect(list.getByRole('row')).toHaveCount(4);
  await dropFiles(page, dropzone, [sampleFiles.pdf('cuarta.pdf')]);
  await expect(zone.getByRole('alert')).toHaveText('Solo se pueden subir 3 como máximo');
  await expect(list.getByRole('row')).toHaveCount(4);
});

test('a role without the example route does not see it in the menu', async ({ page }) => {
  await signInQuickly(page, 'agente');
  await page.goto('/tickets');
  await expect(sidebar(page).getByRole('link', { name: 'Mis Tickets' })).toBeVisible();
  await expect(sidebar(page).getByRole('link', { name: 'Componentes' })).toHaveCount(0);
});
