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
import { createReferenceReextraction } from './modules/references/reference-reextraction.ts';
import { createReferencesRepository } from './modules/references/references.repository.ts';
import { createReferencesService, needsReextraction } from './modules/references/references.service.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createRevokedTokensRepository } from './modules/auth/revoked-tokens.repository.ts';
import { createSessionChecker } from './modules/auth/sessions.ts';
import { createTokenService } from './modules/auth/tokens.ts';
import { createCatalogService } from './modules/catalogs/catalog.service.ts';
import { createGroupsRepository } from './modules/groups/groups.repository.ts';
import { createGroupsService } from './modules/groups/groups.service.ts';
import { createAutoAssigner } from './modules/groups/auto-assign.ts';
import { createTicketRouter } from './modules/groups/routing.ts';
import { createQueuesService } from './modules/groups/queues.service.ts';
import { createKanbanRepository } from './modules/kanban/kanban.repository.ts';
import { createKanbanService } from './modules/kanban/kanban.service.ts';
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
import { createTicketImporter } from './modules/ticket-import/ticket-import.ts';
import { createTicketEventsRepository } from './modules/tickets/ticket-events.repository.ts';
import { createTicketNamesRepository } from './modules/tickets/ticket-names.repository.ts';
import { createTicketsRepository } from './modules/tickets/tickets.repository.ts';
import { createTicketLinksRepository } from './modules/ticket-links/ticket-links.repository.ts';
import { createTicketLinksService } from './modules/ticket-links/ticket-links.service.ts';
import { createTicketsService } from './modules/tickets/tickets.service.ts';
import { createSavedViewsRepository } from './modules/saved-views/saved-views.repository.ts';
import { createSavedViewsService } from './modules/saved-views/saved-views.service.ts';
import { createSlaRepository } from './modules/sla/sla.repository.ts';
import { createSlaAlertSweep } from './modules/sla/sla-alerts.ts';
import { createMailInPoller } from './modules/mail/mail-in.poller.ts';
import { createMailInRepository } from './modules/mail/mail-in.repository.ts';
import { createMailInService } from './modules/mail/mail-in.service.ts';
import { createMailNotifier } from './modules/mail/mail-notifier.ts';
import { createMailOutboxRepository } from './modules/mail/mail-outbox.repository.ts';
import { createMailOutboxWorker } from './modules/mail/mail-outbox.worker.ts';
import { createTicketMail } from './modules/mail/ticket-mail.ts';
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
  const references = createReferencesRepository(database, bus);
  const referenceReextraction = createReferenceReextraction(database);
  const auditWrite = auditCatalogWrites(audit);
  const catalogs = createCatalogService(database, {
    bus,
    answerCounts: listAnswerCounts.catalogs,
    onPermissionsChange: () => permissions.invalidate(),
    onWrite: async (write) => {
      await auditWrite(write);
      // A group now assigning automatically, or with a higher cap, hands out what waits in its queue.
      if (write.resource === 'groups') await autoAssign.drain(Number(write.after.id));
      // A new reference type, or a changed pattern or status: every ticket is extracted again, in the background.
      if (write.resource === 'reference-types' && needsReextraction(write)) {
        await referenceReextraction.start(Number(write.after.id));
      }
    },
  });
  // E-mail notifications: written to the outbox with their event, sent by this process's worker.
  const mailOutbox = createMailOutboxRepository(database);
  const ticketMail = createTicketMail({
    publicUrl: config.publicUrl,
    from: config.mailFrom,
    replyAddress: config.mailReplyAddress,
    secret: config.jwtSecret,
  });
  const mailNotifier = createMailNotifier({ outbox: mailOutbox, ticketMail });
  const mailWorker = createMailOutboxWorker({
    outbox: mailOutbox,
    mailer,
    log,
    composeDigest: ticketMail.composeDigest,
    composeRequested: mailNotifier.fromRequests,
    pollMs: config.mailPollMs,
    retryBaseMs: config.mailRetryBaseMs,
  });
  mailNotifier.onCommitted(() => mailWorker.wake());
  const notifications = createNotificationsService({
    mail: mailNotifier,
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
  const groupsRepository = createGroupsRepository(database);
  const ticketsRepository = createTicketsRepository(database, createTicketNamesRepository(database, bus), references);
  const ticketEvents = createTicketEventsRepository(database);
  const sla = createSlaRepository(database, bus);
  // The time SLA clocks and alerts read; tests set `clock.now` to move it.
  const clock = { now: (): number => Date.now() };
  // Every process sweeps; one at a time holds the round (modules/sla/sla-alerts.ts).
  const slaAlerts = createSlaAlertSweep({
    database,
    sla,
    notifications,
    now: () => clock.now(),
    intervalMs: config.slaSweepMs,
    log,
  });
  const ticketLinksRepository = createTicketLinksRepository(database);
  const autoAssign = createAutoAssigner({
    database,
    bus,
    groups: groupsRepository,
    tickets: ticketsRepository,
    events: ticketEvents,
    notifications,
    now: () => clock.now(),
  });
  const tickets = createTicketsService({
    database,
    sla,
    now: () => clock.now(),
    tickets: ticketsRepository,
    events: ticketEvents,
    permissions,
    notifications,
    audit,
    router: createTicketRouter(database, bus),
    teamOf: (groupId) => groupsRepository.memberIds(groupId),
    links: ticketLinksRepository,
    autoAssign,
    references,
  });
  const ticketLinks = createTicketLinksService({
    database,
    links: ticketLinksRepository,
    tickets: ticketsRepository,
    ticketsService: tickets,
    events: ticketEvents,
    notifications,
    references,
  });
  const referencesService = createReferencesService({
    references,
    tickets: ticketsRepository,
    ticketsService: tickets,
    permissions,
  });
  const activities = createActivitiesService({
    database,
    activities: createActivitiesRepository(database),
    tickets: ticketsRepository,
    events: ticketEvents,
    notifications,
    sla,
    now: () => clock.now(),
  });
  const attachments = createAttachmentsService({
    database,
    attachments: createAttachmentsRepository(database),
    tickets: ticketsRepository,
    permissions,
    maxBytes: config.attachmentMaxBytes,
  });
  // Mail in: replies and new tickets from MAIL_IN_URL's mailbox (nothing polls without it).
  const mailIn = createMailInRepository(database);
  const mailInService = createMailInService({
    database,
    users,
    tickets,
    activities,
    attachments,
    permissions,
    ticketMail,
    replyAddress: config.mailReplyAddress,
    log,
  });
  const mailInPoller = config.mailInUrl
    ? createMailInPoller({
        url: config.mailInUrl,
        service: mailInService,
        repository: mailIn,
        log,
        pollMs: config.mailInPollMs,
        maxBytes: config.mailInMaxBytes,
      })
    : undefined;
  const workload = createWorkloadService({
    workload: createWorkloadRepository(database),
    groups: groupsRepository,
    now: () => clock.now(),
  });
  const auditLog = createAuditLogService({ reader: createAuditLogReader(database) });
  const groups = createGroupsService({ groups: groupsRepository, audit, autoAssign, now: () => clock.now() });
  const queues = createQueuesService({
    database,
    groups: groupsRepository,
    tickets: ticketsRepository,
    events: ticketEvents,
    notifications,
    audit,
  });
  const savedViews = createSavedViewsService({
    views: createSavedViewsRepository(database),
    permissions,
    tickets,
  });
  const kanban = createKanbanService({
    kanban: createKanbanRepository(database, bus),
    tickets: ticketsRepository,
    permissions,
  });
  const avatars = createAvatarStore(config.dataDir);
  const profile = createProfileService({
    groups: groupsRepository,
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
    groups,
    queues,
    kanban,
    notifications,
    limiter,
    mailer,
    mailOutbox,
    mailWorker,
    mailIn,
    mailInService,
    mailInPoller,
    ticketMail,
    passwordReset,
    tickets,
    ticketLinks,
    savedViews,
    ticketsRepository,
    ticketImporter: createTicketImporter(database, config.databaseUrl ? undefined : config.sqliteFile, {
      extract: (texts) => references.extract(texts),
    }),
    references,
    referencesService,
    referenceReextraction,
    activities,
    attachments,
    workload,
    avatars,
    profile,
    listAnswerCounts,
    clock,
    sla,
    slaAlerts,
  };
}
export type Services = ReturnType<typeof createServices>;
