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
  const body = (await response.json()) as { data: { token: string; user: { id: number; email: string } } };
  return body.data;
}

/** A creation through the API as `token`'s user: posts `data` to `url`, expects a 201 and answers the new id. */
export const apiCreator = (request: APIRequestContext, token: string) => async (url: string, data: unknown) => {
  const response = await request.post(url, { headers: { authorization: `Bearer ${token}`, 'x-csrf-token': '' }, data });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: number } }).data.id;
};

type Creator = ReturnType<typeof apiCreator>;

/** A new ticket's body in the demo catalogues (first area, project, category, difficulty and status; Alta). */
export const demoTicket = (name: string, description: string) => ({
  name,
  description,
  area_id: 1,
  project_id: 1,
  category_id: 1,
  priority_type_id: 3,
  difficulty_id: 1,
  status_id: 1,
});

/** A business calendar open all week, around the clock (UTC): its id. */
export const alwaysOpenCalendar = (post: Creator, name: string) =>
  post('/api/business-calendars/create', {
    name,
    time_zone: 'UTC',
    week: Array.from({ length: 7 }, () => [{ start: '00:00', end: '24:00' }]),
  });

/** A new priority with its SLA policy (the same name) on `calendarId`: the priority's id. */
export async function priorityWithPolicy(
  post: Creator,
  name: string,
  calendarId: number,
  targets: { firstResponseMinutes: number; resolutionMinutes: number },
) {
  const priorityId = await post('/api/priority-types/create', { name });
  await post('/api/sla-policies/create', {
    name,
    priority_type_id: priorityId,
    calendar_id: calendarId,
    first_response_minutes: targets.firstResponseMinutes,
    resolution_minutes: targets.resolutionMinutes,
  });
  return priorityId;
}

/** Signs in without the form: stores what a login stores before the app starts. */
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

/**
 * Signs in quickly after marking the user's notifications read. Use it where a screen is used at
 * once: the notifications earlier tests left unread would be announced as toasts over the top of
 * the screen, and a toast stays while the pointer rests on it (a click aimed at the button below
 * would wait behind it).
 */
export async function signInWithEmptyTray(page: Page, username: string) {
  const { token } = await apiToken(page.request, username);
  const response = await page.request.post('/api/notifications/read-all', {
    headers: { authorization: `Bearer ${token}`, 'x-csrf-token': '' },
  });
  expect(response.status(), await response.text()).toBe(200);
  await signInQuickly(page, username);
}

/** The sidebar's links, by their names. */
export const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Secciones' });

/** Picks an option in the select control (searching for it). */
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

export interface DroppedFile {
  name: string;
  mimeType: string;
  /** The bytes, base64. */
  base64: string;
}

/** Drops files on an element as a person dragging them from the desktop would (a real drop event). */
export async function dropFiles(page: Page, selector: string, files: DroppedFile[]) {
  const handle = await page.locator(selector).elementHandle();
  await page.evaluate(
    ({ target, files }) => {
      const data = new DataTransfer();
      for (const f of files) {
        const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
        data.items.add(new File([bytes], f.name, { type: f.mimeType }));
      }
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target!.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
      }
    },
    { target: handle, files },
  );
}

/** Small valid files of each accepted type, and one that is not. */
export const sampleFiles = {
  pdf: (name = 'informe.pdf'): DroppedFile => ({
    name,
    mimeType: 'application/pdf',
    base64: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n').toString('base64'),
  }),
  png: (name = 'foto.png'): DroppedFile => ({
    name,
    mimeType: 'image/png',
    // A 1x1 red pixel.
    base64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  }),
  exe: (name = 'programa.exe'): DroppedFile => ({
    name,
    mimeType: 'application/x-msdownload',
    base64: Buffer.from('MZ\x90\x00 not a document').toString('base64'),
  }),
};

/**
 * Waits until the page a whole-page check (axe) reads has settled: the fonts and the late
 * stylesheet of the rest of Mantine are in, and no transition or animation that ends is
 * still running (a modal fading in, a tooltip, a collapse). Loaders and skeletons, which
 * never end, are not waited for.
 */
export async function untilSettled(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          await document.fonts.ready;
          // Two frames: a transition that starts on the next frame (Mantine's enter) has started.
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          const links = Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]'));
          const hasAllStyles = links.some((l) => l.href.includes('/mantine-rest-')) && links.every((l) => l.sheet);
          const isMoving = document
            .getAnimations()
            .some((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
          return hasAllStyles && !isMoving;
        }),
      { message: 'the page settles: every stylesheet in, no transition running' },
    )
    .toBe(true);
}
