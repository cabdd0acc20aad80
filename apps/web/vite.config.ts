import react from '@vitejs/plugin-react';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { firstScreenChunks } from './vite-plugins/first-screen-chunks.ts';
import { precompress } from './vite-plugins/precompress.ts';
import { routePreloads } from './vite-plugins/route-preloads.ts';

/** The first screens' lazily loaded code, named in index.html by the server (see route-preloads.ts). */
const signedInShell = [
  'src/app/query-provider.tsx',
  'src/app/layout/app-layout.tsx',
  'src/app/layout/permission-gate.tsx',
];
/** The toasts' container, loaded by every screen once the browser is idle (app.tsx). */
const toasts = 'node_modules/@mantine/notifications/esm/index.mjs';
const ticketScreens = [
  'src/features/tickets/components/tickets-page.tsx',
  'src/features/tickets/components/general-tickets-page.tsx',
];
const preloads = routePreloads({
  '/login': ['src/features/auth/components/login-page.tsx'],
  '/tickets': [...signedInShell, 'src/features/tickets/components/tickets-page.tsx'],
  '/general-tickets': [...signedInShell, 'src/features/tickets/components/general-tickets-page.tsx'],
});

/**
 * The contract is TypeScript source without a package `sideEffects` hint: its
 * modules only declare schemas and constants, so a chunk that uses just the
 * sanitizers (the login page) need not carry zod and every schema.
 */
const contractHasNoSideEffects: Plugin = {
  name: 'portal:contract-without-side-effects',
  transform(code, id) {
    return id.includes('/packages/contract/src/') ? { code, map: null, moduleSideEffects: false } : undefined;
  },
};

export default defineConfig({
  plugins: [react(), contractHasNoSideEffects, preloads, precompress()],
  resolve: {
    alias: { '@': path.resolve(import.meta.dirname, 'src') },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      output: {
        onlyExplicitManualChunks: true,
        manualChunks: firstScreenChunks('apps/web/index.html', {
          toasts: { roots: [toasts] },
          login: { roots: ['src/features/auth/components/login-page.tsx'] },
          shell: { roots: [...signedInShell, 'src/features/tickets/prefetch.ts'] },
          tickets: { roots: ticketScreens, loadsAfter: ['shell'] },
        }),
      },
    },
  },
});
