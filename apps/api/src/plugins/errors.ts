import { MSG } from '@portal/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError, type FieldErrors } from '../lib/http-error.ts';

const clientErrorMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: MSG.invalidJson,
  FST_ERR_CTP_EMPTY_JSON_BODY: MSG.invalidJson,
  FST_ERR_CTP_BODY_TOO_LARGE: MSG.payloadTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: MSG.unsupportedMediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'La longitud del contenido no es válida.',
};

/**
 * One error handler for the whole API: every answer is JSON with a Spanish
 * `message`; 5xx never tell what went wrong inside.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler(async (error: FastifyError, request, reply) => {
      if (error instanceof HttpError) {
        if (error.extra.headers) void reply.headers(error.extra.headers);
        const { errors, exception } = error.extra;
        return reply.status(error.statusCode).send({ status: false, message: error.message, errors, exception });
      }

      if (hasZodFastifySchemaValidationErrors(error)) {
        const errors: FieldErrors = {};
        for (const issue of error.validation) {
          const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || error.validationContext || 'body';
          (errors[field] ??= []).push(issue.message ?? MSG.validation);
        }
        return reply.status(422).send({ status: false, message: MSG.validation, errors });
      }

      const statusCode = error.statusCode ?? 500;
      if (statusCode >= 400 && statusCode < 500) {
        const message = clientErrorMessages[error.code] ?? (statusCode === 404 ? MSG.notFound : 'Solicitud inválida.');
        return reply.status(statusCode).send({ status: false, message });
      }

      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send({ status: false, message: MSG.internal });
    });

    app.setNotFoundHandler(async (request, reply) => {
      return reply.status(404).send({ status: false, message: MSG.routeNotFound });
    });
  },
  { name: 'errors' },
);
