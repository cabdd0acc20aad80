import { expect, test } from '@playwright/test';
import { apiToken, sidebar, signInQuickly, signInWithForm } from './support.ts';

test.describe('the rough edges a new user hit', () => {
  test('the collapsed sidebar names its icons on keyboard focus, and the hover-expanded one casts a shadow', async ({
    page,
  }) => {
    await page.addInitScript(() => window.localStorage.setItem('sidebarLocked', '0'));
    await signInQuickly(page, 'admin');
    await page.goto('/tickets');
    const areas = sidebar(page).getByRole('link', { name: 'Áreas' });
    await expect(areas).toBeVisible();
    await areas.focus();
    await expect(page.getByRole('tooltip', { name: 'Áreas' })).toBeVisible();

    const navbar = page.getByRole('navigation', { name: 'Menú principal' });
    await areas.blur();
    await page.mouse.move(600, 400);
    await expect(navbar).not.toHaveAttribute('data-expanded');
    // Over the logo: inside the sidebar, away from the menu's items and their tooltips.
    await navbar.hover({ position: { x: 40, y: 30 } });
    await expect(navbar).toHaveAttribute('data-expanded', 'true');
    await expect.poll(() => navbar.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe('none');
  });

  test('toasts appear below the top bar, never over the bell or the avatar', async ({ page }) => {
    await signInWithForm(page, 'admin');
    await page.waitForURL('**/tickets');
    // The welcome shows in the top-right toasts' container; the container stays (toasts close on their own),
    // fixed where every toast appears, so it is measured once the top bar is there too.
    const toasts = page.locator('.mantine-Notifications-root[data-position="top-right"]');
    await expect(toasts.locator('.mantine-Notification-root').filter({ hasText: '¡Bienvenido!' })).toBeVisible();
    await expect(page.getByRole('banner')).toBeVisible();
    const { toastsTop, headerBottom } = await toasts.evaluate((el) => ({
      toastsTop: el.getBoundingClientRect().top,
      headerBottom: document.querySelector('header')!.getBoundingClientRect().bottom,
    }));
    expect(toastsTop).toBeGreaterThanOrEqual(headerBottom);
  });

  test('the Supervisor select of the user form lists only users of a privileged role', async ({ page }) => {
    await signInQuickly(page, 'admin');
    await page.goto('/users');
    await page.getByRole('button', { name: 'Agregar' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Supervisor/).click();
    const options = page.getByRole('listbox').getByRole('option');
    await expect(options.first()).toBeVisible();
    const names = await options.allTextContents();
    expect(names).toContain('Ana Administradora');
    expect(names.some((n) => n.startsWith('Sofía Ramírez'))).toBe(true);
    expect(names.some((n) => n.startsWith('Diego Hernández'))).toBe(false);
  });

  test('/api/docs renders without a Content-Security-Policy violation', async ({ page }) => {
    // Gathered in the page: a refusal is a `securitypolicyviolation` event there.
    await page.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { cspViolations: seen });
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
    });
    await page.goto('/api/docs');
    await expect(page.getByText('Portal de tickets API')).toBeVisible();
    // The operations are drawn: the page's scripts and styles have loaded and run, each had its chance to be refused.
    await expect(page.locator('.opblock').first()).toBeVisible();
    // Violation events are queued as tasks: one queued after them runs after them.
    const violations = await page.evaluate(
      () =>
        new Promise<string[]>((resolve) =>
          setTimeout(() => resolve((window as unknown as { cspViolations: string[] }).cspViolations)),
        ),
    );
    expect(violations).toEqual([]);
  });

  test('a notification says who assigned which ticket', async ({ page, request }) => {
    const admin = await apiToken(request, 'admin');
    const agente = await apiToken(request, 'agente');
    const { token: csrf } = (await (await request.get('/api/csrf-token')).json()) as { token: string };
    const list = await request.post('/api/general-tickets', {
      headers: { authorization: `Bearer ${admin.token}` },
      data: { page: 1, per_page: 20, search: '' },
    });
    const tickets = ((await list.json()) as { data: { id: number; name: string; user_assigned_id: number | null }[] })
      .data;
    const ticket = tickets.find((t) => t.user_assigned_id !== agente.user.id)!;
    const assigned = await request.patch(`/api/tickets/${ticket.id}/assign/${agente.user.id}`, {
      headers: { authorization: `Bearer ${admin.token}`, 'x-csrf-token': csrf },
    });
    expect(assigned.status(), await assigned.text()).toBe(200);

    await signInQuickly(page, 'agente');
    await page.goto('/tickets');
    await page.getByRole('button', { name: /Notificaciones/ }).click();
    await expect(
      page.getByTestId('notification-dropdown').getByText(`te asignó el ticket #${ticket.id} · ${ticket.name}`, {
        exact: false,
      }),
    ).toBeVisible();
  });
});
