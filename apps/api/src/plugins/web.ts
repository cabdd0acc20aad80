import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Csrf } from '../lib/csrf.ts';

/** `route-preloads.json` of the web build (apps/web/vite-plugins/route-preloads.ts). */
type RoutePreloads = Record<string, { js: string[]; css: string[] } | undefined>;

const safeAsset = /^\/assets\/[\w.-]+\.(js|css)$/;

function readPreloads(file: string): RoutePreloads {
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as RoutePreloads;
}

/**
 * The `<link>` tags that let the browser fetch, together with the entry, the
 * lazily loaded code the address will run (its screen, the layout): without
 * them each chunk is only asked for once the one before it has run.
 */
export function preloadTags(preloads: RoutePreloads, pathname: string): string {
  const route = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const own = preloads[route];
  if (!own) return '';
  const js = new Set([...(preloads['*']?.js ?? []), ...own.js].filter((f) => safeAsset.test(f)));
  const css = new Set([...(preloads['*']?.css ?? []), ...own.css].filter((f) => safeAsset.test(f)));
  return [
    // Fetched early but not render-blocking: the chunk that needs a stylesheet waits for it itself.
    ...[...css].map((href) => `  <link rel="preload" as="style" crossorigin href="${href}" />\n`),
    ...[...js].map((href) => `  <link rel="modulepreload" crossorigin href="${href}" />\n`),
  ].join('');
}

/**
 * Serves the built web app: hashed assets pre-compressed (brotli, gzip) with
 * long-lived caching, and index.html for every other page with a fresh
 * anti-forgery token in its `csrf-token` meta tag and, for the first screens,
 * the `modulepreload` links of their code (`preloadTags`).
 */
export const webPlugin = fp(
  async (app: FastifyInstance, { dist, csrf }: { dist: string; csrf: Csrf }) => {
    const indexFile = path.join(dist, 'index.html');
    if (!existsSync(indexFile)) {
      app.log.warn({ dist }, 'web app not built; serving the API only');
      return;
    }
    const indexHtml = readFileSync(indexFile, 'utf8');
    const preloads = readPreloads(path.join(dist, 'route-preloads.json'));
    const renderIndex = (pathname: string) =>
      indexHtml.replace(
        '</head>',
        `  <meta name="csrf-token" content="${csrf.issue()}" />\n${preloadTags(preloads, pathname)}  </head>`,
      );

    await app.register(fastifyStatic, {
      root: dist,
      prefix: '/',
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        const isHashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('Cache-Control', isHashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });

    const sendIndex = (reply: import('fastify').FastifyReply, pathname: string) =>
      reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(renderIndex(pathname));

    app.get('/', { config: { access: 'public' } }, (_request, reply) => sendIndex(reply, '/'));
    app.get('/*', { config: { access: 'public' } }, (request, reply) => {
      const url = request.url.split('?')[0] ?? '/';
      if (url.startsWith('/api/') || path.extname(url) !== '') {
        return reply.status(404).send({ status: false, message: 'Recurso no encontrado.' });
      }
      return sendIndex(reply, url);
    });
  },
  { name: 'web' },
);
