import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { startSmtpReceiver, type SmtpReceiver } from '../apps/api/test/smtp-receiver.ts';
import { E2E_RECOVERY_PORT, E2E_SMTP_PORT } from '../playwright.config.ts';
import { apiToken } from './support.ts';

/**
 * Password recovery against the server that delivers over SMTP (playwright.config.ts):
 * the mail arrives at a real SMTP server running in this test process.
 */
test.use({ baseURL: `http://127.0.0.1:${E2E_RECOVERY_PORT}` });

let smtp: SmtpReceiver;
test.beforeAll(async () => {
  smtp = await startSmtpReceiver({ port: E2E_SMTP_PORT });
});
test.afterAll(() => smtp?.close());

const box = (page: Page, n: number) => page.getByRole('textbox', { name: `Dígito ${n} de 6` });
const boxValues = (page: Page) =>
  Promise.all([1, 2, 3, 4, 5, 6].map((n) => box(page, n).inputValue())).then((v) => v.join(''));
const stored = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);

/** What a person does with the mail open in another window: copy the line and paste it into the boxes. */
async function pasteInto(page: Page, n: number, text: string) {
  await box(page, n).focus();
  await page.evaluate((value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    document.activeElement!.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

async function storeResetEmail(page: Page, email: string) {
  await page.goto('/login');
  await page.evaluate((value) => localStorage.setItem('reset_email', value), email);
}

test('a person who forgot their password gets the code by e-mail, sets a new one and signs in', async ({ page }) => {
  const oldSession = await apiToken(page.request, 'agente');

  await page.goto('/login');
  await page.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel(/Correo electrónico/).fill('agente@portal.local');
  const mailsBefore = smtp.mails.length;
  await page.getByRole('button', { name: 'Enviar código' }).click();

  await expect(page).toHaveURL(/\/confirm-code$/);
  await expect(page.getByText('Código enviado')).toBeVisible();
  expect(await stored(page, 'reset_email')).toBe('agente@portal.local');
  await expect(page.getByRole('button', { name: 'Confirmar' })).toBeDisabled();

  const mail = await smtp.waitFor(
    (m) => smtp.mails.indexOf(m) >= mailsBefore && m.subject === 'Código para restablecer tu contraseña',
  );
  expect(mail.to).toEqual(['agente@portal.local']);
  const line = mail.text.split('\n').find((l) => l.includes('código de verificación'))!;
  const code = /(\d{6})/.exec(line)![1]!;

  // A wrong code first: the server's answer under 'Código inválido', boxes emptied.
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  await box(page, 1).click();
  await page.keyboard.type(wrong);
  await page.getByRole('button', { name: 'Confirmar' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Código inválido' });
  await expect(alert).toContainText('El código ingresado es incorrecto o ha expirado.');
  expect(await boxValues(page)).toBe('');

  await pasteInto(page, 1, line);
  expect(await boxValues(page)).toBe(code);
  await page.getByRole('button', { name: 'Confirmar' }).click();

  await expect(page).toHaveURL(/\/reset-password$/);
  expect(await stored(page, 'reset_token')).toMatch(/^[\w-]{40,}$/);
  await page.getByLabel(/^Nueva contraseña/).fill('Recuperada2025');
  await page.getByLabel(/^Confirmar contraseña/).fill('Recuperada2025');
  await page.getByRole('button', { name: 'Restablecer contraseña' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Contraseña restablecida')).toBeVisible();
  expect(await stored(page, 'reset_email')).toBeNull();
  expect(await stored(page, 'reset_token')).toBeNull();

  const notice = await smtp.waitFor((m) => m.subject === 'Tu contraseña fue cambiada');
  expect(notice.to).toEqual(['agente@portal.local']);

  const refused = await page.request.post('/api/user-permissions', {
    headers: { authorization: `Bearer ${oldSession.token}` },
    data: {},
  });
  expect(refused.status()).toBe(401);

  await page.getByLabel('Usuario').fill('agente');
  const password = page.getByRole('textbox', { name: 'Contraseña' });
  await password.fill('PortalDemo1');
  await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Tenemos un problema' })).toBeVisible();
  await password.fill('Recuperada2025');
  await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
  await expect(page).toHaveURL(/\/tickets$/);
});

test('the six boxes take one digit each, move with arrows and backspace, and confirm only with six', async ({
  page,
}) => {
  await storeResetEmail(page, 'supervisor@portal.local');
  await page.goto('/confirm-code');
  await expect(box(page, 1)).toBeFocused();
  const confirm = page.getByRole('button', { name: 'Confirmar' });

  await page.keyboard.type('4x2-7');
  expect(await boxValues(page)).toBe('427');
  await expect(box(page, 4)).toBeFocused();
  await expect(confirm).toBeDisabled();

  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(box(page, 2)).toBeFocused();
  await page.keyboard.type('9');
  expect(await boxValues(page)).toBe('497');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Backspace');
  await expect(box(page, 3)).toBeFocused();
  await page.keyboard.press('Backspace');
  expect(await boxValues(page)).toBe('49');
  await expect(box(page, 2)).toBeFocused();

  await box(page, 3).click();
  await page.keyboard.type('1234');
  expect(await boxValues(page)).toBe('491234');
  await expect(confirm).toBeEnabled();

  await pasteInto(page, 1, 'código 12 34');
  expect(await boxValues(page)).toBe('1234');
  await expect(confirm).toBeDisabled();
});

test('without a stored reset e-mail or token the screens send the browser to /forgot-password', async ({ page }) => {
  await page.goto('/confirm-code');
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.goto('/reset-password');
  await expect(page).toHaveURL(/\/forgot-password$/);
  await storeResetEmail(page, 'supervisor@portal.local');
  await page.goto('/reset-password');
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByLabel(/Correo electrónico/)).toHaveValue('supervisor@portal.local');
});

test('the recovery screens pass an accessibility check', async ({ page }) => {
  const check = async () => {
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    const found = violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} ${n.failureSummary}`));
    expect(found).toEqual([]);
  };
  await page.goto('/forgot-password');
  await page.getByRole('button', { name: 'Enviar código' }).waitFor();
  await check();
  await storeResetEmail(page, 'supervisor@portal.local');
  await page.goto('/confirm-code');
  await box(page, 1).waitFor();
  await check();
  await page.evaluate(() => localStorage.setItem('reset_token', 'x'));
  await page.goto('/reset-password');
  await page.getByLabel(/^Nueva contraseña/).waitFor();
  await check();
});
