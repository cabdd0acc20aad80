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

/**
 * Serializes each response with a function compiled once per route and status
 * from the zod schema's JSON Schema (fast-json-stringify), instead of parsing
 * every answer with zod and then calling JSON.stringify. Only the schema's
 * properties are written, so unknown fields (a password hash in a row) are
 * still left out. A schema that cannot be compiled keeps zod's serializer.
 */
export const serializerCompiler: FastifySerializerCompiler<Schema> = (route) => {
  const schema = zodSchemaOf(route.schema);
  const json = schema && responseJsonSchema(schema);
  if (json) {
    try {
      return fastJson(json);
    } catch {
      // A schema fast-json-stringify refuses: zod serializes it.
    }
  }
  return zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
};
