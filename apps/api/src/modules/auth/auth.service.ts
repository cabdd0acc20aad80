import { MSG, type TLoginRequest, type TSessionUser } from '@portal/contract';
import { RECORD_STATUS } from '@portal/contract';
import { HttpError } from '../../lib/http-error.ts';
import { RATE_LIMITS, tooManyAttempts, type RateLimiter } from '../../lib/rate-limiter.ts';
import type { AuditRepository } from '../audit/audit.repository.ts';
import type { AuthUserRow, UsersRepository } from '../users/users.repository.ts';
import { burnPasswordCheck, verifyPassword } from '../../lib/passwords.ts';
import type { RevokedTokensRepository } from './revoked-tokens.repository.ts';
import type { TokenClaims, TokenService } from './tokens.ts';

interface Deps {
  users: UsersRepository;
  tokens: TokenService;
  revokedTokens: RevokedTokensRepository;
  audit: AuditRepository;
  limiter: RateLimiter;
}

export function createAuthService({ users, tokens, revokedTokens, audit, limiter }: Deps) {
  /**
   * Counts the attempt against the address and the account before the password is
   * checked, so parallel guesses cannot slip past the limits (RATE_LIMITS in lib/rate-limiter.ts).
   */
  async function admit(username: string, ip: string): Promise<void> {
    const refuse = async (scope: 'address' | 'account', retryAfterMs: number) => {
      // What was typed is logged only when it names an account: it may be a password typed in the wrong field.
      const user = await users.findByUsername(username);
      await audit.record({
        event: 'login.throttled',
        userId: user?.id ?? null,
        username: user?.username ?? null,
        ip,
        detail: { scope, retry_after_s: Math.ceil(retryAfterMs / 1000) },
      });
      return tooManyAttempts(retryAfterMs);
    };
    const byAddress = await limiter.take(RATE_LIMITS.loginAddress, ip);
    if (!byAddress.allowed) throw await refuse('address', byAddress.retryAfterMs);
    const byAccount = await limiter.take(RATE_LIMITS.loginAccount, username);
    if (!byAccount.allowed) {
      await limiter.refund(RATE_LIMITS.loginAddress, ip);
      throw await refuse('account', byAccount.retryAfterMs);
    }
  }

  return {
    async login(credentials: TLoginRequest, ip: string): Promise<{ user: TSessionUser; token: string }> {
      await admit(credentials.username, ip);
      const user = await users.findByUsername(credentials.username);
      const isValid = user
        ? await verifyPassword(user.password_hash, credentials.password)
        : await burnPasswordCheck(credentials.password);
      const isActive = user?.status_id === RECORD_STATUS.active && user.role_status_id === RECORD_STATUS.active;
      if (!user || !isValid || !isActive) {
        await audit.record({
          event: 'login.failure',
          userId: user?.id ?? null,
          // Only an account's own name: what was typed may be a password typed in the wrong field.
          username: user?.username ?? null,
          ip,
          detail: { reason: !user ? 'unknown_user' : !isValid ? 'bad_password' : 'inactive' },
        });
        throw new HttpError(401, MSG.loginFailed);
      }
      // Only failures count: a success forgets the account's failures and gives the address its attempt back.
      await limiter.clear(RATE_LIMITS.loginAccount, credentials.username);
      await limiter.refund(RATE_LIMITS.loginAddress, ip);
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
