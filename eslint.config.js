import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

/** Every web feature folder: each may import shared code, never another feature. */
const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The layering of ARCHITECTURE.md, enforced: an import that crosses a boundary fails the lint. */
const boundaries = [
  {
    target: './packages/contract',
    from: './apps',
    message: 'The contract is shared by both apps and imports neither.',
  },
  { target: './apps/web', from: './apps/api', message: 'The web app talks to the API over HTTP, never by import.' },
  { target: './apps/api', from: './apps/web', message: 'The API never imports the web app.' },
  ...webFeatures.map((feature) => ({
    target: `./apps/web/src/features/${feature}`,
    from: './apps/web/src/features',
    except: [`./${feature}`],
    message: 'A feature imports shared code, never another feature (compose them in src/app).',
  })),
  {
    target: ['./apps/api/src/db', './apps/api/src/lib'],
    from: './apps/api/src/modules',
    message: 'The data layer and lib know no domain module.',
  },
  {
    target: './apps/api/src/plugins/access.ts',
    from: './apps/api/src/modules',
    message: 'The access plugin uses its own types (plugins/access.types.ts), not a module’s.',
  },
  {
    // The composition root imports everything; only routes (and app.ts) may look back at it, so types cannot
    // close a cycle through it (import-x/no-cycle does not follow type-only imports).
    target: [
      './apps/api/src/plugins',
      './apps/api/src/lib',
      './apps/api/src/db',
      './apps/api/src/modules/**/!(*.routes).ts',
    ],
    from: './apps/api/src/services.ts',
    message: 'Only routes and app.ts import the composition root; give a module the narrow types it needs.',
  },
];

/** Shared web code imports no feature (its tests may use real feature configurations as fixtures). */
const sharedCodeBoundary = {
  target: ['./apps/web/src/components', './apps/web/src/lib', './apps/web/src/config'],
  from: './apps/web/src/features',
  message: 'Shared code (components, lib, config) imports no feature; only src/app does.',
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/web/tsconfig.json', 'apps/api/tsconfig.json', 'packages/contract/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: boundaries }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...boundaries, sharedCodeBoundary] }],
    },
  },
  {
    // The API's modules form no import cycle (types included): shared types get a module of their own.
    files: ['apps/api/src/**/*.ts'],
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    // SQL lives in repositories and in db/: everything else asks a repository.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/**/*.repository.ts', 'apps/api/src/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'kysely',
              importNames: ['sql'],
              message: 'Only repositories and db/ write SQL: move the query into a repository.',
            },
          ],
        },
      ],
    },
  },
);
