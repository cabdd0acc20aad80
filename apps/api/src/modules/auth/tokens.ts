import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export interface TokenClaims {
  sub: string;
  jti: string;
  iat: number;
  exp: number;
}

const ALGORITHM = 'HS256';

export function createTokenService(secret: string, ttlMinutes: number) {
  const key = new TextEncoder().encode(secret);
  return {
    async issue(userId: number): Promise<{ token: string; claims: TokenClaims }> {
      // Millisecond precision (NumericDate may be fractional) so a token issued right after
      // a user's sessions were ended is told apart from the ones ended.
      const iat = Date.now() / 1000;
      const exp = Math.floor(iat) + Math.round(ttlMinutes * 60);
      const claims: TokenClaims = { sub: String(userId), jti: randomUUID(), iat, exp };
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(claims.sub)
        .setJti(claims.jti)
        .setIssuedAt(claims.iat)
        .setExpirationTime(claims.exp)
        .sign(key);
      return { token, claims };
    },
    /** Throws on a bad signature, another algorithm (including none), or an expired token. */
    async verify(token: string): Promise<TokenClaims> {
      const { payload } = await jwtVerify(token, key, { algorithms: [ALGORITHM] });
      const { sub, jti, iat, exp } = payload;
      if (
        typeof sub !== 'string' ||
        !/^\d+$/.test(sub) ||
        typeof jti !== 'string' ||
        typeof iat !== 'number' ||
        typeof exp !== 'number'
      ) {
        throw new Error('incomplete claims');
      }
      return { sub, jti, iat, exp };
    },
  };
}
export type TokenService = ReturnType<typeof createTokenService>;
