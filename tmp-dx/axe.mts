import AxeBuilder from '@axe-core/playwright';
import { launchChromium } from '../e2e/tools/browser.ts';
const base = process.env.BASE_URL!;
const browser = await launchChromium();
const context = await browser.newContext({ viewport: { width: 1366, height: 800 }, locale: 'es-MX', colorScheme: (process.env.SCHEME ?? 'dark') as 'dark' });
const page = await context.newPage();
const { data } = await (await page.request.post(`${base}/api/login`, { data: { username: 'admin', password: 'PortalAdmin1' } })).json();
for (const p of (process.env.PAGES ?? '/login').split(',')) {
  if (p !== '/login') { await page.goto(`${base}/login`); await page.evaluate(({ token, user }) => { localStorage.setItem('token', token); localStorage.setItem('user', JSON.stringify(user)); localStorage.setItem('userId', String(user.id)); }, data); }
  await page.goto(`${base}${p}`);
  await page.waitForTimeout(2500);
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  for (const v of r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'))
    for (const n of v.nodes.slice(0, 6)) console.log(p, v.id, n.target.join(' '), n.html.slice(0, 100), n.any[0]?.message?.slice(0, 160));
}
await browser.close();
