import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Stateless anti-forgery tokens: a random nonce and its HMAC under a server secret. */
export function createCsrf(secret: string) {
  const key = createHmac('sha256', secret).update('csrf-token-key').digest();
  const sign = (nonce: string) => createHmac('sha256', key).update(nonce).digest('base64url');
  return {
    issue(): string {
      const nonce = randomBytes(18).toString('base64url');
      return `${nonce}.${sign(nonce)}`;
    },
    verify(token: string | undefined): boolean {
      if (typeof token !== 'string' || token.length > 200) return false;
      const [nonce, signature, ...rest] = token.split('.');
      if (!nonce || !signature || rest.length > 0) return false;
      const expected = Buffer.from(sign(nonce));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}
export type Csrf = ReturnType<typeof createCsrf>;
