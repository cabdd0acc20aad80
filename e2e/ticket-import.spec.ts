import { expect, test } from '@playwright/test';
import { signInQuickly, uniqueLetters } from './support.ts';

/** Importar CSV on Tickets Generales: the administrator's action, its progress, its refusals. */

const HEADER =
  'ID,Ticket,Descripción,Prioridad,Estado,Proyecto,Área,Categoría,Dificultad,Creado por,Asignado a,Creado,Actualizado\r\n';

/** A file of `count` tickets named `<tag> <n>`, its names typed without accents or case. */
function csvOf(tag: string, count: number, area = 'almacen') {
  let text = '\uFEFF' + HEADER;
  for (let i = 1; i <= count; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    text += `,${tag} ${i},Historia importada ${tag} numero ${i},ALTA,en progreso,ruta bajio,${area},incidencia,baja,ana administradora,diego hernandez,2018-02-${day} 09:30:00,\r\n`;
  }
  return Buffer.from(text);
}

test('an administrator imports a CSV with a progress bar; bad lines are listed and nothing is imported', async ({
  page,
}) => {
  test.slow();
  await signInQuickly(page, 'admin');
  await page.goto('/general-tickets');
  await page.getByRole('button', { name: 'Importar CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importar CSV' });

  // A file with a line whose area does not exist: listed with its number, nothing imported.
  const bad = uniqueLetters();
  const badFile = Buffer.concat([
    csvOf(bad, 2),
    Buffer.from(
      `,${bad} 3,Otra,Alta,Abierto,Ruta Bajío,Bodega Lunar,Incidencia,Baja,Ana Administradora,,2018-03-01 10:00:00,\r\n`,
    ),
  ]);
  await dialog.locator('input[type="file"]').setInputFiles({ name: 'malo.csv', mimeType: 'text/csv', buffer: badFile });
  await dialog.getByRole('button', { name: 'Importar' }).click();
  await expect(dialog.getByText('Una línea no se pudo importar; no se importó ningún ticket.')).toBeVisible();
  await expect(dialog.getByText('Línea 4: Área: no existe «Bodega Lunar».')).toBeVisible();

  // A valid file, large enough to load in several batches: the bar shows, then the count.
  const tag = uniqueLetters();
  const count = 25_000;
  await dialog
    .locator('input[type="file"]')
    .setInputFiles({ name: 'historia.csv', mimeType: 'text/csv', buffer: csvOf(tag, count) });
  await dialog.getByRole('button', { name: 'Importar' }).click();
  await expect(dialog.getByRole('progressbar', { name: 'Avance de la importación' })).toBeVisible();
  await expect(dialog.getByText(/^Se importaron 25[,.]000 tickets\.$/)).toBeVisible({ timeout: 120_000 });
  await dialog.getByRole('button', { name: 'Aceptar' }).click();

  // The imported tickets are listed and found, with their names resolved and dates kept; the bad file left none.
  await page.getByRole('textbox', { name: /^Buscar en/ }).fill(`${tag} 7`);
  const row = page
    .getByRole('row')
    .filter({ hasText: `${tag} 7` })
    .first();
  await expect(row).toBeVisible();
  await expect(row).toContainText('Alta');
  await page.getByRole('textbox', { name: /^Buscar en/ }).fill(bad);
  await expect(page.getByText('No se encontraron tickets.')).toBeVisible();
});

test('Importar CSV is not offered to a supervisor, and the API refuses one', async ({ page, request }) => {
  await signInQuickly(page, 'supervisor');
  await page.goto('/general-tickets');
  await expect(page.getByRole('button', { name: 'Agregar' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Importar CSV' })).toHaveCount(0);
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await request.post('/api/tickets/import', {
    headers: { authorization: `Bearer ${token}` },
    multipart: { file: { name: 'x.csv', mimeType: 'text/csv', buffer: csvOf('X', 1) } },
  });
  expect(response.status()).toBe(403);
});
