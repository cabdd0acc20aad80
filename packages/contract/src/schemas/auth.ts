import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from './users.ts';
import { ZDataResponse, ZFreeText, ZText } from './common.ts';

export const ZLoginRequest = z.object({
  /** Usernames are unique without regard to case: sign-in (and its rate limit) uses the lower-cased name. */
  username: ZText('textWithSymbols', { max: 50 }).transform((v) => v.toLowerCase()),
  password: ZText('textWithSymbols', { max: MAX_PASSWORD_LENGTH }),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;
z.globalRegistry.add(ZLoginRequest, { example: { username: 'jperez', password: 'MiClave2024' } });

export const ZSessionUser = z.object({
  id: z.number(),
  name: z.string(),
  last_name: z.string(),
  second_last_name: z.string().nullable(),
  username: z.string(),
  email: z.string(),
  role_id: z.number(),
  role: z.object({ id: z.number(), name: z.string(), is_supervisor: z.number() }),
  area_id: z.number().nullable(),
});
export type TSessionUser = z.infer<typeof ZSessionUser>;

export const ZLoginResponse = ZDataResponse(z.object({ user: ZSessionUser, token: z.string() }));
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

export const ZRenewResponse = z.object({
  status: z.literal(true),
  message: z.string(),
  data: z.object({ token: z.string() }),
});

/** Ids in these bodies are accepted for compatibility but never trusted. */
export const ZCheckPermissionRequest = z.object({
  user_id: z.unknown().optional(),
  role_id: z.unknown().optional(),
  route_name: ZFreeText({ max: 100, error: 'La ruta es obligatoria.' }).pipe(z.string().trim().min(1)),
});

export const ZSectionPermission = z.object({
  name: z.string(),
  r: z.number(),
  w: z.number(),
  u: z.number(),
  d: z.number(),
});
export type TSectionPermission = z.infer<typeof ZSectionPermission>;

export const ZCheckPermissionResponse = z.object({
  status: z.literal(true),
  message: z.string(),
  sections: z.array(ZSectionPermission),
});
export type TCheckPermissionResponse = z.infer<typeof ZCheckPermissionResponse>;

export const ZUserPermissionsRequest = z
  .object({ role_id: z.unknown().optional() })
  .nullish()
  .transform((b) => b ?? {});

export const ZUserPermissionsResponse = z.object({
  status: z.literal(true),
  routes: z.array(z.string()),
});
export type TUserPermissionsResponse = z.infer<typeof ZUserPermissionsResponse>;
