import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { constants } from 'node:zlib';

/** Answers smaller than this go as they are: compressing them costs more than it saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Compresses API answers of 1 KB or more (JSON lists, the notifications tray)
 * with brotli or gzip, at a cheap level, when the client asks for it. The web
 * app's files are compressed at build time (web.ts serves the .br/.gz files as
 * they are), the live notifications stream (`text/event-stream`, a hijacked
 * reply) is never compressed, and the CSV exports opt out (`compress: false`) so
 * that every row leaves as soon as it is written. Compressed request bodies are
 * not accepted (no decompression hook).
 */
export const compressionPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(compress, {
      global: true,
      globalDecompression: false,
      threshold: COMPRESSION_THRESHOLD_BYTES,
      encodings: ['br', 'gzip'],
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
      zlibOptions: { level: 4 },
    });
  },
  { name: 'compression' },
);
