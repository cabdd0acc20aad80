import { expect, test } from '@playwright/test';
import { startSmtpReceiver, type SmtpReceiver } from '../apps/api/test/smtp-receiver.ts';
import { E2E_RECOVERY_PORT, E2E_SMTP_PORT } from '../playwright.config.ts';
import { apiToken, signInQuickly } from './support.ts';

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
});
