import path from 'node:path';
import { rollup, type OutputChunk } from 'rollup';
import { describe, expect, it } from 'vitest';
import { firstScreenChunks } from './first-screen-chunks.ts';

/** A tiny app: an entry, three first screens, another screen, and a package index re-exporting five modules. */
const sources: Record<string, string> = {
  'main.js': `import { a } from 'pkg'; console.log(a());
    export const screens = [() => import('./login.js'), () => import('./shell.js'), () => import('./tickets.js'), () => import('./other.js')];`,
  'pkg/index.js': `import { a } from './a.js'; import { b } from './b.js'; import { c } from './c.js'; import { d } from './d.js';
    export { a, b, c, d }; export * from './e.js';`,
  'pkg/a.js': `export const a = () => 'a';`,
  'pkg/b.js': `export const b = () => 'b';`,
  'pkg/c.js': `export const c = () => 'c';`,
  'pkg/d.js': `export const d = () => 'd';`,
  'pkg/e.js': `export const e = () => 'e';`,
  'login.js': `import { b } from 'pkg'; export default () => b();`,
  'shell.js': `import { b, c } from 'pkg'; export default () => b() + c();`,
  'tickets.js': `import { c, e } from 'pkg'; import { own } from './own.js'; export default () => c() + e() + own();`,
  'own.js': `export const own = () => 'own';`,
  'other.js': `import { c, d } from 'pkg'; export default () => c() + d();`,
};

async function build() {
  const bundle = await rollup({
    input: '/app/main.js',
    plugins: [
      {
        name: 'virtual',
        resolveId: (source, importer) =>
          source === 'pkg'
            ? '/app/pkg/index.js'
            : path.posix.resolve(importer ? path.posix.dirname(importer) : '/app', source),
        load: (id) => sources[id.replace('/app/', '')],
      },
    ],
  });
  const { output } = await bundle.generate({
    format: 'es',
    onlyExplicitManualChunks: true,
    manualChunks: firstScreenChunks('app/main.js', {
      login: { roots: ['login.js'] },
      shell: { roots: ['shell.js'] },
      tickets: { roots: ['tickets.js'], loadsAfter: ['shell'] },
    }),
  });
  const chunks = output.filter((o): o is OutputChunk => o.type === 'chunk');
  const chunkOf = (module: string) => chunks.find((c) => c.moduleIds.includes(`/app/${module}`))!;
  return { chunks, chunkOf };
}

describe('firstScreenChunks', () => {
  it('groups each first screen with what only it imports, through a package index by the names imported', async () => {
    const { chunkOf } = await build();
    expect(chunkOf('pkg/a.js').name).toBe('main');
    expect(chunkOf('login.js').name).toBe('login');
    // Both /login and the shell use b: neither carries the other's code.
    expect(chunkOf('pkg/b.js').name).toBe('shared');
    expect(chunkOf('pkg/c.js').name).toBe('shell');
    // The tickets screen loads after the shell: what both use stays in the shell.
    expect(chunkOf('tickets.js').name).toBe('tickets');
    expect(chunkOf('own.js').name).toBe('tickets');
    expect(chunkOf('pkg/e.js').name).toBe('tickets');
  });

  it('leaves other screens and what only they use to Rollup', async () => {
    const { chunkOf } = await build();
    expect(chunkOf('other.js').name).toBe('other');
    expect(chunkOf('pkg/d.js').name).toBe('other');
    expect(chunkOf('login.js').imports).not.toContain(chunkOf('shell.js').fileName);
  });
});
