import { RECORD_STATUS } from '@portal/contract';
import { createLoadingCache } from '../../lib/loading-cache.ts';
import type { Invalidation, NotificationBus } from '../notifications/notifications.bus.ts';
import type { AuthUserRow, UsersRepository } from '../users/users.repository.ts';
import type { RevokedTokensRepository } from './revoked-tokens.repository.ts';

/** What identifies a session: its user and its access token's claims. */
export interface SessionRef {
  userId: number;
  jti: string;
  /** Issued-at and expiry of the access token, in unix seconds. */
  iat: number;
  exp: number;
}

/** Most users and tokens kept in memory; the least recently used go first. */
const MAX_USERS = 10_000;
const MAX_TOKENS = 100_000;

/**
 * The one rule of a session still in force, for requests and for live streams:
 * its token has not expired nor been revoked, was issued after the user's
 * sessions were last ended, and the user and their role are active.
 *
 * Every authenticated request asks this, so users' rows and whether a token is
 * revoked are kept in memory and forgotten on the bus's invalidations: at once
 * for writes of this process, and on PostgreSQL for writes of any process
 * through triggers and LISTEN/NOTIFY. While the bus cannot vouch for that
 * (`canCache`), every check reads the database.
 */
export function createSessionChecker({
  users,
  revokedTokens,
  bus,
}: {
  users: UsersRepository;
  revokedTokens: RevokedTokensRepository;
  bus: Pick<NotificationBus, 'onInvalidate' | 'canCache'>;
}) {
  const canCache = () => bus.canCache();
  const userRows = createLoadingCache<number, AuthUserRow | undefined>(MAX_USERS, canCache);
  const revoked = createLoadingCache<string, boolean>(MAX_TOKENS, canCache);

  bus.onInvalidate((invalidation: Invalidation) => {
    switch (invalidation.kind) {
      case 'user':
        userRows.delete(invalidation.userId);
        break;
      case 'token':
        revoked.delete(invalidation.jti);
        break;
      case 'users':
      case 'roles':
        userRows.clear();
        break;
      case 'grants':
      case 'catalogs':
        break;
      case 'all':
        userRows.clear();
        revoked.clear();
        break;
    }
  });

  return {
    async activeUser(session: SessionRef): Promise<AuthUserRow | undefined> {
      if (session.exp * 1000 <= Date.now()) return undefined;
      const user = await userRows.get(session.userId, () => users.findById(session.userId));
      const isInForce =
        user !== undefined &&
        user.status_id === RECORD_STATUS.active &&
        user.role_status_id === RECORD_STATUS.active &&
        session.iat * 1000 >= user.sessions_valid_after &&
        !(await revoked.get(session.jti, () => revokedTokens.isRevoked(session.jti)));
      return isInForce ? user : undefined;
    },
  };
}
export type SessionChecker = ReturnType<typeof createSessionChecker>;
