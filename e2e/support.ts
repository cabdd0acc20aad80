import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const PASSWORDS: Record<string, string> = { admin: 'PortalAdmin1' };
export const passwordOf = (username: string) => PASSWORDS[username] ?? 'PortalDemo1';

/** Signs in through the form, as a person would. */
export async function signInWithForm(page: Page, username: string, password = passwordOf(username)) {
  await page.goto('/login');
  await page.getByLabel('Usuario').fill(username);
  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
}

/** A token from the API (for calls the UI would refuse to make). */
export async function apiToken(request: APIRequestContext, username: string, password = passwordOf(username)) {
  const response = await request.post('/api/login', { data: { username, password } });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { data: { token: string; user: { id: number } } };
  return body.data;
}

/** Signs in without the form: stores what a login stores (SPEC §3) before the app starts. */
export async function signInQuickly(page: Page, username: string, password = passwordOf(username)) {
  const data = await apiToken(page.request, username, password);
  await page.addInitScript(
    ({ token, user }) => {
      if (window.localStorage.getItem('e2e-signed-in')) return;
      window.localStorage.setItem('e2e-signed-in', '1');
      window.localStorage.setItem('token', token);
      window.localStorage.setItem('user', JSON.stringify(user));
      window.localStorage.setItem('userId', String(user.id));
    },
    data as { token: string; user: { id: number } },
  );
}

/** The sidebar's links, by their names. */
export const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Secciones' });

/** Picks an option in the select control of SPEC §2 (searching for it). */
export async function choose(page: Page, label: string, option: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(new RegExp(`^${label}( \\*)?$`)).click();
  await page.getByRole('textbox', { name: 'Buscar...', exact: true }).filter({ visible: true }).fill(option);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** A text field of the open modal by its label (required ones carry an asterisk). */
export const field = (page: Page, label: string) =>
  page.getByRole('dialog').getByLabel(new RegExp(`^${label}( \\*)?$`));

export const uniqueLetters = () =>
  Array.from({ length: 6 }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)]).join('');
