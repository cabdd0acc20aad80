import { SECTIONS } from '@portal/contract';
import path from 'node:path';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { createCsrf } from './lib/csrf.ts';
import { createMailer, type MailLog } from './lib/mailer.ts';
import { createRateLimitStore, createRateLimiter } from './lib/rate-limiter.ts';
import { createAttachmentsRepository } from './modules/attachments/attachments.repository.ts';
import { createAttachmentsService } from './modules/attachments/attachments.service.ts';
import { createAuditLogReader, createAuditRepository } from './modules/audit/audit.repository.ts';
import { createAuditLogService } from './modules/audit/audit.service.ts';
import { auditCatalogWrites } from './modules/audit/catalog-writes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createRevokedTokensRepository } from './modules/auth/revoked-tokens.repository.ts';
import { createSessionChecker } from './modules/auth/sessions.ts';
import { createTokenService } from './modules/auth/tokens.ts';
import { createCatalogService } from './modules/catalogs/catalog.service.ts';
import type { AnswerCounts } from './lib/answer-cache.ts';
import { createPasswordResetRepository } from './modules/password-reset/password-reset.repository.ts';
import { createPasswordResetService } from './modules/password-reset/password-reset.service.ts';
import { createNotificationBus } from './modules/notifications/notifications.bus.ts';
import { createNotificationsService } from './modules/notifications/notifications.service.ts';
import { createPermissionsRepository } from './modules/permissions/permissions.repository.ts';
import { createUsersRepository } from './modules/users/users.repository.ts';
import { createActivitiesRepository } from './modules/activities/activities.repository.ts';
import { createActivitiesService } from './modules/activities/activities.service.ts';
import { createAvatarStore } from './modules/profile/avatars.ts';
import { createProfileRepository } from './modules/profile/profile.repository.ts';
import { createProfileService } from './modules/profile/profile.service.ts';
import { createTicketEventsRepository } from './modules/tickets/ticket-events.repository.ts';
import { createTicketNamesRepository } from './modules/tickets/ticket-names.repository.ts';
import { createTicketsRepository } from './modules/tickets/tickets.repository.ts';
import { createTicketLinksRepository } from './modules/ticket-links/ticket-links.repository.ts';
import { createTicketLinksService } from './modules/ticket-links/ticket-links.service.ts';
import { createTicketsService } from './modules/tickets/tickets.service.ts';
import { createWorkloadRepository } from './modules/workload/workload.repository.ts';
import { createWorkloadService } from './modules/workload/workload.service.ts';

const silentLog: MailLog = { info() {}, warn() {}, error() {} };

/** The composition root: every repository and service, wired by their dependencies. */
export function createServices(config: Config, database: Database, log: MailLog = silentLog) {
  const audit = createAuditRepository(database);
  const users = createUsersRepository(database);
  // One bus per process: live notifications and the invalidation of in-memory sessions and grants.
  const bus = createNotificationBus(database, config.databaseUrl);
  const revokedTokens = createRevokedTokensRepository(database, bus);
  const tokens = createTokenService(config.jwtSecret, config.tokenTtlMinutes);
  const sessions = createSessionChecker({ users, revokedTokens, bus });
  const permissions = createPermissionsRepository(database, bus);
  const csrf = createCsrf(config.jwtSecret);
  const limiter = createRateLimiter(
    createRateLimitStore(config.redisUrl, (err) => log.error({ err }, 'rate-limit store unavailable')),
    { onError: (err) => log.error({ err }, 'rate-limit store failed: attempt let through') },
  );
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    log,
  });
  const auth = createAuthService({ users, tokens, revokedTokens, audit, limiter });
  const passwordReset = createPasswordResetService({
    repository: createPasswordResetRepository(database),
    audit,
    limiter,
    mailer,
    log,
    secret: config.jwtSecret,
  });
  // Answers of the kept lists, by where they came from (read by the metrics).
  const listAnswerCounts: Record<'catalogs', AnswerCounts> = { catalogs: { kept: 0, database: 0 } };
  const catalogs = createCatalogService(database, {
    bus,
    answerCounts: listAnswerCounts.catalogs,
    onPermissionsChange: () => permissions.invalidate(),
    onWrite: auditCatalogWrites(audit),
  });
  const notifications = createNotificationsService({
    database,
    bus,
    secret: config.jwtSecret,
    sessions,
    audit,
    seesAllTickets: async (userId) => {
      const user = await users.findById(userId);
      return user !== undefined && (await permissions.hasFlag(user.role_id, SECTIONS.generalTickets, 'r'));
    },
  });
  const ticketsRepository = createTicketsRepository(database, createTicketNamesRepository(database, bus));
  const ticketEvents = createTicketEventsRepository(database);
  const ticketLinksRepository = createTicketLinksRepository(database);
  const tickets = createTicketsService({
    database,
    tickets: ticketsRepository,
    events: ticketEvents,
    permissions,
    notifications,
    audit,
    links: ticketLinksRepository,
  });
  const ticketLinks = createTicketLinksService({
    database,
    links: ticketLinksRepository,
    tickets: ticketsRepository,
    ticketsService: tickets,
    events: ticketEvents,
    notifications,
  });
  const activities = createActivitiesService({
    database,
    activities: createActivitiesRepository(database),
    tickets: ticketsRepository,
    events: ticketEvents,
    notifications,
  });
  const attachments = createAttachmentsService({
    database,
    attachments: createAttachmentsRepository(database),
    tickets: ticketsRepository,
    permissions,
    maxBytes: config.attachmentMaxBytes,
  });
  const workload = createWorkloadService({ workload: createWorkloadRepository(database) });
  const auditLog = createAuditLogService({ reader: createAuditLogReader(database) });
  const avatars = createAvatarStore(config.dataDir);
  const profile = createProfileService({
    profile: createProfileRepository(database),
    users,
    permissions,
    catalogs,
    tokens,
    audit,
    avatars,
  });
  return {
    config,
    database,
    bus,
    audit,
    auditLog,
    users,
    revokedTokens,
    tokens,
    sessions,
    permissions,
    csrf,
    auth,
    catalogs,
    notifications,
    limiter,
    mailer,
    passwordReset,
    tickets,
    ticketLinks,
    ticketsRepository,
    activities,
    attachments,
    workload,
    avatars,
    profile,
    listAnswerCounts,
  };
}
export type Services = ReturnType<typeof createServices>;
