import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ZErrorResponse } from '@portal/contract';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UNSAFE_METHODS, type Access } from './access.ts';
import { declaredErrorStatuses } from './errors.ts';

/**
 * The OpenAPI document (/api/docs/json) and its UI (/api/docs), generated from
 * the routes' zod schemas and completed here, from each route's `config.access`,
 * method and schema, so that every route (present or future) gets without
 * doing anything: an operationId, per-operation security (bearer, plus the
 * CSRF header on PUT/PATCH/DELETE), every error status it can answer as a
 * reference to one shared response, and described answers.
 */

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The file parts of a multipart/form-data body (the handler reads them
     * itself, so there is no body schema): documented as the request body.
     */
    files?: { field: string; max: number; types: readonly string[]; description?: string };
  }
}

type JsonObject = Record<string, unknown>;
type Operation = JsonObject & { responses?: Record<string, unknown>; operationId?: string };
type OpenApiDocument = JsonObject & {
  paths?: Record<string, Record<string, Operation>>;
  components?: JsonObject & { schemas?: Record<string, unknown> };
};

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The shared error answers: one component each, all with the one error schema. */
const ERROR_RESPONSES: Record<number, { name: string; description: string; headers?: JsonObject }> = {
  400: {
    name: 'BadRequest',
    description:
      'Solicitud mal formada: cuerpo JSON o multipart ilegible, dirección mal codificada, o un código o token de un solo uso no válido.',
  },
  401: {
    name: 'Unauthorized',
    description:
      'Sin sesión válida: falta el token Bearer, expiró o fue revocado (en el inicio de sesión: usuario o contraseña incorrectos).',
  },
  403: {
    name: 'Forbidden',
    description:
      'Prohibido: el rol no tiene el permiso que la operación exige, o falta o no es válido el encabezado X-CSRF-TOKEN (PUT, PATCH y DELETE).',
  },
  404: { name: 'NotFound', description: 'No encontrado: el registro indicado no existe.' },
  409: { name: 'Conflict', description: 'Conflicto con el estado actual del registro.' },
  413: { name: 'PayloadTooLarge', description: 'El cuerpo o el archivo enviado es demasiado grande.' },
  414: { name: 'UriTooLong', description: 'Un parámetro de la dirección es demasiado largo.' },
  415: {
    name: 'UnsupportedMediaType',
    description: 'Tipo de contenido no admitido (Content-Type del cuerpo o tipo del archivo).',
  },
  422: {
    name: 'ValidationError',
    description: 'Error de validación: `errors` lista, por campo, los mensajes en español.',
  },
  429: {
    name: 'TooManyRequests',
    description: 'Demasiados intentos: vuelve a intentarlo pasado el tiempo que indica Retry-After.',
    headers: {
      'Retry-After': { description: 'Segundos que hay que esperar.', schema: { type: 'integer', minimum: 0 } },
    },
  },
  500: { name: 'InternalError', description: 'Error interno del servidor (sin detalles).' },
  503: {
    name: 'ServiceUnavailable',
    description: 'Servicio no disponible: el servidor se está deteniendo o la base de datos no responde.',
  },
};

/** Bearer for every operation with a session; the CSRF header too on their PUT, PATCH and DELETE. */
const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'El token que devuelve POST /api/login (y renueva POST /api/renew-token).',
  },
  csrf: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-TOKEN',
    description:
      'Token anti-falsificación de GET /api/csrf-token (o de la meta csrf-token del index.html); lo exigen PUT, PATCH y DELETE de las operaciones con sesión.',
  },
} as const;

const SUCCESS_DESCRIPTIONS: Record<string, string> = {
  200: 'Operación correcta.',
  201: 'Registro creado.',
  204: 'Operación correcta, sin contenido.',
};

const FLAG_NAMES: Record<string, string> = {
  r: 'leer (r)',
  w: 'crear (w)',
  u: 'actualizar (u)',
  d: 'cambiar estado (d)',
};

/** The operationId of a route: its method and path in camelCase (`PUT /api/areas/update/{id}` → putAreasUpdateById). */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^[:{]([^}]+)}?$/.exec(segment);
      return param ? ['by', ...param[1]!.split(/[^A-Za-z0-9]+/)] : segment.split(/[^A-Za-z0-9]+/);
    })
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}

/** Whether a route requires a signed-in caller (the bearer token). */
const isProtected = (access: Access | undefined) => access !== undefined && access !== 'public';

/** The error statuses a route can answer, from what it declared and what its access, method and input imply. */
export function errorStatusesOf(route: Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>): number[] {
  const method = [route.method].flat()[0]!.toUpperCase();
  const access = (route.config as { access?: Access } | undefined)?.access;
  const schema = (route.schema ?? {}) as JsonObject;
  const hasPathParams = /[:{]/.test(route.url);
  const hasInput = hasPathParams || Boolean(schema.querystring || schema.body || schema.params || schema.headers);
  const statuses = new Set(declaredErrorStatuses(route.schema));
  // A body that is not JSON, too large or of another type.
  if (BODY_METHODS.has(method)) [400, 413, 415].forEach((code) => statuses.add(code));
  // A path parameter that is not valid percent-encoding (400) or longer than maxParamLength (414).
  if (hasPathParams) [400, 414].forEach((code) => statuses.add(code));
  if (isProtected(access)) {
    statuses.add(401);
    if (typeof access === 'object' || UNSAFE_METHODS.has(method)) statuses.add(403);
  }
  if (hasPathParams) statuses.add(404);
  if (hasInput || BODY_METHODS.has(method)) statuses.add(422);
  statuses.add(500);
  return [...statuses].filter((code) => ERROR_RESPONSES[code]).sort((a, b) => a - b);
}

function accessText(access: Access | undefined, method: string): string {
  let text: string;
  if (!isProtected(access)) text = 'Acceso público: no requiere sesión.';
  else if (access === 'authenticated') text = 'Acceso: cualquier usuario con sesión activa (token Bearer).';
  else if (typeof access === 'object' && 'anyOf' in access) {
    const options = access.anyOf.map(({ section, flag }) => `${FLAG_NAMES[flag]} en \`${section}\``).join(', o ');
    text = `Acceso: sesión activa y el permiso ${options}.`;
  } else {
    const { section, flag, unlessSelf } = access as { section: string; flag: string; unlessSelf?: string };
    text = `Acceso: sesión activa y el permiso ${FLAG_NAMES[flag]} en la sección \`${section}\``;
    text += unlessSelf ? `, salvo cuando \`${unlessSelf}\` es el propio usuario.` : '.';
  }
  if (isProtected(access) && UNSAFE_METHODS.has(method)) {
    text += ' Requiere además el encabezado `X-CSRF-TOKEN` (se obtiene con GET /api/csrf-token).';
  }
  return text;
}

function sentence(text: string): string {
  return /[.!?)]$/.test(text) ? text : `${text}.`;
}

/** A response body that is not JSON (a file, an image, a CSV, an event stream) as OpenAPI describes it. */
function mediaSchemaOf(type: string): JsonObject {
  return type.startsWith('text/') ? { type: 'string' } : { type: 'string', format: 'binary' };
}

const zodToJsonConfig = { target: 'openapi-3.0' } as const;
const zodTransform = createJsonSchemaTransform({ zodToJsonConfig });
const zodTransformObject = createJsonSchemaTransformObject({ zodToJsonConfig });

type TransformInput = Parameters<typeof zodTransform>[0];

/** @fastify/swagger's per-route transform: zod to JSON Schema, then what the route's access and method imply. */
function transform(input: TransformInput) {
  const result = zodTransform(input);
  const route = (input as { route?: RouteOptions }).route;
  const schema = result.schema as JsonObject | undefined;
  // The document describes the API only: the web app's pages (`/`, `/*`) are not operations.
  if (route && !route.url.startsWith('/api/')) return { ...result, schema: { ...schema, hide: true } };
  if (!route || !schema || schema.hide) return result;
  const method = [route.method].flat()[0]!.toUpperCase();
  const access = route.config?.access;
  const produces = schema.produces as string[] | undefined;

  const response: Record<string, JsonObject> = {};
  for (const [code, value] of Object.entries((schema.response ?? {}) as Record<string, JsonObject>)) {
    if (Number(code) >= 400) continue;
    const described = { ...value };
    if (produces) Object.assign(described, mediaSchemaOf(produces[0]!));
    described['x-response-description'] = value.description ?? SUCCESS_DESCRIPTIONS[code] ?? 'Operación correcta.';
    response[code] = described;
  }
  // A route that streams or sends a file declares no success schema: it answers 200 with its `produces` type.
  if (!Object.keys(response).some((code) => Number(code) < 400)) {
    response[200] = {
      ...mediaSchemaOf(produces?.[0] ?? 'application/octet-stream'),
      'x-response-description': 'Operación correcta: el contenido del archivo.',
    };
  }

  let body = schema.body;
  const files = schema.files as FastifySchema['files'];
  if (files && !body) {
    const file = { type: 'string', format: 'binary', description: `Tipos admitidos: ${files.types.join(', ')}.` };
    body = {
      type: 'object',
      properties: {
        [files.field]: files.max > 1 ? { type: 'array', items: file, minItems: 1, maxItems: files.max } : file,
      },
      required: [files.field],
      ...(files.description ? { description: files.description } : {}),
    };
  }

  const summary = typeof schema.summary === 'string' ? schema.summary : undefined;
  const lead = typeof schema.description === 'string' ? schema.description : summary ? sentence(summary) : '';
  const bearer = isProtected(access);
  const requirement: Record<string, string[]> = UNSAFE_METHODS.has(method) ? { bearer: [], csrf: [] } : { bearer: [] };
  const { files: _files, ...rest } = schema;
  return {
    ...result,
    schema: {
      ...rest,
      ...(body ? { body } : {}),
      operationId: typeof schema.operationId === 'string' ? schema.operationId : operationIdOf(method, route.url),
      description: [lead, accessText(access, method)].filter(Boolean).join('\n\n'),
      security: bearer ? [requirement] : [],
      response,
      'x-error-statuses': errorStatusesOf(route),
    },
  };
}

/** Every `#/components/schemas/…` name a value refers to. */
function schemaRefsOf(value: unknown, found = new Set<string>()): Set<string> {
  const json = JSON.stringify(value);
  for (const match of json.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) found.add(match[1]!);
  return found;
}

/**
 * @fastify/swagger's whole-document transform: the shared components (error
 * schema and answers, security schemes), each operation's error answers as
 * references to them, and only the zod-registered schemas that are used.
 */
function transformObject(input: Parameters<typeof zodTransformObject>[0]) {
  const doc = zodTransformObject(input) as OpenApiDocument;
  const components = (doc.components ??= {});
  const schemas = { ...(components.schemas ?? {}) };

  const errorSchema = z.toJSONSchema(ZErrorResponse, { target: 'openapi-3.0', io: 'output' }) as JsonObject;
  delete errorSchema.$schema;
  schemas.Error = {
    ...errorSchema,
    description:
      'Toda respuesta de error de la API: `message` en español; `errors`, los mensajes por campo (422); `title`, el encabezado que muestran algunos formularios.',
    example: { status: false, message: 'Error de validación', errors: { name: ['Este campo es obligatorio.'] } },
  };

  const responses: JsonObject = {};
  for (const { name, description, headers } of Object.values(ERROR_RESPONSES)) {
    responses[name] = {
      description,
      ...(headers ? { headers } : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }

  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const statuses = (operation['x-error-statuses'] as number[] | undefined) ?? [];
      delete operation['x-error-statuses'];
      const all: Record<string, unknown> = { ...operation.responses };
      for (const code of statuses) all[code] = { $ref: `#/components/responses/${ERROR_RESPONSES[code]!.name}` };
      operation.responses = Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)));
    }
  }

  // Only the registered schemas something refers to (the zod registry holds input and output forms of each).
  const used = schemaRefsOf(doc.paths);
  used.add('Error');
  for (let size = 0; size !== used.size;) {
    size = used.size;
    for (const name of [...used]) schemaRefsOf(schemas[name], used);
  }
  components.schemas = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  components.responses = responses;
  delete doc.security;
  return doc;
}

/** OpenAPI document and UI at /api/docs, generated from the contract's zod schemas. */
export const docsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Portal de tickets API',
          version: '1.0.0',
          description:
            'API del portal de tickets. Autenticación: `Authorization: Bearer <token>` (POST /api/login); PUT, PATCH y DELETE con sesión requieren además `X-CSRF-TOKEN` (GET /api/csrf-token). Cada operación declara su seguridad y todas las respuestas que puede dar; los errores comparten el esquema `Error`.',
        },
        components: { securitySchemes: SECURITY_SCHEMES },
      },
      transform,
      transformObject,
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      // No third-party validator badge (it would send the document's address away).
      uiConfig: { validatorUrl: null },
      // The portal's own policy; Swagger UI sets inline styles, and the page may be served over plain http.
      staticCSP: {
        'default-src': "'self'",
        'base-uri': "'self'",
        'connect-src': "'self'",
        'font-src': "'self' data:",
        'form-action': "'self'",
        'frame-ancestors': "'none'",
        'img-src': "'self' data:",
        'object-src': "'none'",
        'script-src': "'self'",
        'script-src-attr': "'none'",
        'style-src': "'self' 'unsafe-inline'",
      },
    });
  },
  { name: 'docs' },
);
