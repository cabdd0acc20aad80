import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

export interface TokenClaims {
  sub: string;
  jti: string;
  iat: number;
  exp: number;
}

/** The only accepted header: HS256. `alg: none`, RS/ES algorithms and anything else are refused. */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const MAX_TOKEN_LENGTH = 4096;
/** Tokens whose signature was checked, kept so a token's next request skips the HMAC and parsing. */
const MAX_VERIFIED = 10_000;

/**
 * HS256 JSON Web Tokens with node:crypto. The HMAC key is derived once and every
 * check is one HMAC over the header and payload (jose imported the key again on
 * every call, a good part of an authenticated request's cost).
 */
export function createTokenService(secret: string, ttlMinutes: number) {
  const key = Buffer.from(secret, 'utf8');
  const sign = (input: string) => createHmac('sha256', key).update(input).digest();
  // Keyed by the whole token, signature included: only a token already verified is found.
  const verified = new Map<string, TokenClaims>();

  return {
    async issue(userId: number): Promise<{ token: string; claims: TokenClaims }> {
      // Millisecond precision (NumericDate may be fractional) so a token issued right after
      // a user's sessions were ended is told apart from the ones ended.
      const iat = Date.now() / 1000;
      const exp = Math.floor(iat) + Math.round(ttlMinutes * 60);
      const claims: TokenClaims = { sub: String(userId), jti: randomUUID(), iat, exp };
      const payload = Buffer.from(JSON.stringify({ sub: claims.sub, jti: claims.jti, iat, exp })).toString('base64url');
      const input = `${HEADER}.${payload}`;
      return { token: `${input}.${sign(input).toString('base64url')}`, claims };
    },

    /** Throws on a bad signature, another algorithm (including none), or an expired token. */
    async verify(token: string): Promise<TokenClaims> {
      const known = verified.get(token);
      if (known) {
        if (known.exp > Date.now() / 1000) return known;
        verified.delete(token);
        throw new Error('expired');
      }
      const claims = checked(token);
      verified.set(token, claims);
      if (verified.size > MAX_VERIFIED) verified.delete(verified.keys().next().value!);
      return claims;
    },
  };

  function checked(token: string): TokenClaims {
    if (token.length > MAX_TOKEN_LENGTH) throw new Error('token too long');
    const parts = token.split('.');
    if (parts.length !== 3) throw new Error('malformed token');
    const [header, payload, signature] = parts as [string, string, string];
    const expected = sign(`${header}.${payload}`);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error('bad signature');
    // Signed with our key, so it was issued by us; the header is still checked (HS256 only).
    const head = parseJson(header);
    if (head?.alg !== 'HS256' || ('crit' in head && head.crit !== undefined)) throw new Error('bad algorithm');
    const claims = parseJson(payload);
    const { sub, jti, iat, exp, nbf } = claims ?? {};
    if (
      typeof sub !== 'string' ||
      !/^\d+$/.test(sub) ||
      typeof jti !== 'string' ||
      typeof iat !== 'number' ||
      typeof exp !== 'number'
    ) {
      throw new Error('incomplete claims');
    }
    const now = Date.now() / 1000;
    if (exp <= now) throw new Error('expired');
    if (typeof nbf === 'number' && nbf > now) throw new Error('not yet valid');
    return { sub, jti, iat, exp };
  }
}
export type TokenService = ReturnType<typeof createTokenService>;

function parseJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
