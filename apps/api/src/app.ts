import Fastify, { type FastifyServerOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { attachmentsRoutes } from './modules/attachments/attachments.routes.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { catalogRoutes } from './modules/catalogs/catalog.routes.ts';
import { exampleRoutes } from './modules/example/example.routes.ts';
import { groupsRoutes } from './modules/groups/groups.routes.ts';
import { queuesRoutes } from './modules/groups/queues.routes.ts';
import { kanbanRoutes } from './modules/kanban/kanban.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { mailOutboxRoutes } from './modules/mail/mail-outbox.routes.ts';
import { notificationPreferencesRoutes } from './modules/mail/notification-preferences.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { passwordResetRoutes } from './modules/password-reset/password-reset.routes.ts';
import { permissionsRoutes } from './modules/permissions/permissions.routes.ts';
import { activitiesRoutes } from './modules/activities/activities.routes.ts';
import { profileRoutes } from './modules/profile/profile.routes.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { savedViewsRoutes } from './modules/saved-views/saved-views.routes.ts';
import { ticketImportRoutes } from './modules/ticket-import/ticket-import.routes.ts';
import { ticketLinksRoutes } from './modules/ticket-links/ticket-links.routes.ts';
import { referencesRoutes } from './modules/references/references.routes.ts';
import { ticketsRoutes } from './modules/tickets/tickets.routes.ts';
import { workloadRoutes } from './modules/workload/workload.routes.ts';
import { accessPlugin } from './plugins/access.ts';
import { compressionPlugin } from './plugins/compression.ts';
import { docsPlugin } from './plugins/docs.ts';
import { errorsPlugin, frameworkErrors } from './plugins/errors.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { serializerCompiler } from './plugins/serializer.ts';
import { webPlugin } from './plugins/web.ts';
import { createServices } from './services.ts';

z.config(z.locales.es());

const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** How often node checks requests against the request and headers timeouts (its default is 30 s). */
const connectionsCheckingInterval = (config: Config) =>
  Math.max(250, Math.min(30_000, Math.floor(Math.min(config.requestTimeoutMs, config.headersTimeoutMs) / 4)));

export interface BuildOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp({ config, database, logger }: BuildOptions) {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers["x-csrf-token"]'] },
    bodyLimit: config.bodyLimit,
    genReqId: () => randomUUID(),
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    return503OnClosing: true,
    frameworkErrors,
    // Slow clients cannot hold the process: a request (headers) must arrive within these times.
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: connectionsCheckingInterval(config) },
  }).withTypeProvider<ZodTypeProvider>();
  app.server.maxConnections = config.maxConnections;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const services = createServices(config, database, app.log);
  // Every process sends the outbox; their claims never overlap (modules/mail).
  app.addHook('onReady', async () => {
    services.mailWorker.start();
    services.slaAlerts.start();
    // A re-extraction of references a previous run left (or the migration asked for) goes on.
    services.referenceReextraction.resume();
    services.mailInPoller?.start();
  });
  app.addHook('onClose', async () => {
    await services.slaAlerts.stop();
    await services.mailInPoller?.stop();
    await services.mailWorker.stop();
    await services.referenceReextraction.stop();
    await services.audit.flushAnonymous().catch((err: unknown) => app.log.error({ err }, 'audit flush failed'));
    await services.limiter.close();
    services.mailer.close();
    await services.ticketsRepository.closeIndexSync();
  });

  // Once draining, answers close their keep-alive connections so close() need not wait for idle clients.
  let isDraining = false;
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (isDraining) void reply.header('connection', 'close');
    done(null, payload);
  });
  const startDraining = () => {
    isDraining = true;
  };

  await app.register(errorsPlugin);
  // Before every route (and before the web app's static files, which it leaves pre-compressed).
  await app.register(compressionPlugin);
  await app.register(securityHeadersPlugin, { servedOverHttps: config.servedOverHttps });
  await app.register(docsPlugin);
  await app.register(accessPlugin, { services });
  if (config.metricsToken) {
    await app.register(metricsPlugin, {
      token: config.metricsToken,
      poolStats: database.poolStats,
      openStreams: () => services.notifications.openStreams,
      listAnswerCounts: services.listAnswerCounts,
      mailOutbox: () => services.mailOutbox.countByStatus(),
      onReextractionStep: (listener) => void services.referenceReextraction.onStep(listener),
    });
  }

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { services });
      await api.register(authRoutes, { services });
      await api.register(passwordResetRoutes, { services });
      await api.register(permissionsRoutes, { services });
      await api.register(catalogRoutes, { services });
      await api.register(groupsRoutes, { services });
      await api.register(queuesRoutes, { services });
      await api.register(kanbanRoutes, { services });
      await api.register(notificationsRoutes, { services });
      await api.register(ticketsRoutes, { services });
      await api.register(ticketImportRoutes, { services });
      await api.register(ticketLinksRoutes, { services });
      await api.register(savedViewsRoutes, { services });
      await api.register(referencesRoutes, { services });
      await api.register(activitiesRoutes, { services });
      await api.register(workloadRoutes, { services });
      await api.register(profileRoutes, { services });
      await api.register(notificationPreferencesRoutes, { services });
      await api.register(mailOutboxRoutes, { services });
      await api.register(attachmentsRoutes, { services });
      await api.register(exampleRoutes);
      await api.register(auditRoutes, { services });
      await api.register(reportsRoutes, { services });
    },
    { prefix: '/api' },
  );

  await app.register(webPlugin, { dist: config.webDist ?? defaultWebDist, csrf: services.csrf });

  return { app, services, startDraining };
}
