import multipart from '@fastify/multipart';
import {
  DEFAULT_AVATAR_FILE,
  MSG,
  PROFILE_MSG,
  SECTIONS,
  ZChangePasswordRequest,
  ZChangePasswordResponse,
  ZErrorResponse,
  ZIdParam,
  ZImageResponse,
  ZLaboralInformation,
  ZUserProfileUpdate,
  ZUserUpdateResponse,
} from '@portal/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, notFound } from '../../lib/http-error.ts';
import { currentUser } from '../../plugins/access.ts';
import type { Services } from '../../services.ts';
import { contentTypeOf, DEFAULT_AVATAR_SVG, MAX_AVATAR_BYTES } from './avatars.ts';

/** The one file of a multipart upload, read whole (the size limit of the multipart plugin applies). */
async function readUploadedFile(request: FastifyRequest): Promise<Buffer> {
  const file = await request.file();
  if (!file) throw new HttpError(422, PROFILE_MSG.avatarMissing, { errors: { file: [PROFILE_MSG.avatarMissing] } });
  return file.toBuffer();
}

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };
const tags = ['profile'];

/** Users read and change their own; other users' records need the users section. */
const selfOr = (flag: 'r' | 'u') => ({ section: SECTIONS.users, flag, unlessSelf: 'id' });

export const profileRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { profile, avatars } = services;

  await app.register(multipart, { limits: { fileSize: MAX_AVATAR_BYTES, files: 1, fields: 4, parts: 5 } });

  app.get(
    '/users/laboral-information/:id',
    {
      config: { access: selfOr('r') },
      schema: {
        tags,
        summary: 'Información laboral: tipo de usuario (rol), área, supervisor y sucursal',
        params: ZIdParam,
        response: { 200: ZLaboralInformation, ...errors },
      },
    },
    async (request) => ({ status: true as const, ...(await profile.laboralInformation(request.params.id)) }),
  );

  app.put(
    '/users/update/:id',
    {
      config: { access: selfOr('u') },
      schema: {
        tags,
        summary: 'Actualiza un usuario: sus datos personales (el propio usuario) o todos (sección de usuarios)',
        description:
          'Sin la sección us_main (u) solo se cambian nombre, apellidos, usuario y correo del propio usuario; rol, área, supervisor, sucursal y estado se rechazan.',
        params: ZIdParam,
        body: ZUserProfileUpdate,
        response: { 200: ZUserUpdateResponse, ...errors },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      const data = await profile.update(actor, request.params.id, request.body, request.ip);
      // The record's shape is checked (and stripped) by the response schema.
      return {
        status: true as const,
        message: actor.id === request.params.id ? PROFILE_MSG.updated : MSG.updated,
        data: data as never,
      };
    },
  );

  app.post(
    '/users/change-password/:id',
    {
      config: { access: selfOr('u') },
      schema: {
        tags,
        summary: 'Cambia la contraseña y cierra las demás sesiones del usuario',
        description:
          'current_password es la contraseña actual del usuario (o la del administrador que cambia la de otro). Al cambiar la propia se devuelve un token nuevo en data.token.',
        params: ZIdParam,
        body: ZChangePasswordRequest,
        response: {
          200: ZChangePasswordResponse,
          422: ZErrorResponse,
          401: ZErrorResponse,
          403: ZErrorResponse,
          404: ZErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const result = await profile.changePassword(currentUser(request), request.params.id, request.body, request.ip);
      return reply.status(result.statusCode).send(result.body);
    },
  );

  app.get(
    '/images/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'URL del avatar del usuario (una imagen por defecto si no subió ninguna)',
        params: ZIdParam,
        response: { 200: ZImageResponse, ...errors },
      },
    },
    async (request) => ({ status: true as const, url: await profile.imageUrl(request.params.id) }),
  );

  app.post(
    '/users/:id/avatar',
    {
      config: { access: selfOr('u') },
      schema: {
        tags,
        summary: 'Sube el avatar del usuario (multipart, un archivo PNG, JPG o WebP de hasta 2 MB)',
        description:
          'La imagen se decodifica y se guarda de nuevo como WebP de hasta 512×512 sin metadatos; una imagen dañada se rechaza con 422.',
        params: ZIdParam,
        consumes: ['multipart/form-data'],
        files: { field: 'file', max: 1, types: ['image/png', 'image/jpeg', 'image/webp'] },
        response: {
          200: ZImageResponse.extend({ message: z.string() }),
          400: ZErrorResponse,
          413: ZErrorResponse,
          415: ZErrorResponse,
          ...errors,
        },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw new HttpError(415, PROFILE_MSG.avatarInvalid);
      const bytes = await readUploadedFile(request).catch((error: unknown) => {
        const { code, statusCode } = error as { code?: string; statusCode?: number };
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, PROFILE_MSG.avatarTooLarge);
        if (error instanceof HttpError || statusCode) throw error;
        // busboy: no boundary, a truncated body, a malformed part header.
        throw new HttpError(400, PROFILE_MSG.avatarMalformed);
      });
      const url = await profile.replaceAvatar(request.params.id, bytes);
      return { status: true as const, message: PROFILE_MSG.avatarUpdated, url };
    },
  );

  app.get(
    '/avatars/:file',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'La imagen de un avatar (nombres aleatorios) o la imagen por defecto',
        params: z.object({ file: z.string().max(64) }),
        produces: ['image/webp', 'image/png', 'image/jpeg', 'image/svg+xml'],
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      if (file === DEFAULT_AVATAR_FILE) {
        return reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400').send(DEFAULT_AVATAR_SVG);
      }
      const bytes = await avatars.read(file);
      if (!bytes) throw notFound();
      return reply.type(contentTypeOf(file)).header('Cache-Control', 'public, max-age=31536000, immutable').send(bytes);
    },
  );
};
