// Builds the web app and the server. `node scripts/build.mjs` always builds both;
// with `--if-stale` (what `npm start` uses) a target is built only when its
// sources differ from the ones its last build was made from.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampDir = path.join(root, 'node_modules', '.cache', 'portal-build');

/** Each target: what it is built from, the file that proves an output exists, how to build it. */
export const targets = [
  {
    name: 'web',
    inputs: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/vite-plugins',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/postcss.config.cjs',
      'apps/web/tsconfig.json',
      'apps/web/package.json',
      'packages/contract/src',
      'packages/contract/package.json',
      'package-lock.json',
    ],
    output: 'apps/web/dist/index.html',
    workspace: 'apps/web',
  },
  {
    name: 'api',
    inputs: [
      'apps/api/src',
      'apps/api/build.mjs',
      'apps/api/package.json',
      'packages/contract/src',
      'packages/contract/package.json',
      'package-lock.json',
    ],
    output: 'apps/api/dist/server.js',
    workspace: 'apps/api',
  },
];

/** Tests do not go into a build: changing one does not make the output stale. */
const isTestFile = (file) => /\.test\.tsx?$/.test(file) || file.split(path.sep).includes('test');

function listFiles(relative) {
  const absolute = path.join(root, relative);
  if (!existsSync(absolute)) return [];
  if (!statSync(absolute).isDirectory()) return [relative];
  return readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !isTestFile(path.relative(relative, file)));
}

/** A hash of every input's path and content: touching a file without changing it rebuilds nothing. */
export function sourceHash(target) {
  const hash = createHash('sha256');
  const files = [...new Set(target.inputs.flatMap(listFiles))].sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const stampFile = (target) => path.join(stampDir, `${target.name}.sha256`);

export function isStale(target, hash = sourceHash(target)) {
  if (!existsSync(path.join(root, target.output))) return true;
  const stamp = stampFile(target);
  return !existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== hash;
}

export function buildTarget(target, hash = sourceHash(target)) {
  const started = Date.now();
  console.log(`Building ${target.name}…`);
  const result = spawnSync('npm', ['run', 'build', '--workspace', target.workspace], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`Building ${target.name} failed (exit ${result.status ?? result.signal})`);
  mkdirSync(stampDir, { recursive: true });
  writeFileSync(stampFile(target), `${hash}\n`);
  console.log(`Built ${target.name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Builds every target, or with `onlyStale` only those whose sources changed since their last build. */
export function build({ onlyStale = false } = {}) {
  for (const target of targets) {
    const hash = sourceHash(target);
    if (onlyStale && !isStale(target, hash)) continue;
    buildTarget(target, hash);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    build({ onlyStale: process.argv.includes('--if-stale') });
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
