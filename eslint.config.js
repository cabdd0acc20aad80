import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The import boundaries and the no-cycle rule are dependency-cruiser's (.dependency-cruiser.js): it checks resolved
// paths, and `npm run lint` runs it after ESLint.
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
