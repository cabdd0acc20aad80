import { fileURLToPath } from 'node:url';

/**
 * The layering of ARCHITECTURE.md, enforced on resolved paths (relative imports, the web app's `@/` alias and
 * the `@portal/contract` workspace package alike): `npm run lint` fails on an import that crosses a boundary
 * and on an import cycle in the API.
 * @type {import('dependency-cruiser').IConfiguration}
 */
export default {
  forbidden: [
    {
      name: 'contract-imports-no-app',
      comment: 'The contract is shared by both apps and imports neither.',
      severity: 'error',
      from: { path: '^packages/contract/' },
      to: { path: '^apps/' },
    },
    {
      name: 'web-imports-no-api',
      comment: 'The web app talks to the API over HTTP, never by import.',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^apps/api/' },
    },
    {
      name: 'api-imports-no-web',
      comment: 'The API never imports the web app.',
      severity: 'error',
      from: { path: '^apps/api/' },
      to: { path: '^apps/web/' },
    },
    {
      name: 'feature-imports-no-other-feature',
      comment: 'A feature imports shared code, never another feature (compose them in src/app).',
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'shared-web-code-imports-no-feature',
      comment:
        'Shared code (components, lib, config) imports no feature; only src/app does (its tests may use real feature configurations as fixtures).',
      severity: 'error',
      from: { path: '^apps/web/src/(components|lib|config)/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^apps/web/src/features/' },
    },
    {
      name: 'data-layer-imports-no-module',
      comment: 'The data layer and lib know no domain module.',
      severity: 'error',
      from: { path: '^apps/api/src/(db|lib)/' },
      to: { path: '^apps/api/src/modules/' },
    },
    {
      name: 'access-plugin-imports-no-module',
      comment: 'The access plugin uses its own types (plugins/access.types.ts), not a module’s.',
      severity: 'error',
      from: { path: '^apps/api/src/plugins/access\\.ts$' },
      to: { path: '^apps/api/src/modules/' },
    },
    {
      name: 'only-routes-import-the-composition-root',
      comment:
        'The composition root imports everything; only routes (and app.ts) may look back at it. Give a module the narrow types it needs.',
      severity: 'error',
      from: {
        path: '^apps/api/src/(plugins|lib|db|modules)/',
        pathNot: '\\.routes\\.ts$',
      },
      to: { path: '^apps/api/src/services\\.ts$' },
    },
    {
      name: 'no-cycle',
      comment: 'The API’s modules form no import cycle through values: shared code gets a module of its own.',
      severity: 'error',
      from: { path: '^apps/api/src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    exclude: { path: '(^|/)(node_modules|dist)/' },
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count for the boundaries (a type import is a dependency on its module too).
    tsPreCompilationDeps: true,
    // For the web app's `@/` alias; the API and the contract import relatively.
    tsConfig: { fileName: fileURLToPath(new URL('./apps/web/tsconfig.json', import.meta.url)) },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
