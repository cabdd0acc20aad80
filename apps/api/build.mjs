// Bundles the server (and the CLI) with the contract's TypeScript and the npm packages they
// use into dist/server.js and dist/cli.js: one file to read and compile starts much faster
// than hundreds of modules resolved one by one (start-up time on a big database).
// Left outside: native addons, packages that read files of their own at run time, and those
// loaded only when needed (their `import()`/`require` must reach node_modules).
import { build } from 'esbuild';

const external = [
  'better-sqlite3',
  'argon2',
  'sharp',
  'pg-native',
  '@fastify/swagger-ui',
  'pino',
  'pino-pretty',
  'thread-stream',
  'ioredis',
  'nodemailer',
  'imapflow',
  'mailparser',
];

await build({
  entryPoints: ['src/server.ts', 'src/cli.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  external,
  // CommonJS packages inside an ES module bundle still call require() and read __dirname.
  banner: {
    js: [
      "import { createRequire as __createRequire } from 'node:module';",
      "import { fileURLToPath as __fileURLToPath } from 'node:url';",
      "import __path from 'node:path';",
      'const require = __createRequire(import.meta.url);',
      'const __filename = __fileURLToPath(import.meta.url);',
      'const __dirname = __path.dirname(__filename);',
    ].join(' '),
  },
});
