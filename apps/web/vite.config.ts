import react from '@vitejs/plugin-react';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { precompress } from './vite-plugins/precompress.ts';
import { routePreloads } from './vite-plugins/route-preloads.ts';

/** The first screens' lazily loaded code, named in index.html by the server (see route-preloads.ts). */
const signedInShell = [
  'src/app/query-provider.tsx',
  'src/app/layout/app-layout.tsx',
  'src/app/layout/permission-gate.tsx',
];
const preloads = routePreloads({
  '*': ['node_modules/@mantine/notifications/esm/index.mjs'],
  '/login': ['src/features/auth/components/login-page.tsx'],
  // The screen itself is not named: announcing all of its chunks too delays the layout's first paint.
  // Its first requests' code is (features/tickets/prefetch.ts, started by preloadScreenOf in router.tsx).
  '/tickets': [...signedInShell, 'src/features/tickets/prefetch.ts'],
  '/general-tickets': [...signedInShell, 'src/features/tickets/prefetch.ts'],
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
  },
});
