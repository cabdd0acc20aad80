import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../constants.ts';
import { MSG } from '../messages.ts';
import { ZDataResponse, ZFreeText, ZId, ZNamedRef, ZStatusId, ZText } from './common.ts';
import { ZUserGroup } from './groups.ts';
import { MAX_PASSWORD_LENGTH, personalUserFields, ZUser } from './users.ts';

export const PROFILE_MSG = {
  updatedTitle: '¡Perfil actualizado!',
  updated: 'Tus cambios se guardaron correctamente.',
  saveFailedTitle: 'Error al guardar',
  saveFailed: 'Ocurrió un problema. Intenta de nuevo.',
  fixErrors: 'Por favor, corrige los errores antes de guardar.',
  adminFieldsForbidden: 'No puedes cambiar tu rol, área, supervisor, sucursal ni estado.',
  avatarUpdated: 'Foto de perfil actualizada.',
  avatarInvalid: 'Formato inválido',
  avatarTooLarge: 'La imagen no puede superar 2 MB.',
  avatarMissing: 'Selecciona una imagen.',
  avatarMalformed: 'La imagen no llegó completa. Vuelve a subirla.',
  avatarUnreadable: 'La imagen está dañada o no es una imagen PNG, JPG o WebP válida.',
} as const;

export const PASSWORD_MSG = {
  missingTitle: 'Por favor, completa todos los campos',
  sameAsCurrent: 'La nueva contraseña no puede ser igual a la actual',
  mismatch: 'Las contraseñas no coinciden',
  wrongCurrent: 'La contraseña actual es incorrecta.',
  confirm: '¿Realmente deseas cambiar tu contraseña?',
  failedTitle: 'La contraseña no fue actualizada',
  failed: 'Ocurrió un error al cambiar la contraseña.',
  unknown: 'Error desconocido al actualizar la contraseña',
  successTitle: 'Contraseña actualizada',
  success: 'Recuerda anotar tu contraseña en un lugar seguro',
} as const;

/**
 * PUT /users/update/{id}. The profile form sends the five personal fields; a
 * holder of the users section may also send the administrative ones (the
 * /users screen), which are left unchanged when absent.
 */
export const ZUserProfileUpdate = z.object({
  ...personalUserFields,
  role_id: ZId.optional(),
  area_id: ZId.nullable().optional(),
  supervisor_id: ZId.nullable().optional(),
  branch: ZText('alphanumeric', { min: 0, max: 80 })
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v || null)),
  status_id: ZStatusId.optional(),
});
export type TUserProfileUpdate = z.input<typeof ZUserProfileUpdate>;
export const ADMIN_USER_FIELDS = ['role_id', 'area_id', 'supervisor_id', 'branch', 'status_id'] as const;

export const ZUserUpdateResponse = ZDataResponse(ZUser);

/** Laboral information with the fixed labels of the profile (supervisor, user type, branch, area). */
export const ZLaboralInformation = z.object({
  status: z.literal(true),
  role: z.object({ id: z.number(), name: z.string() }),
  area: ZNamedRef,
  supervisor: ZNamedRef,
  branch: z.string().nullable(),
  /** The groups the user belongs to, by name. */
  groups: z.array(ZUserGroup),
});
export type TLaboralInformation = z.infer<typeof ZLaboralInformation>;

/** The three fields are checked by the service, so that every failure carries the form's title. */
export const ZChangePasswordRequest = z.object({
  current_password: ZFreeText({ max: MAX_PASSWORD_LENGTH }).default(''),
  new_password: ZFreeText({ max: MAX_PASSWORD_LENGTH }).default(''),
  password_confirmation: ZFreeText({ max: MAX_PASSWORD_LENGTH }).default(''),
});
export type TChangePasswordRequest = z.input<typeof ZChangePasswordRequest>;
// Documented as required: a missing one is refused (422) by the service, with the form's title.
z.globalRegistry.add(ZChangePasswordRequest, {
  required: ['current_password', 'new_password', 'password_confirmation'],
});

export const ZChangePasswordResponse = z.object({
  status: z.boolean(),
  title: z.string(),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  /** A fresh token for the caller when they changed their own password (their other sessions end). */
  data: z.object({ token: z.string() }).optional(),
});
export type TChangePasswordResponse = z.infer<typeof ZChangePasswordResponse>;

export const PASSWORD_MIN_LENGTH_MSG = MSG.passwordTooShort(MIN_PASSWORD_LENGTH);

export const ZImageResponse = z.object({ status: z.literal(true), url: z.string() });
export type TImageResponse = z.infer<typeof ZImageResponse>;
