import { MSG, type TLoginRequest, type TSessionUser } from '@portal/contract';
import { RECORD_STATUS } from '@portal/contract';
import { HttpError } from '../../lib/http-error.ts';
import type { AuditRepository } from '../audit/audit.repository.ts';
import type { AuthUserRow, UsersRepository } from '../users/users.repository.ts';
import { burnPasswordCheck, verifyPassword } from './passwords.ts';
import type { RevokedTokensRepository } from './revoked-tokens.repository.ts';
import type { TokenClaims, TokenService } from './tokens.ts';

interface Deps {
  users: UsersRepository;
  tokens: TokenService;
  revokedTokens: RevokedTokensRepository;
  audit: AuditRepository;
}

export function createAuthService({ users, tokens, revokedTokens, audit }: Deps) {
  return {
    async login(credentials: TLoginRequest, ip: string): Promise<{ user: TSessionUser; token: string }> {
      const user = await users.findByUsername(credentials.username);
      const isValid = user
        ? await verifyPassword(user.password_hash, credentials.password)
        : await burnPasswordCheck(credentials.password);
      const isActive = user?.status_id === RECORD_STATUS.active && user.role_status_id === RECORD_STATUS.active;
      if (!user || !isValid || !isActive) {
        await audit.record({
          event: 'login.failure',
          userId: user?.id ?? null,
          username: credentials.username,
          ip,
          detail: { reason: !user ? 'unknown_user' : !isValid ? 'bad_password' : 'inactive' },
        });
        throw new HttpError(401, MSG.loginFailed);
      }
      const { token } = await tokens.issue(user.id);
      await audit.record({ event: 'login.success', userId: user.id, username: user.username, ip });
      return { user: users.toSessionUser(user), token };
    },

    async logout(user: AuthUserRow, claims: TokenClaims, ip: string): Promise<void> {
      await revokedTokens.revoke(claims.jti, user.id, claims.exp);
      await audit.record({ event: 'logout', userId: user.id, username: user.username, ip });
    },

    /** Replaces the caller's token: the old one is revoked, a new one with a full lifetime returned. */
    async renew(user: AuthUserRow, claims: TokenClaims, ip: string): Promise<string> {
      const { token } = await tokens.issue(user.id);
      await revokedTokens.revoke(claims.jti, user.id, claims.exp);
      await audit.record({ event: 'token.renewed', userId: user.id, username: user.username, ip });
      return token;
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
