import { expect, test } from '@playwright/test';
import { E2E_SHORT_TTL_PORT } from '../playwright.config.ts';
import { signInWithForm } from './support.ts';

// A server whose tokens live 36 s: the warning shows once 30 s or less remain.
test.use({ baseURL: `http://127.0.0.1:${E2E_SHORT_TTL_PORT}` });

test('the renewal dialog appears near expiry and renewing replaces the token', async ({ page }) => {
  test.setTimeout(90_000);
  await signInWithForm(page, 'admin');
  await expect(page).toHaveURL(/\/tickets$/);
  const first = await page.evaluate(() => localStorage.getItem('token'));

  const dialog = page.getByRole('dialog', { name: 'Tu sesión está por expirar' });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await expect(dialog).toContainText(/Tu sesión expirará en \d+ segundos/);
  await dialog.getByRole('button', { name: 'Renovar sesión' }).click();
  await expect(page.getByText('Sesión renovada')).toBeVisible();
  await expect(dialog).toBeHidden();
  const second = await page.evaluate(() => localStorage.getItem('token'));
  expect(second).not.toBe(first);

  // The renewed token works; the old one was revoked.
  const ok = await page.request.post('/api/user-permissions', {
    headers: { Authorization: `Bearer ${second}` },
    data: {},
  });
  expect(ok.status()).toBe(200);
});

test('without renewal the session ends at expiry and the app returns to /login', async ({ page }) => {
  test.setTimeout(90_000);
  await signInWithForm(page, 'admin');
  await expect(page.getByRole('dialog', { name: 'Tu sesión está por expirar' })).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/login$/, { timeout: 45_000 });
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});
