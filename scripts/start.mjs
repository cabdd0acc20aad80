// `npm start`: builds what is out of date (everything on a fresh clone, nothing on a
// plain restart), then runs the server in this same process.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from './build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

try {
  build({ onlyStale: true });
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
await import(pathToFileURL(path.join(root, 'apps/api/dist/server.js')).href);
