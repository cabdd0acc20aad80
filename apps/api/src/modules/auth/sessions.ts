import { RECORD_STATUS } from '@portal/contract';
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

/**
 * The one rule of a session still in force, for requests and for live streams:
 * its token has not expired nor been revoked, was issued after the user's
 * sessions were last ended, and the user and their role are active.
 */
export function createSessionChecker({
  users,
  revokedTokens,
}: {
  users: UsersRepository;
  revokedTokens: RevokedTokensRepository;
}) {
  return {
    async activeUser(session: SessionRef): Promise<AuthUserRow | undefined> {
      if (session.exp * 1000 <= Date.now()) return undefined;
      const user = await users.findById(session.userId);
      const isInForce =
        user !== undefined &&
        user.status_id === RECORD_STATUS.active &&
        user.role_status_id === RECORD_STATUS.active &&
        session.iat * 1000 >= user.sessions_valid_after &&
        !(await revokedTokens.isRevoked(session.jti));
      return isInForce ? user : undefined;
    },
  };
}
export type SessionChecker = ReturnType<typeof createSessionChecker>;
