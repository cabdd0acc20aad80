import type { OutputBundle, OutputChunk } from 'rollup';
import type { Plugin } from 'vite';

/** What the server announces in index.html for one address: module scripts and stylesheets. */
export interface RoutePreload {
  js: string[];
  css: string[];
}

export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

/**
 * Writes `route-preloads.json`: for each address, the built files of the lazily
 * loaded modules it will need (with every chunk they import), so the server can
 * name them in index.html (`<link rel="modulepreload">`, plugins/web.ts) and the
 * browser fetches them together with the entry instead of after it has run.
 * `'*'` lists what every address needs. `modules` are source paths relative to
 * the project root (or `node_modules/...`).
 */
export function routePreloads(routes: Record<string, string[]>): Plugin {
  return {
    name: 'portal:route-preloads',
    apply: 'build',
    generateBundle(_options, bundle: OutputBundle) {
      const chunks = Object.values(bundle).filter((file): file is OutputChunk => file.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const preloads: Record<string, RoutePreload> = {};
      for (const [route, modules] of Object.entries(routes)) {
        const js = new Set<string>();
        const css = new Set<string>();
        const visit = (chunk: OutputChunk) => {
          if (chunk.isEntry || js.has(chunk.fileName)) return;
          js.add(chunk.fileName);
          for (const file of chunk.viteMetadata?.importedCss ?? []) css.add(file);
          for (const imported of chunk.imports) {
            const next = byFile.get(imported);
            if (next) visit(next);
          }
        };
        for (const module of modules) {
          const isModule = (id: string | null) => id?.replaceAll('\\', '/').endsWith(`/${module}`) ?? false;
          // A dynamic entry Rollup merged with another has no facade: find it among the chunk's modules.
          const chunk =
            chunks.find((c) => isModule(c.facadeModuleId)) ??
            chunks.find((c) => c.isDynamicEntry && c.moduleIds.some(isModule));
          if (!chunk) this.error(`route-preloads: no chunk is built from ${module}`);
          visit(chunk);
        }
        preloads[route] = { js: [...js].map((f) => `/${f}`), css: [...css].map((f) => `/${f}`) };
      }
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: JSON.stringify(preloads, null, 1) });
    },
  };
}
