import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { createCsrf } from './lib/csrf.ts';
import { createAuditRepository } from './modules/audit/audit.repository.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createRevokedTokensRepository } from './modules/auth/revoked-tokens.repository.ts';
import { createTokenService } from './modules/auth/tokens.ts';
import { createCatalogService } from './modules/catalogs/catalog.service.ts';
import { createNotificationsRepository } from './modules/notifications/notifications.repository.ts';
import { createPermissionsRepository } from './modules/permissions/permissions.repository.ts';
import { createUsersRepository } from './modules/users/users.repository.ts';

/** The composition root: every repository and service, wired by their dependencies. */
export function createServices(config: Config, database: Database) {
  const audit = createAuditRepository(database);
  const users = createUsersRepository(database);
  const revokedTokens = createRevokedTokensRepository(database);
  const tokens = createTokenService(config.jwtSecret, config.tokenTtlMinutes);
  const permissions = createPermissionsRepository(database);
  const csrf = createCsrf(config.jwtSecret);
  const auth = createAuthService({ users, tokens, revokedTokens, audit });
  const catalogs = createCatalogService(database);
  const notifications = createNotificationsRepository(database);
  return { config, database, audit, users, revokedTokens, tokens, permissions, csrf, auth, catalogs, notifications };
}
export type Services = ReturnType<typeof createServices>;
