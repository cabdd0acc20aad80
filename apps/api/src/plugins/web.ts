import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Csrf } from '../lib/csrf.ts';

/**
 * Serves the built web app: hashed assets pre-compressed (brotli, gzip) with
 * long-lived caching, and index.html for every other page with a fresh
 * anti-forgery token in its `csrf-token` meta tag.
 */
export const webPlugin = fp(
  async (app: FastifyInstance, { dist, csrf }: { dist: string; csrf: Csrf }) => {
    const indexFile = path.join(dist, 'index.html');
    if (!existsSync(indexFile)) {
      app.log.warn({ dist }, 'web app not built; serving the API only');
      return;
    }
    const indexHtml = readFileSync(indexFile, 'utf8');
    const renderIndex = () =>
      indexHtml.replace('</head>', `  <meta name="csrf-token" content="${csrf.issue()}" />\n  </head>`);

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

    const sendIndex = (reply: import('fastify').FastifyReply) =>
      reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(renderIndex());

    app.get('/', { config: { access: 'public' } }, (_request, reply) => sendIndex(reply));
    app.get('/*', { config: { access: 'public' } }, (request, reply) => {
      const url = request.url.split('?')[0] ?? '/';
      if (url.startsWith('/api/') || path.extname(url) !== '') {
        return reply.status(404).send({ status: false, message: 'Recurso no encontrado.' });
      }
      return sendIndex(reply);
    });
  },
  { name: 'web' },
);
