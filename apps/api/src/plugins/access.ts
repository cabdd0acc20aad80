import { MSG } from '@portal/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError, forbidden, unauthorized } from '../lib/http-error.ts';
import type {
  Access,
  AccessClaims as TokenClaims,
  AccessServices as Services,
  AccessUser as AuthUserRow,
} from './access.types.ts';

export type { Access, AccessClaims, AccessServices, AccessUser } from './access.types.ts';

export interface AuthContext {
  user: AuthUserRow;
  claims: TokenClaims;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Answers carry `Cache-Control: no-store` (always so on routes that are not `public`). */
    noStore?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** Every /api route with its access rule, for audits and tests. */
    routeAccess: { method: string; url: string; access: Access }[];
  }
}

/** The methods whose protected routes also require the `X-CSRF-TOKEN` header. */
export const UNSAFE_METHODS = new Set(['PUT', 'PATCH', 'DELETE']);

/** The bearer token of an Authorization header; the scheme name is case-insensitive (RFC 9110). */
export function bearerToken(header: string | undefined): string {
  const match = header === undefined ? null : /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1] ?? '';
}

/** The signed-in caller; only valid on routes whose access is not `public`. */
export function currentUser(request: FastifyRequest): AuthUserRow {
  if (!request.auth) throw unauthorized();
  return request.auth.user;
}

export const accessPlugin = fp(
  async (app: FastifyInstance, { services }: { services: Services }) => {
    const { tokens, sessions, permissions, audit, csrf } = services;

    app.decorateRequest('auth', null);
    const routeAccess: FastifyInstance['routeAccess'] = [];
    app.decorate('routeAccess', routeAccess);

    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
      const access = route.config?.access;
      if (!access) throw new Error(`Route ${String(route.method)} ${route.url} declares no access rule`);
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') routeAccess.push({ method, url: route.url, access });
      }
    });

    const refuse = async (
      request: FastifyRequest,
      event: string,
      error: HttpError,
      detail: Record<string, unknown> = {},
    ) => {
      await audit.record({
        event,
        userId: request.auth?.user.id ?? null,
        username: request.auth?.user.username ?? null,
        ip: request.ip,
        detail: { method: request.method, url: request.url.slice(0, 200), ...detail },
      });
      throw error;
    };

    /** A refusal that names no user: counted, not written one row each (audit.recordAnonymous). */
    const refuseAnonymous = (request: FastifyRequest, event: string, error: HttpError): never => {
      audit.recordAnonymous(event, request.ip, { method: request.method, url: request.url.slice(0, 200) });
      throw error;
    };

    async function authenticate(request: FastifyRequest): Promise<AuthContext> {
      const token = bearerToken(request.headers.authorization);
      if (!token) return refuseAnonymous(request, 'auth.missing_token', unauthorized());
      let claims: TokenClaims;
      try {
        claims = await tokens.verify(token);
      } catch {
        return refuseAnonymous(request, 'auth.invalid_token', unauthorized(MSG.sessionExpired));
      }
      const user = await sessions.activeUser({ userId: Number(claims.sub), ...claims });
      if (!user) return refuse(request, 'auth.revoked_token', unauthorized(MSG.sessionExpired), { sub: claims.sub });
      return { user, claims };
    }

    /** Whether the caller may use a protected route: a 401, a 403 (CSRF, permission) or nothing. */
    async function admit(request: FastifyRequest, access: Exclude<Access, 'public'>): Promise<void> {
      // Who is asking first: a request without a valid session is a 401, whatever its CSRF header.
      request.auth = await authenticate(request);

      if (UNSAFE_METHODS.has(request.method) && !csrf.verify(request.headers['x-csrf-token'] as string | undefined)) {
        return refuse(request, 'csrf.refused', new HttpError(403, MSG.csrf));
      }
      if (access === 'authenticated') return;

      const { user } = request.auth;
      if ('unlessSelf' in access && access.unlessSelf) {
        const param = (request.params as Record<string, string | undefined>)[access.unlessSelf];
        if (param === String(user.id)) return;
      }
      const required = 'anyOf' in access ? access.anyOf : [access];
      for (const { section, flag } of required) {
        if (await permissions.hasFlag(user.role_id, section, flag)) return;
      }
      return refuse(request, 'permission.denied', forbidden(), { required });
    }

    // A callback hook: a public request (the health check, sign-in, the web app's files) costs no promise.
    app.addHook('onRequest', (request, reply, done) => {
      const config = request.routeOptions.config;
      const access = config?.access;
      // What a signed-in user sees (and the sign-in answer) is kept by no cache, refusals included.
      if ((access && access !== 'public') || config?.noStore) void reply.header('cache-control', 'no-store');
      if (!access || access === 'public') return done();
      admit(request, access).then(() => done(), done);
    });
  },
  { name: 'access' },
);
