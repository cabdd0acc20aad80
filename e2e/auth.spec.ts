import { expect, test } from '@playwright/test';
import { apiToken, signInQuickly, signInWithForm } from './support.ts';

test.describe('sign-in and redirects', () => {
  test('a wrong password shows the problem and stays on /login', async ({ page }) => {
    await signInWithForm(page, 'admin', 'NoEsLaClave1');
    const alert = page.getByRole('alert').filter({ hasText: 'Tenemos un problema' });
    await expect(alert).toContainText('Usuario o contraseña incorrectos.');
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  test('empty fields are required and nothing is sent', async ({ page }) => {
    await page.goto('/login');
    let calls = 0;
    page.on('request', (r) => r.url().endsWith('/api/login') && calls++);
    await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
    await expect(page.getByText('Este campo es obligatorio.')).toHaveCount(2);
    expect(calls).toBe(0);
  });

  test('signing in welcomes the user, stores the session and opens /tickets with the layout', async ({ page }) => {
    await signInWithForm(page, 'admin');
    await expect(page.getByText('¡Bienvenido!')).toBeVisible();
    await expect(page.getByText('Inicio de sesión exitoso.')).toBeVisible();
    await expect(page).toHaveURL(/\/tickets$/);
    await expect(page.getByText('@admin')).toBeVisible();
    await expect(page.getByText('Ana Administradora')).toBeVisible();
    const stored = await page.evaluate(() => ({
      token: localStorage.getItem('token'),
      user: JSON.parse(localStorage.getItem('user') ?? 'null') as { username: string } | null,
      userId: localStorage.getItem('userId'),
    }));
    expect(stored.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored.user?.username).toBe('admin');
    expect(stored.userId).toBe('1');
    // The welcome closes by itself after 2 s.
    await expect(page.getByText('¡Bienvenido!')).toBeHidden({ timeout: 5_000 });
  });

  test('a protected page without a session goes to /login and back after signing in', async ({ page }) => {
    await page.goto('/areas');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Usuario').fill('admin');
    await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill('PortalAdmin1');
    await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
    await expect(page).toHaveURL(/\/areas$/);
    await expect(page.getByRole('heading', { name: 'Áreas', level: 2 })).toBeVisible();
  });

  test('a signed-in user visiting /login goes to /tickets', async ({ page }) => {
    await signInQuickly(page, 'admin');
    await page.goto('/login');
    await expect(page).toHaveURL(/\/tickets$/);
  });

  test('unknown paths show the 404 page, with or without a session', async ({ page }) => {
    await page.goto('/no-existe');
    await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Ir a iniciar sesión' })).toBeVisible();
    await signInQuickly(page, 'admin');
    await page.goto('/no-existe/tampoco');
    await expect(page.getByRole('heading', { name: 'Página no encontrada', level: 2 })).toBeVisible();
    await expect(page.getByText('@admin')).toBeVisible();
  });

  test('Salir in the gear menu logs out, revokes the token and clears storage', async ({ page }) => {
    await signInQuickly(page, 'admin');
    await page.goto('/areas');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    await page.getByRole('button', { name: 'Configuración de la cuenta' }).click();
    await page.getByRole('menuitem', { name: 'Salir' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(
      await page.evaluate(() => [
        localStorage.getItem('token'),
        localStorage.getItem('user'),
        localStorage.getItem('userId'),
      ]),
    ).toEqual([null, null, null]);
    const refused = await page.request.post('/api/user-permissions', {
      headers: { Authorization: `Bearer ${token}` },
      data: {},
    });
    expect(refused.status()).toBe(401);
  });

  test('a 401 from the API ends the session with the Spanish message', async ({ page }) => {
    await signInQuickly(page, 'admin');
    await page.goto('/areas');
    await expect(page.getByRole('heading', { name: 'Áreas', level: 2 })).toBeVisible();
    // Watched from before the revocation: the notice lasts 3 s, and the first call to meet
    // the 401 may be the app's own (the live stream's reconnection, the notifications'
    // polling) rather than the search below.
    const expired = page.getByText('Sesión expirada. Redirigiendo...').waitFor();
    // Revoke the token behind the app's back: its next call gets a 401.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    await page.request.post('/api/logout', { headers: { Authorization: `Bearer ${token}` } });
    // The search box is gone already when an earlier call met the 401.
    await page
      .getByPlaceholder('Buscar...')
      .fill('Compras', { timeout: 5_000 })
      .catch(() => undefined);
    await expired;
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('status').filter({ hasText: 'Tu sesión expiró' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  test("a token that expired while the portal was closed lands on /login with 'Tu sesión expiró'", async ({ page }) => {
    const { token, user } = await apiToken(page.request, 'admin');
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { exp: number };
    const expired = Buffer.from(JSON.stringify({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })).toString(
      'base64url',
    );
    await page.addInitScript(
      ({ token, user }) => {
        if (window.sessionStorage.getItem('e2e-stored')) return;
        window.sessionStorage.setItem('e2e-stored', '1');
        window.localStorage.setItem('token', token);
        window.localStorage.setItem('user', JSON.stringify(user));
        window.localStorage.setItem('userId', String(user.id));
      },
      { token: [header, expired, signature].join('.'), user },
    );
    await page.goto('/areas');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('status').filter({ hasText: 'Tu sesión expiró' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // Said once: the next visit to /login starts clean.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Iniciar Sesión' })).toBeVisible();
    await expect(page.getByText('Tu sesión expiró')).toHaveCount(0);
  });
});
