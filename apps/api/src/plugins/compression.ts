import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Answers smaller than this go as they are: compressing them costs more than it saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** What is worth compressing: JSON and text, never the live `text/event-stream`. */
const COMPRESSIBLE = /^(application\/(json|javascript|xml)|text\/(?!event-stream))/i;

const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
const GZIP_OPTIONS = { level: 4 };

/** The encoding to answer with for an Accept-Encoding header: brotli when accepted at least as much as gzip. */
export function preferredEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (encoding: string) => weights.get(encoding) ?? weights.get('*') ?? 0;
  const [br, gzip] = [weightOf('br'), weightOf('gzip')];
  if (br > 0 && br >= gzip) return 'br';
  return gzip > 0 ? 'gzip' : null;
}

function addVary(reply: FastifyReply) {
  const vary = reply.getHeader('vary');
  const values =
    vary === undefined
      ? []
      : String(vary)
          .split(',')
          .map((v) => v.trim());
  if (!values.some((v) => v.toLowerCase() === 'accept-encoding' || v === '*')) {
    void reply.header('vary', [...values, 'Accept-Encoding'].join(', '));
  }
}

const compress = (payload: string | Buffer, encoding: 'br' | 'gzip') =>
  encoding === 'br' ? brotliCompressSync(payload, BROTLI_OPTIONS) : gzipSync(payload, GZIP_OPTIONS);

/** The compressed forms of the Buffers answered, while they live (an answer kept in memory is one Buffer). */
const compressed = new WeakMap<Buffer, { br?: Buffer; gzip?: Buffer }>();

function compressedOnce(payload: Buffer, encoding: 'br' | 'gzip'): Buffer {
  let forms = compressed.get(payload);
  if (!forms) compressed.set(payload, (forms = {}));
  return (forms[encoding] ??= compress(payload, encoding));
}

/**
 * Compresses API answers of 1 KB or more (JSON lists, the notifications tray)
 * with brotli or gzip, at a cheap level, when the client asks for it. The answer
 * is already whole in memory, so it is compressed in one synchronous call: a
 * compression stream per answer costs more than the compression itself. Streamed
 * answers (the CSV exports, which write each row as it is read; the web app's
 * files, compressed at build time and served as they are by web.ts) and the
 * live notifications stream (a hijacked reply) are left alone. Compressed
 * request bodies are not accepted. An answer sent as a Buffer is compressed once
 * per encoding while it lives: the list answers kept in memory
 * (lib/answer-cache.ts) are sent again and again as the same Buffer.
 */
export const compressionPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', (request, reply, payload, done) => {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
      if (request.method === 'HEAD' || reply.hasHeader('content-encoding')) return done(null, payload);
      if (Buffer.byteLength(payload) < COMPRESSION_THRESHOLD_BYTES) return done(null, payload);
      if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return done(null, payload);
      addVary(reply);
      const encoding = preferredEncoding(request.headers['accept-encoding']);
      if (!encoding) return done(null, payload);
      const body = Buffer.isBuffer(payload) ? compressedOnce(payload, encoding) : compress(payload, encoding);
      void reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      done(null, body);
    });
  },
  { name: 'compression' },
);
