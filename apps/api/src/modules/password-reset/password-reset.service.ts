import { PASSWORD_RESET_MSG, RESET_CODE_LENGTH, RESET_CODE_TTL_MINUTES } from '@portal/contract';
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { HttpError } from '../../lib/http-error.ts';
import type { MailLog, Mailer } from '../../lib/mailer.ts';
import { RATE_LIMITS, tooManyAttempts, type RateLimitPolicy, type RateLimiter } from '../../lib/rate-limiter.ts';
import type { AuditRepository } from '../audit/audit.repository.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { passwordChangedMail, resetCodeMail } from './password-reset.mails.ts';
import type { PasswordResetRepository } from './password-reset.repository.ts';

/** Wrong tries a code survives; the fifth wrong one kills it. */
export const MAX_CODE_ATTEMPTS = 5;
const TTL_MS = RESET_CODE_TTL_MINUTES * 60_000;

interface Deps {
  repository: PasswordResetRepository;
  audit: AuditRepository;
  limiter: RateLimiter;
  mailer: Mailer;
  log: MailLog;
  /** Keys the hashes of codes and reset tokens, so a copy of the database alone cannot reverse them. */
  secret: string;
  now?: () => number;
}

export function createPasswordResetService({
  repository,
  audit,
  limiter,
  mailer,
  log,
  secret,
  now = () => Date.now(),
}: Deps) {
  const key = createHmac('sha256', secret).update('password-reset').digest();
  const digest = (purpose: 'code' | 'token', userId: number, value: string) =>
    createHmac('sha256', key).update(`${purpose}:${userId}:${value}`).digest('hex');
  const sameDigest = (a: string, b: string) =>
    a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  const iso = (ms: number) => new Date(ms).toISOString();

  /** Mail and its bookkeeping run after the answer, so the answer cannot tell a known address from an unknown one. */
  const pending = new Set<Promise<void>>();
  const inBackground = (what: string, task: () => Promise<void>) => {
    const run = Promise.resolve()
      .then(task)
      .catch((error: unknown) => log.error({ err: error }, `password reset: ${what} failed`))
      .finally(() => pending.delete(run));
    pending.add(run);
  };

  async function throttle(policy: RateLimitPolicy, subject: string, ip: string, event: string, email: string) {
    const { allowed, retryAfterMs } = await limiter.take(policy, subject);
    if (allowed) return;
    await audit.record({
      event,
      ip,
      detail: { email, limit: policy.name, retry_after_s: Math.ceil(retryAfterMs / 1000) },
    });
    throw tooManyAttempts(retryAfterMs);
  }

  async function deliverCode(email: string, ip: string) {
    const user = await repository.findActiveUserByEmail(email);
    if (!user) {
      await audit.record({ event: 'password_reset.unknown_email', ip, detail: { email } });
      return;
    }
    const code = String(randomInt(0, 10 ** RESET_CODE_LENGTH)).padStart(RESET_CODE_LENGTH, '0');
    const at = now();
    await repository.replaceCode(user.id, digest('code', user.id, code), iso(at + TTL_MS), iso(at));
    try {
      await mailer.send(resetCodeMail(user, code));
    } catch (error) {
      await audit.record({ event: 'password_reset.mail_failed', userId: user.id, username: user.username, ip });
      throw error;
    }
    await audit.record({ event: 'password_reset.code_sent', userId: user.id, username: user.username, ip });
  }

  return {
    /** Same answer, and the same work before answering, whether or not the address has an account. */
    async requestCode(email: string, ip: string): Promise<void> {
      await throttle(RATE_LIMITS.resetCodeAddress, ip, ip, 'password_reset.throttled', email);
      await throttle(RATE_LIMITS.resetCodeEmail, email, ip, 'password_reset.throttled', email);
      await audit.record({ event: 'password_reset.requested', ip, detail: { email } });
      inBackground('code delivery', () => deliverCode(email, ip));
    },

    /** Trades the e-mailed code for a single-use reset token. Every failure gives the same answer. */
    async verifyCode(email: string, code: string, ip: string): Promise<string> {
      await throttle(RATE_LIMITS.resetVerifyAddress, ip, ip, 'password_reset.verify_throttled', email);
      const user = await repository.findActiveUserByEmail(email);
      // An unknown address still costs a lookup and a hash, like a known one.
      const row = await repository.latestCode(user?.id ?? 0);
      const presented = digest('code', user?.id ?? 0, code);
      const fail = async (reason: string, extra: Record<string, unknown> = {}) => {
        await audit.record({
          event: 'password_reset.verify_failure',
          userId: user?.id ?? null,
          username: user?.username ?? null,
          ip,
          detail: { email, reason, ...extra },
        });
        return new HttpError(400, PASSWORD_RESET_MSG.invalidCode);
      };
      if (!user || !row) throw await fail(user ? 'no_code' : 'unknown_email');
      if (row.reset_token_hash !== null || row.used_at !== null) throw await fail('code_already_used');
      if (Date.parse(row.expires_at) <= now()) throw await fail('expired');
      const attempts = await repository.countAttempt(row.id, MAX_CODE_ATTEMPTS);
      if (attempts === undefined) throw await fail('too_many_attempts');
      if (!sameDigest(presented, row.code_hash)) {
        throw await fail('wrong_code', { attempts, dead: attempts >= MAX_CODE_ATTEMPTS });
      }
      const resetToken = randomBytes(32).toString('base64url');
      const isStored = await repository.storeResetToken(
        row.id,
        digest('token', user.id, resetToken),
        iso(now() + TTL_MS),
      );
      if (!isStored) throw await fail('code_already_used');
      await audit.record({ event: 'password_reset.code_verified', userId: user.id, username: user.username, ip });
      return resetToken;
    },

    /** Sets the new password, spends the token and ends every session of the user. */
    async resetPassword(
      input: { email: string; reset_token: string; password: string },
      ip: string,
    ): Promise<{ userId: number; username: string }> {
      await throttle(RATE_LIMITS.resetPasswordAddress, ip, ip, 'password_reset.reset_throttled', input.email);
      const user = await repository.findActiveUserByEmail(input.email);
      const row = await repository.findByResetToken(user?.id ?? 0, digest('token', user?.id ?? 0, input.reset_token));
      const fail = async (reason: string) => {
        await audit.record({
          event: 'password_reset.reset_failure',
          userId: user?.id ?? null,
          username: user?.username ?? null,
          ip,
          detail: { email: input.email, reason },
        });
        return new HttpError(400, PASSWORD_RESET_MSG.invalidResetToken);
      };
      if (!user || !row) throw await fail(user ? 'unknown_token' : 'unknown_email');
      if (row.used_at !== null) throw await fail('token_already_used');
      if (row.reset_expires_at === null || Date.parse(row.reset_expires_at) <= now()) throw await fail('expired');

      const passwordHash = await hashPassword(input.password);
      const at = now();
      const isDone = await repository.completeReset({
        codeId: row.id,
        userId: user.id,
        passwordHash,
        sessionsValidAfter: at,
        at: iso(at),
      });
      if (!isDone) throw await fail('token_already_used');
      // The owner proved control of the mailbox: whatever sign-in block an attacker caused ends here.
      await limiter.clear(RATE_LIMITS.loginAccount, user.username);
      await audit.record({ event: 'password_reset.completed', userId: user.id, username: user.username, ip });
      inBackground('password-changed notice', () => mailer.send(passwordChangedMail(user, { at: new Date(at), ip })));
      return { userId: user.id, username: user.username };
    },

    /** Resolves once every background delivery has finished (tests, shutdown). */
    async settle(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
