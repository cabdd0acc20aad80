import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface SecurityHeadersOptions {
  /**
   * The portal is served over https: the CSP then asks browsers to upgrade
   * insecure requests. Over plain http that directive makes Chromium fetch the
   * page's own assets over https, which fail (a blank page).
   */
  servedOverHttps: boolean;
}

/** helmet's configuration for the portal: its defaults with our CSP. */
export function helmetOptions({ servedOverHttps }: SecurityHeadersOptions): HelmetOptions {
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: servedOverHttps ? [] : null,
      },
    },
  };
}

/**
 * The headers helmet would set, worked out once: helmet's middleware is run
 * against a recording response and its headers are kept. None of them depends
 * on the request (no CSP nonces), so every answer gets the same object.
 */
export function computeSecurityHeaders(options: SecurityHeadersOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let isDone = false;
  helmet(helmetOptions(options))({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
    isDone = true;
  });
  if (!isDone) throw new Error('helmet did not finish synchronously');
  return headers;
}

/** Sets the precomputed security headers on every answer (API, SPA, assets, 404s). */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: SecurityHeadersOptions) => {
    const headers = computeSecurityHeaders(options);
    app.addHook('onRequest', (_request, reply, done) => {
      void reply.headers(headers);
      done();
    });
  },
  { name: 'security-headers' },
);
