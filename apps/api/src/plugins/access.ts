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
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** Every /api route with its access rule, for audits and tests. */
    routeAccess: { method: string; url: string; access: Access }[];
  }
}

const UNSAFE_METHODS = new Set(['PUT', 'PATCH', 'DELETE']);

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

    async function authenticate(request: FastifyRequest): Promise<AuthContext> {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (!token) return refuse(request, 'auth.missing_token', unauthorized());
      let claims: TokenClaims;
      try {
        claims = await tokens.verify(token);
      } catch {
        return refuse(request, 'auth.invalid_token', unauthorized(MSG.sessionExpired));
      }
      const user = await sessions.activeUser({ userId: Number(claims.sub), ...claims });
      if (!user) return refuse(request, 'auth.revoked_token', unauthorized(MSG.sessionExpired), { sub: claims.sub });
      return { user, claims };
    }

    app.addHook('onRequest', async (request) => {
      const access = request.routeOptions.config?.access;
      if (!access || access === 'public') return;

      if (UNSAFE_METHODS.has(request.method) && !csrf.verify(request.headers['x-csrf-token'] as string | undefined)) {
        return refuse(request, 'csrf.refused', new HttpError(403, MSG.csrf));
      }

      request.auth = await authenticate(request);
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
    });
  },
  { name: 'access' },
);
