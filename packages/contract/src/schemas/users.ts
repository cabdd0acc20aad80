import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../constants.ts';
import { MSG } from '../messages.ts';
import { isClean, sanitizerMessages, sanitizerPatterns } from '../sanitize.ts';
import { updateSchemaOf, ZEmail, ZId, ZNamedRef, ZStatusId, ZStatusRef, ZText } from './common.ts';

export const MAX_PASSWORD_LENGTH = 128;

export const ZPassword = z
  .string({ error: 'Debe ser texto.' })
  .min(MIN_PASSWORD_LENGTH, MSG.passwordTooShort(MIN_PASSWORD_LENGTH))
  .max(MAX_PASSWORD_LENGTH, MSG.tooLong(MAX_PASSWORD_LENGTH))
  .refine((v) => isClean('textWithSymbols', v), sanitizerMessages.textWithSymbols)
  .meta({
    pattern: sanitizerPatterns.textWithSymbols,
    description: `Regla de caracteres textWithSymbols: ${sanitizerMessages.textWithSymbols}`,
  });

export const ZUsername = z
  .string({ error: 'Debe ser texto.' })
  .trim()
  .min(3, 'Mínimo 3 caracteres.')
  .max(50, MSG.tooLong(50))
  .regex(/^[A-Za-z0-9_]+$/, 'Solo se permiten letras, números y guion bajo.');

/** What a user may change of their own (the profile form), as the /users form does. */
export const personalUserFields = {
  name: ZText('onlyLetters', { max: 80 }),
  last_name: ZText('onlyLetters', { max: 80 }),
  second_last_name: ZText('onlyLetters', { min: 0, max: 80 })
    .nullish()
    .transform((v) => v || null),
  username: ZUsername,
  email: ZEmail,
};

const userFields = {
  ...personalUserFields,
  role_id: ZId,
  area_id: ZId.nullish().transform((v) => v ?? null),
  supervisor_id: ZId.nullish().transform((v) => v ?? null),
  branch: ZText('alphanumeric', { min: 0, max: 80 })
    .nullish()
    .transform((v) => v || null),
  status_id: ZStatusId.default(1),
};

export const ZUserCreate = z.object({ ...userFields, password: ZPassword });
export const ZUserUpdate = updateSchemaOf(z.object(userFields));
export type TUserCreate = z.input<typeof ZUserCreate>;

export const ZUser = z.object({
  id: z.number(),
  name: z.string(),
  last_name: z.string(),
  second_last_name: z.string().nullable(),
  username: z.string(),
  email: z.string(),
  role_id: z.number(),
  role: ZNamedRef,
  area_id: z.number().nullable(),
  area: ZNamedRef,
  supervisor_id: z.number().nullable(),
  supervisor: ZNamedRef,
  branch: z.string().nullable(),
  status_id: z.number(),
  status: ZStatusRef,
});
export type TUser = z.infer<typeof ZUser>;
