import {
  ZCheckPermissionRequest,
  ZCheckPermissionResponse,
  ZErrorResponse,
  ZUserPermissionsRequest,
  ZUserPermissionsResponse,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpError } from '../../lib/http-error.ts';
import { currentUser } from '../../plugins/access.ts';
import type { Services } from '../../services.ts';

export const permissionsRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { permissions } = services;

  app.post(
    '/check-permission',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['permissions'],
        summary: 'Permisos (r, w, u, d) del rol del usuario en las secciones de una ruta',
        description: 'user_id y role_id del cuerpo se ignoran: cuentan los del token.',
        body: ZCheckPermissionRequest,
        response: { 200: ZCheckPermissionResponse, 404: ZErrorResponse },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const routeName = request.body.route_name.replace(/^\/+/, '');
      const route = await permissions.findRoute(routeName);
      if (!route) {
        throw new HttpError(404, `La ruta '${routeName.slice(0, 100)}' no existe.`, {
          exception: 'RouteNotFoundException',
        });
      }
      const sections = await permissions.sectionsOfRoute(user.role_id, route.id);
      return { status: true as const, message: 'Permisos obtenidos.', sections };
    },
  );

  app.post(
    '/user-permissions',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['permissions'],
        summary: 'Nombres de las rutas permitidas al rol del usuario',
        description: 'role_id del cuerpo se ignora: cuenta el del token.',
        body: ZUserPermissionsRequest,
        response: { 200: ZUserPermissionsResponse },
      },
    },
    async (request) => {
      const routes = await permissions.routesOfRole(currentUser(request).role_id);
      return { status: true as const, routes };
    },
  );
};
