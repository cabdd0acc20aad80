import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

const compressible = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest)$/i;

/** Every file under `dir`, recursively. */
async function filesOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? filesOf(path.join(dir, e.name)) : [path.join(dir, e.name)])),
  );
  return nested.flat();
}

/**
 * Writes `file.br` and `file.gz` beside every compressible built file, so the
 * API serves them as they are (@fastify/static `preCompressed`) instead of
 * compressing on every request. Files too small to gain are skipped.
 */
export function precompress({ minBytes = 512 }: { minBytes?: number } = {}): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'portal:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      const files = (await filesOf(outDir)).filter((f) => compressible.test(f));
      await Promise.all(
        files.map(async (file) => {
          if ((await stat(file)).size < minBytes) return;
          const source = await readFile(file);
          const [br, gzipped] = await Promise.all([
            brotli(source, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
              },
            }),
            gz(source, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
        }),
      );
    },
  };
}
