import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { startSmtpReceiver, type SmtpReceiver } from '../apps/api/test/smtp-receiver.ts';
import { E2E_RECOVERY_PORT, E2E_SMTP_PORT } from '../playwright.config.ts';
import { apiToken, sidebar, signInQuickly, untilSettled } from './support.ts';

/** Against the server that delivers over SMTP (playwright.config.ts), to a real SMTP server in this process. */
const base = `http://127.0.0.1:${E2E_RECOVERY_PORT}`;
test.use({ baseURL: base });

let smtp: SmtpReceiver;
test.beforeAll(async () => {
  smtp = await startSmtpReceiver({ port: E2E_SMTP_PORT });
});
test.afterAll(() => smtp?.close());

test('a person who chooses e-mail for new activity gets a mail with the link when someone else adds one', async ({
  page,
  request,
}) => {
  await signInQuickly(page, 'admin');
  await page.goto('/users-profile');
  await page.getByRole('tab', { name: 'Notificaciones' }).click();
  await expect(page).toHaveURL(/tab=notificaciones/);
  await page.getByRole('combobox', { name: 'Nueva actividad en un ticket mío' }).click();
  await page.getByRole('option', { name: 'Por correo', exact: true }).click();
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Preferencias de notificación guardadas.')).toBeVisible();

  // The admin's ticket is assigned to the agent, who adds an activity.
  const { token: csrf } = (await (await request.get('/api/csrf-token')).json()) as { token: string };
  const admin = await apiToken(request, 'admin');
  const agente = await apiToken(request, 'agente');
  const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'x-csrf-token': csrf });
  const created = await request.post('/api/tickets/create', {
    headers: headers(admin.token),
    data: {
      name: 'Báscula descalibrada Nuevo Laredo',
      description: 'Marca 3 kg de más',
      area_id: 1,
      project_id: 1,
      category_id: 1,
      priority_type_id: 1,
      difficulty_id: 1,
      status_id: 1,
    },
  });
  expect(created.status()).toBe(201);
  const ticketId = ((await created.json()) as { data: { id: number } }).data.id;
  const assigned = await request.patch(`/api/tickets/${ticketId}/assign/${agente.user.id}`, {
    headers: headers(admin.token),
  });
  expect(assigned.status()).toBe(200);
  const added = await request.post('/api/activities/create', {
    headers: headers(agente.token),
    data: { name: 'Se recalibró con la pesa patrón', ticket_id: ticketId },
  });
  expect(added.status()).toBe(201);

  const mail = await smtp.waitFor(
    (m) => m.subject === `[Ticket #${ticketId}] Báscula descalibrada Nuevo Laredo` && m.text.includes('actividad'),
  );
  expect(mail.text).toContain('Se recalibró con la pesa patrón');
  expect(mail.text).toContain(`/tickets/${ticketId}`);

  // Accesos → Correo lists it as sent.
  const correo = page.getByRole('link', { name: 'Correo', exact: true });
  if (!(await correo.isVisible())) await page.getByText('Accesos', { exact: true }).first().click();
  await correo.click();
  await expect(page).toHaveURL(/\/mail-outbox$/);
  await expect(page.getByRole('heading', { name: 'Correo', level: 2 })).toBeVisible();
  await page.getByRole('combobox', { name: 'Estado' }).click();
  await page.getByRole('option', { name: 'Enviado', exact: true }).click();
  const row = page
    .getByRole('row')
    .filter({ hasText: `[Ticket #${ticketId}] Báscula descalibrada Nuevo Laredo` })
    .filter({ hasText: mail.to[0]! });
  await expect(row).toBeVisible();
  await expect(row.getByText('Enviado', { exact: true })).toBeVisible();
});

test('an administrator retries a mail the server refused from the Correo screen', async ({ page, request }) => {
  const { token: csrf } = (await (await request.get('/api/csrf-token')).json()) as { token: string };
  const admin = await apiToken(request, 'admin');
  const lucia = await apiToken(request, 'lmartinez');
  smtp.refuse(lucia.user.email);
  const headers = { authorization: `Bearer ${admin.token}`, 'x-csrf-token': csrf };
  const created = await request.post('/api/tickets/create', {
    headers,
    data: {
      name: 'Impresora de etiquetas sin papel',
      description: 'Andén 2',
      area_id: 1,
      project_id: 1,
      category_id: 1,
      priority_type_id: 1,
      difficulty_id: 1,
      status_id: 1,
    },
  });
  const ticketId = ((await created.json()) as { data: { id: number } }).data.id;
  // Assignments go by e-mail by default: the server refuses Lucía's mailbox (550), the mail fails.
  expect((await request.patch(`/api/tickets/${ticketId}/assign/${lucia.user.id}`, { headers })).status()).toBe(200);

  await signInQuickly(page, 'admin');
  await page.goto('/mail-outbox');
  await page.getByRole('combobox', { name: 'Estado' }).click();
  await page.getByRole('option', { name: 'Fallido', exact: true }).click();
  const row = page.getByRole('row').filter({ hasText: `[Ticket #${ticketId}]` });
  await expect(async () => {
    await page.getByRole('button', { name: 'Actualizar' }).click();
    await expect(row).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(row).toContainText('550');
  await row.getByRole('button', { name: `Reintentar el correo a ${lucia.user.email}` }).click();
  await expect(page.getByText('El correo volvió a la cola.')).toBeVisible();
});

test('the supervisor has no Correo in the menu and cannot open it', async ({ page }) => {
  await signInQuickly(page, 'supervisor');
  await page.goto('/workload');
  const menu = sidebar(page);
  await expect(menu.getByRole('link', { name: 'Usuarios' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Correo' })).toHaveCount(0);
  await page.goto('/mail-outbox');
  await expect(page.getByRole('heading', { name: 'Acceso denegado' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Cola de correo' })).toHaveCount(0);
});

test('Correo has no serious or critical accessibility violation', async ({ page }) => {
  await signInQuickly(page, 'admin');
  await page.goto('/mail-outbox');
  await expect(page.getByRole('table', { name: 'Cola de correo' }).getByRole('row').nth(1)).toBeVisible();
  await untilSettled(page);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  expect(serious).toEqual([]);
});
