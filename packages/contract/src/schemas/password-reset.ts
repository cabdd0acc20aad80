import { z } from 'zod';
import { ZEmail, ZFreeText } from './common.ts';
import { ZPassword } from './users.ts';

/** Length of the recovery code sent by e-mail. */
export const RESET_CODE_LENGTH = 6;

/** Minutes a recovery code, and then the reset token it is traded for, stay valid. */
export const RESET_CODE_TTL_MINUTES = 10;

/** Spanish texts of password recovery, shared by the API and the screens. */
export const PASSWORD_RESET_MSG = {
  codeSent:
    'Si el correo está registrado, te enviamos un código de 6 dígitos. Revisa tu bandeja de entrada (y la carpeta de spam).',
  codeVerified: 'Código verificado',
  passwordReset: 'Tu contraseña fue restablecida. Ya puedes iniciar sesión.',
  invalidCode: 'El código ingresado es incorrecto o ha expirado.',
  invalidResetToken: 'La solicitud de restablecimiento no es válida o expiró. Solicita un nuevo código.',
  passwordsDoNotMatch: 'Las contraseñas no coinciden',
  codeTitle: 'Código inválido',
  codeLength: 'Debes ingresar un código de 6 dígitos.',
  sendFailed: 'Ocurrió un error al enviar el código',
  verifyFailed: 'El código ingresado es incorrecto',
  connectionFailed: 'No se pudo conectar con el servidor',
} as const;

export const ZResetCode = z
  .string({ error: PASSWORD_RESET_MSG.codeLength })
  .trim()
  .regex(new RegExp(`^\\d{${RESET_CODE_LENGTH}}$`), PASSWORD_RESET_MSG.codeLength);

export const ZSendResetCodeRequest = z.object({ email: ZEmail });
export type TSendResetCodeRequest = z.infer<typeof ZSendResetCodeRequest>;

export const ZSendResetCodeResponse = z.object({ status: z.literal(true), message: z.string() });
export type TSendResetCodeResponse = z.infer<typeof ZSendResetCodeResponse>;

/** `token` is the 6-digit code of the e-mail (the name the API has always given it). */
export const ZVerifyResetCodeRequest = z.object({ email: ZEmail, token: ZResetCode });
export type TVerifyResetCodeRequest = z.infer<typeof ZVerifyResetCodeRequest>;

export const ZVerifyResetCodeResponse = z.object({
  status: z.literal(true),
  message: z.string(),
  reset_token: z.string(),
});
export type TVerifyResetCodeResponse = z.infer<typeof ZVerifyResetCodeResponse>;

export const ZResetPasswordRequest = z
  .object({
    email: ZEmail,
    reset_token: ZFreeText({ max: 200 }).pipe(z.string().trim().min(1, 'Este campo es obligatorio.')),
    password: ZPassword,
    password_confirmation: ZFreeText({ max: 200, error: 'Este campo es obligatorio.' }),
  })
  .refine((b) => b.password === b.password_confirmation, {
    message: PASSWORD_RESET_MSG.passwordsDoNotMatch,
    path: ['password_confirmation'],
  });
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;

export const ZResetPasswordResponse = z.object({ status: z.literal(true), message: z.string() });
export type TResetPasswordResponse = z.infer<typeof ZResetPasswordResponse>;
