import { MSG, ZErrorResponse, ZLoginRequest, ZLoginResponse, ZMessageResponse, ZRenewResponse } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.ts';
import { unauthorized } from '../../lib/http-error.ts';

export const authRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { auth } = services;

  app.post(
    '/login',
    {
      config: { access: 'public', noStore: true },
      schema: {
        tags: ['auth'],
        summary: 'Inicia sesión con usuario y contraseña',
        body: ZLoginRequest,
        response: { 200: ZLoginResponse, 401: ZErrorResponse, 422: ZErrorResponse, 429: ZErrorResponse },
      },
    },
    async (request) => {
      const data = await auth.login(request.body, request.ip);
      return { status: true as const, message: MSG.loginSuccess, data };
    },
  );

  app.post(
    '/logout',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['auth'], summary: 'Cierra la sesión y revoca el token', response: { 200: ZMessageResponse } },
    },
    async (request) => {
      if (!request.auth) throw unauthorized();
      await auth.logout(request.auth.user, request.auth.claims, request.ip);
      return { status: true, message: MSG.logout };
    },
  );

  app.post(
    '/renew-token',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['auth'], summary: 'Renueva el token de la sesión', response: { 200: ZRenewResponse } },
    },
    async (request) => {
      if (!request.auth) throw unauthorized();
      const token = await auth.renew(request.auth.user, request.auth.claims, request.ip);
      return { status: true as const, message: MSG.tokenRenewed, data: { token } };
    },
  );
};
