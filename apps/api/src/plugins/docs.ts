import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

const SWAGGER_UI_STYLE_HASH = 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w=';

/** OpenAPI document and UI at /api/docs, generated from the contract's zod schemas. */
export const docsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Portal de tickets API',
          version: '1.0.0',
          description:
            'API del portal de tickets. Autenticación: `Authorization: Bearer <token>`; PUT y PATCH requieren `X-CSRF-TOKEN`.',
        },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
        security: [{ bearer: [] }],
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      // Swagger UI's bundle injects one fixed <style> element (its SVG sprite styles): allow exactly
      // that one by its hash, on /api/docs only, instead of any inline style or https: origin.
      transformStaticCSP: (header) =>
        header.replace(/style-src [^;]*;/, `style-src 'self' '${SWAGGER_UI_STYLE_HASH}';`),
    });
  },
  { name: 'docs' },
);
