import { Readable } from 'node:stream';
import {
  AUDIT_COUNT_CAP,
  SECTIONS,
  ZAuditListQuery,
  ZAuditPage,
  ZAuditUsersResponse,
  ZErrorResponse,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.ts';

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 422: ZErrorResponse };
const tags = ['audit-log'];
/** Only who holds read on Auditoría (seeded for Administrador alone). */
const access = { section: SECTIONS.auditLog, flag: 'r' as const };

/** Auditoría: the audit log, paged and filtered, and its CSV. */
export const auditRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { auditLog } = services;

  app.post(
    '/audit-log',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Bitácora de auditoría, lo más reciente primero, con filtros y búsqueda',
        description: `El total es exacto hasta ${new Intl.NumberFormat('es').format(AUDIT_COUNT_CAP)} entradas; por encima, \`meta.total_is_lower_bound\` es true.`,
        body: ZAuditListQuery,
        response: { 200: ZAuditPage, ...errors },
      },
    },
    async (request) => ({ status: true as const, ...(await auditLog.list(request.body)) }),
  );

  app.post(
    '/audit-log/export',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Exporta a CSV (UTF-8 con BOM) todas las entradas que cumplen los filtros',
        description: 'Mismo cuerpo que /audit-log (la página se ignora). Responde text/csv, transmitido por partes.',
        body: ZAuditListQuery,
        produces: ['text/csv'],
        response: errors,
      },
    },
    async (request, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${auditLog.exportFileName(request.body.time_zone)}"`)
        .header('cache-control', 'no-store')
        // A stream is sent as it is; the response schemas describe only the JSON errors.
        .send(Readable.from(auditLog.exportCsv(request.body)) as never),
  );

  app.get(
    '/audit-log/users',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Todos los usuarios, activos o no, para el filtro por usuario',
        response: { 200: ZAuditUsersResponse, ...errors },
      },
    },
    async () => ({ status: true as const, data: await auditLog.users() }),
  );
};
