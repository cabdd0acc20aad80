import { expect, test, type APIRequestContext } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { apiToken, dropFiles, sampleFiles, signInQuickly } from './support.ts';

/** Files on tickets: drop two on a ticket, see them, download one, delete one. */

async function createTicket(request: APIRequestContext, token: string, name: string) {
  const headers = { authorization: `Bearer ${token}` };
  const first = async (resource: string) =>
    ((await (await request.get(`/api/${resource}/active-records`, { headers })).json()) as { data: { id: number }[] })
      .data[0]!.id;
  const response = await request.post('/api/tickets/create', {
    headers,
    data: {
      name,
      description: `Ticket con archivos ${name}`,
      area_id: await first('areas'),
      project_id: await first('projects'),
      category_id: await first('categories'),
      priority_type_id: await first('priority-types'),
      difficulty_id: await first('difficulties'),
      status_id: await first('ticket-statuses'),
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { data: { id: number } }).data.id;
}

test('drop two files on a ticket, see them listed, download one, delete one', async ({ page }) => {
  const { token } = await apiToken(page.request, 'agente');
  const ticketId = await createTicket(page.request, token, 'Rampa con fotos');
  await signInQuickly(page, 'agente');
  await page.goto('/tickets');
  await page.getByPlaceholder('Buscar...').fill('Rampa con fotos');
  await page.getByRole('button', { name: `Editar ticket ${ticketId}` }).click();
  const modal = page.getByRole('dialog', { name: `Editar ticket #${ticketId}` });
  await expect(modal.getByText('Este ticket no tiene archivos adjuntos.')).toBeVisible();

  await dropFiles(page, '[role="dialog"] [data-testid="file-dropzone"]', [
    sampleFiles.pdf('acta de entrega.pdf'),
    sampleFiles.png('rampa-andén-7.png'),
  ]);
  await expect(modal.getByTestId('dropped-files').getByRole('row')).toHaveCount(3);
  const uploaded = page.waitForResponse(
    (r) => r.url().endsWith(`/api/tickets/${ticketId}/attachments`) && r.request().method() === 'POST',
  );
  await modal.getByRole('button', { name: 'Guardar' }).click();
  expect((await uploaded).status()).toBe(200);
  await expect(modal).toBeHidden();

  await page.getByRole('button', { name: `Editar ticket ${ticketId}` }).click();
  const files = page.getByRole('dialog').getByTestId('attachment-item');
  await expect(files).toHaveCount(2);
  await expect(files.nth(0)).toContainText('acta de entrega.pdf');
  await expect(files.nth(0).getByRole('img', { name: 'PDF' })).toBeVisible();
  await expect(files.nth(1).getByRole('img', { name: 'Miniatura de rampa-andén-7.png' })).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Descargar acta de entrega.pdf' }).click();
  const saved = await download;
  expect(saved.suggestedFilename()).toBe('acta de entrega.pdf');
  const bytes = await readFile((await saved.path())!);
  expect(bytes.equals(Buffer.from(sampleFiles.pdf().base64, 'base64'))).toBe(true);

  await page.getByRole('button', { name: 'Eliminar rampa-andén-7.png' }).click();
  await expect(page.getByRole('dialog', { name: '¿Estás seguro de eliminar?' })).toBeVisible();
  await page.getByRole('button', { name: 'Sí, eliminar' }).click();
  await expect(files).toHaveCount(1);
  await expect(files.first()).toContainText('acta de entrega.pdf');
});

test('another permitted user downloads the file; a user who cannot see the ticket is refused', async ({ page }) => {
  const { token } = await apiToken(page.request, 'agente');
  const ticketId = await createTicket(page.request, token, 'Archivo compartido');
  const upload = await page.request.post(`/api/tickets/${ticketId}/attachments`, {
    headers: { authorization: `Bearer ${token}` },
    multipart: { files: { name: 'guía.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 guía') } },
  });
  expect(upload.status()).toBe(200);
  const [file] = ((await upload.json()) as { data: { id: number }[] }).data;

  const supervisor = await apiToken(page.request, 'supervisor');
  const allowed = await page.request.get(`/api/attachments/${file!.id}`, {
    headers: { authorization: `Bearer ${supervisor.token}` },
  });
  expect(allowed.status()).toBe(200);
  expect(allowed.headers()['content-disposition']).toBe(
    `attachment; filename="guia.pdf"; filename*=UTF-8''gu%C3%ADa.pdf`,
  );
  expect((await allowed.body()).toString()).toBe('%PDF-1.4 guía');

  const outsider = await apiToken(page.request, 'lmartinez');
  const refused = await page.request.get(`/api/attachments/${file!.id}`, {
    headers: { authorization: `Bearer ${outsider.token}` },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toBe(
    'No tienes permiso para ver los archivos de este ticket.',
  );
});
