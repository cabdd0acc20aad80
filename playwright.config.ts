import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromiumLaunchOptions } from './e2e/tools/browser.ts';

/**
 * End-to-end tests in the system Chromium against the real built portal
 * (`npm run build` first): one server on a fresh SQLite database, and a second
 * one whose tokens live 36 s for the session-renewal test.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
export const E2E_SHORT_TTL_PORT = E2E_PORT + 1;
/** A third server that delivers mail over SMTP to the receiver e2e/password-reset.spec.ts runs in the test process. */
export const E2E_RECOVERY_PORT = E2E_PORT + 2;
export const E2E_SMTP_PORT = E2E_PORT + 3;
export const E2E_SMTP_URL = `smtp://portal:smtp-secret@127.0.0.1:${E2E_SMTP_PORT}`;
/**
 * e2e/topology.spec.ts starts nginx on this port and two portal processes on the next two
 * (on PostgreSQL and Redis), apart from the servers below.
 */
export const E2E_TOPOLOGY_PORT = Number(process.env.E2E_TOPOLOGY_PORT ?? E2E_PORT + 4);

const freshDataDir = () => mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));
const server = (port: number, env: Record<string, string> = {}) => ({
  command: 'node apps/api/dist/server.js',
  url: `http://127.0.0.1:${port}/api/healthz`,
  env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: freshDataDir(), LOG_LEVEL: 'warn', SEED_DEMO: '1', ...env },
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
});

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'reports/playwright.json' }]] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions,
    locale: 'es-MX',
    viewport: { width: 1366, height: 850 },
    trace: 'retain-on-failure',
  },
  webServer: [
    server(E2E_PORT),
    server(E2E_SHORT_TTL_PORT, { TOKEN_TTL_MINUTES: '0.6' }),
    server(E2E_RECOVERY_PORT, { SMTP_URL: E2E_SMTP_URL, MAIL_FROM: 'Portal de tickets <no-reply@portal.test>' }),
  ],
});
