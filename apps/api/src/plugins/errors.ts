import { MSG, PROFILE_MSG, ZErrorResponse } from '@portal/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError, type FieldErrors } from '../lib/http-error.ts';

const clientErrorMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: MSG.invalidJson,
  FST_ERR_CTP_EMPTY_JSON_BODY: MSG.invalidJson,
  FST_ERR_CTP_BODY_TOO_LARGE: MSG.payloadTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: MSG.unsupportedMediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'La longitud del contenido no es válida.',
  FST_INVALID_MULTIPART_CONTENT_TYPE: MSG.unsupportedMediaType,
  FST_REQ_FILE_TOO_LARGE: PROFILE_MSG.avatarTooLarge,
  FST_PARTS_LIMIT: MSG.payloadTooLarge,
  FST_FILES_LIMIT: MSG.payloadTooLarge,
  FST_FIELDS_LIMIT: MSG.payloadTooLarge,
};

/** The multipart parser (busboy) reports a malformed body with a plain Error; these are the client's fault. */
const MALFORMED_MULTIPART =
  /^(Multipart: Boundary not found|Unexpected end of (form|multipart data)|Malformed part header)/;

/**
 * Database errors that can only come from a value the contract should have
 * refused (out-of-range number, NUL byte, over-long text, bad text for a
 * number). The contract bounds every input; this keeps a missed one a 422
 * instead of a 500, and logs it so it gets fixed.
 */
const INVALID_VALUE_CODES = new Set(['22003', '22021', '22001', '22P02', '22P05', '54000']);

/** The status codes every API route may answer with an error, documented and serialized with one schema. */
const ERROR_STATUSES = [400, 401, 403, 404, 413, 415, 422, 429, 500] as const;

/** The error statuses each route schema declared itself, before the shared ones were added (for the OpenAPI document). */
const declaredErrors = new WeakMap<object, number[]>();

/** The error statuses a route's schema declared itself (plugins/docs.ts adds those its access, method and input imply). */
export function declaredErrorStatuses(schema: object | undefined): number[] {
  return (schema && declaredErrors.get(schema)) ?? [];
}

/**
 * Every error answer of a route has the one shape the handler below sends
 * (`ZErrorResponse`), whatever the route declared, so no error reply can fail
 * to serialize (a 500 in place of the intended 4xx).
 */
function withSharedErrorSchemas(route: RouteOptions): void {
  if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
  const schema = (route.schema ??= {});
  const response = { ...((schema.response as Record<string, unknown> | undefined) ?? {}) };
  // A GET route's HEAD twin shares its schema, already completed: the first call saw what the route declared.
  if (!declaredErrors.has(schema)) {
    declaredErrors.set(
      schema,
      Object.keys(response)
        .filter((code) => Number(code) >= 400)
        .map(Number),
    );
  }
  for (const code of Object.keys(response)) {
    if (Number(code) >= 400 || /^[45]xx$/i.test(code)) response[code] = ZErrorResponse;
  }
  for (const code of ERROR_STATUSES) response[code] ??= ZErrorResponse;
  schema.response = response;
}

/**
 * Errors Fastify raises before routing (a malformed URL, a path parameter
 * over `maxParamLength`), which never reach the error handler: the Fastify
 * option `frameworkErrors` of app.ts.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'La dirección solicitada es demasiado larga.'
      : 'La dirección solicitada no es válida.';
  void reply
    .status(error.statusCode ?? 400)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ status: false, message }));
}

/**
 * One error handler for the whole API: every answer is JSON with a Spanish
 * `message`; 5xx never tell what went wrong inside.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', withSharedErrorSchemas);

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

      if (!error.statusCode && MALFORMED_MULTIPART.test(error.message ?? '')) {
        return reply.status(400).send({ status: false, message: MSG.malformedMultipart });
      }

      if (!error.statusCode && INVALID_VALUE_CODES.has(error.code)) {
        request.log.warn({ err: error }, 'a value the contract let through was refused by the database');
        return reply.status(422).send({ status: false, message: MSG.validation });
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
