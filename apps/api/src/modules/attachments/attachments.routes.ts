import multipart from '@fastify/multipart';
import {
  ATTACHMENT_MSG,
  MAX_FILES_PER_UPLOAD,
  SECTIONS,
  ZAttachmentList,
  ZAttachmentUploadResponse,
  ZErrorResponse,
  ZIdParam,
  ZMessageResponse,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../lib/http-error.ts';
import { currentUser } from '../../plugins/access.ts';
import type { Services } from '../../services.ts';
import { contentDisposition } from './attachments.service.ts';

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };
const tags = ['attachments'];

/** Either ticket screen with the flag; the service then checks the ticket itself. */
const onTickets = (flag: 'r' | 'u') => ({
  anyOf: [SECTIONS.tickets, SECTIONS.generalTickets].map((section) => ({ section, flag })),
});

export const attachmentsRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { attachments } = services;
  const { max_bytes: maxBytes } = attachments.limits;
  const multipartLimits = {
    fileSize: maxBytes,
    files: MAX_FILES_PER_UPLOAD,
    fields: 10,
    parts: MAX_FILES_PER_UPLOAD + 10,
  };

  // Only this plugin's routes parse multipart bodies, with these limits.
  await app.register(multipart, { limits: multipartLimits });

  app.post(
    '/tickets/:id/attachments',
    {
      config: { access: onTickets('u') },
      // The files stream to temporary files; this only bounds what the request may announce.
      bodyLimit: MAX_FILES_PER_UPLOAD * maxBytes + 1024 * 1024,
      schema: {
        tags,
        summary: `Adjunta hasta ${MAX_FILES_PER_UPLOAD} archivos (PDF, JPG o PNG) a un ticket`,
        description:
          'multipart/form-data con uno a tres archivos. El tipo se reconoce por los primeros bytes, no por el nombre ni el tipo declarado. Cada archivo pesa como máximo ATTACHMENT_MAX_BYTES; un ticket admite 20. Si un archivo no es válido no se guarda ninguno.',
        params: ZIdParam,
        consumes: ['multipart/form-data'],
        files: { field: 'files', max: MAX_FILES_PER_UPLOAD, types: ['application/pdf', 'image/jpeg', 'image/png'] },
        response: {
          200: ZAttachmentUploadResponse,
          400: ZErrorResponse,
          413: ZErrorResponse,
          415: ZErrorResponse,
          ...errors,
        },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw new HttpError(415, ATTACHMENT_MSG.notMultipart);
      const actor = currentUser(request);
      await attachments.checkUpload(actor, request.params.id);
      const files = request.files({ limits: multipartLimits });
      const data = await attachments.upload(actor, request.params.id, files, request.raw);
      return { status: true as const, message: ATTACHMENT_MSG.uploaded(data.length), data };
    },
  );

  app.get(
    '/tickets/:id/attachments',
    {
      config: { access: onTickets('r') },
      schema: {
        tags,
        summary: 'Archivos de un ticket, con los límites de carga y si el usuario puede adjuntar',
        params: ZIdParam,
        response: { 200: ZAttachmentList, ...errors },
      },
    },
    async (request) => ({
      status: true as const,
      ...(await attachments.list(currentUser(request), request.params.id)),
    }),
  );

  app.get(
    '/attachments/:id',
    {
      config: { access: onTickets('r') },
      schema: {
        tags,
        summary: 'Descarga un archivo adjunto (con su nombre original y su tipo)',
        description:
          'Responde los bytes del archivo como application/pdf, image/jpeg o image/png; los errores, en JSON.',
        params: ZIdParam,
        produces: ['application/pdf', 'image/jpeg', 'image/png'],
        response: { 200: z.unknown().describe('Los bytes del archivo'), ...errors },
      },
    },
    async (request, reply) => {
      const { attachment, body } = await attachments.open(currentUser(request), request.params.id);
      return reply
        .type(attachment.type)
        .header('Content-Length', String(attachment.size))
        .header('Content-Disposition', contentDisposition(attachment.name))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
        .send(body);
    },
  );

  app.delete(
    '/attachments/:id',
    {
      config: { access: onTickets('r') },
      schema: {
        tags,
        summary: 'Elimina un archivo adjunto (quien lo subió o un rol privilegiado)',
        params: ZIdParam,
        response: { 200: ZMessageResponse, ...errors },
      },
    },
    async (request) => {
      await attachments.remove(currentUser(request), request.params.id);
      return { status: true, message: ATTACHMENT_MSG.deleted };
    },
  );
};
