import { expect, test } from '@playwright/test';
import { signInQuickly } from './support.ts';

test('an avatar image that cannot be shown falls back to the initials, in the top bar and the profile', async ({
  page,
}) => {
  const broken = '/api/avatars/00000000-0000-4000-8000-000000000000.webp';
  // The API names a photo, but what it serves does not decode (a corrupt or vanished file).
  await page.route('**/api/images/*', (route) =>
    route.fulfill({ contentType: 'application/json', body: JSON.stringify({ status: true, url: broken }) }),
  );
  await page.route(`**${broken}`, (route) =>
    route.fulfill({ contentType: 'image/webp', body: Buffer.from('RIFF....WEBPnot really an image') }),
  );
  await signInQuickly(page, 'agente');
  await page.goto('/users-profile');

  const header = page.getByRole('banner');
  await expect(header.getByText('DH', { exact: true })).toBeVisible();
  const profileAvatar = page.getByRole('main').getByText('DH', { exact: true });
  await expect(profileAvatar).toBeVisible();
  await expect(page.locator(`img[src="${broken}"]`)).toHaveCount(0);
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: process.env.E2E_SCREENSHOTS });
});
