import type { FastifySchemaCompiler } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson from 'fast-json-stringify';
import { createSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Schema = Parameters<FastifySchemaCompiler<z.ZodType>>[0]['schema'];

const zodSerializerCompiler = createSerializerCompiler({});

/** The zod schema of a response, as fastify-type-provider-zod accepts it (a schema, or `{ properties }`). */
function zodSchemaOf(schema: unknown): z.ZodType | null {
  if (schema instanceof z.ZodType) return schema;
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return properties instanceof z.ZodType ? properties : null;
}

/**
 * A response's JSON Schema as fast-json-stringify takes it, or null when the
 * zod schema has parts JSON Schema cannot express (transforms, dates…).
 */
export function responseJsonSchema(schema: z.ZodType): Record<string, unknown> | null {
  try {
    const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'throw' }) as Record<
      string,
      unknown
    >;
    delete json.$schema;
    return json;
  } catch {
    return null;
  }
}

type Serialize = (data: unknown) => string;

/** Compiled serializers by zod schema: routes share many (error answers, pages of one record type). */
const compiled = new WeakMap<object, Serialize>();

function compile(route: Parameters<FastifySerializerCompiler<Schema>>[0]): Serialize {
  const schema = zodSchemaOf(route.schema);
  const cached = schema && compiled.get(schema);
  if (cached) return cached;
  const json = schema && responseJsonSchema(schema);
  let serialize: Serialize | undefined;
  if (json) {
    try {
      serialize = fastJson(json) as Serialize;
    } catch {
      // A schema fast-json-stringify refuses: zod serializes it.
    }
  }
  serialize ??= zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]) as Serialize;
  if (schema) compiled.set(schema, serialize);
  return serialize;
}

/**
 * Serializes each response with a function compiled once per response schema
 * from the zod schema's JSON Schema (fast-json-stringify), instead of parsing
 * every answer with zod and then calling JSON.stringify. Only the schema's
 * properties are written, so unknown fields (a password hash in a row) are
 * still left out. A schema that cannot be compiled keeps zod's serializer.
 * Compiled on a route's first answer with that status, so start-up does not
 * pay for the hundreds of routes × statuses that may never answer.
 */
export const serializerCompiler: FastifySerializerCompiler<Schema> = (route) => {
  let serialize: Serialize | undefined;
  return (data: unknown) => (serialize ??= compile(route))(data);
};
