import {
  PASSWORD_RESET_MSG,
  ZErrorResponse,
  ZResetPasswordRequest,
  ZResetPasswordResponse,
  ZSendResetCodeRequest,
  ZSendResetCodeResponse,
  ZVerifyResetCodeRequest,
  ZVerifyResetCodeResponse,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.ts';

const errors = { 400: ZErrorResponse, 422: ZErrorResponse, 429: ZErrorResponse };
const tags = ['password'];

/** Password recovery by e-mail: public, rate limited, audited. */
export const passwordResetRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { passwordReset } = services;
  app.addHook('onClose', () => passwordReset.settle());

  app.post(
    '/password/send-reset-code',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Envía un código de 6 dígitos al correo, si pertenece a una cuenta activa',
        body: ZSendResetCodeRequest,
        response: { 200: ZSendResetCodeResponse, 422: ZErrorResponse, 429: ZErrorResponse },
      },
    },
    async (request) => {
      await passwordReset.requestCode(request.body.email, request.ip);
      return { status: true as const, message: PASSWORD_RESET_MSG.codeSent };
    },
  );

  app.post(
    '/password/verify-reset-code',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Canjea el código recibido por un reset_token de un solo uso',
        body: ZVerifyResetCodeRequest,
        response: { 200: ZVerifyResetCodeResponse, ...errors },
      },
    },
    async (request) => {
      const resetToken = await passwordReset.verifyCode(request.body.email, request.body.token, request.ip);
      return { status: true as const, message: PASSWORD_RESET_MSG.codeVerified, reset_token: resetToken };
    },
  );

  app.post(
    '/password/reset-password',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Fija la nueva contraseña y cierra todas las sesiones del usuario',
        body: ZResetPasswordRequest,
        response: { 200: ZResetPasswordResponse, ...errors },
      },
    },
    async (request) => {
      await passwordReset.resetPassword(request.body, request.ip);
      return { status: true as const, message: PASSWORD_RESET_MSG.passwordReset };
    },
  );
};
