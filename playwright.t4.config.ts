// Temporary (issue 4 engineer): runs e2e/tickets.spec.ts against source + a private web build, without touching dist.
import { defineConfig } from '@playwright/test';
import base, { E2E_PORT } from './playwright.config.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default defineConfig({
  ...base,
  webServer: [
    {
      command: 'node --import tsx apps/api/src/server.ts',
      url: `http://127.0.0.1:${E2E_PORT}/api/healthz`,
      env: {
        PORT: String(E2E_PORT),
        HOST: '127.0.0.1',
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'portal-e2e-t4-')),
        WEB_DIST: '/tmp/t4/web-dist',
        LOG_LEVEL: 'warn',
        SEED_DEMO: '1',
      },
      reuseExistingServer: false,
      timeout: 90_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
