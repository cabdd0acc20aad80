import { describe, expect, it } from 'vitest';
import { secondsLeft, tokenExpiry } from './token.ts';

const encode = (claims: object) =>
  `eyJhbGciOiJIUzI1NiJ9.${btoa(JSON.stringify(claims)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.sig`;

describe('token expiry', () => {
  it('reads exp (with a fractional iat beside it)', () => {
    const token = encode({ sub: '1', iat: 1700000000.123, exp: 1700000036, jti: 'x' });
    expect(tokenExpiry(token)).toBe(1700000036);
    expect(secondsLeft(token, 1700000006_000)).toBe(30);
    expect(secondsLeft(token, 1700000040_000)).toBeLessThanOrEqual(0);
  });

  it('gives null for a missing or unreadable token', () => {
    expect(tokenExpiry(null)).toBeNull();
    expect(tokenExpiry('garbage')).toBeNull();
    expect(tokenExpiry('a.%%%.c')).toBeNull();
    expect(tokenExpiry(encode({ sub: '1' }))).toBeNull();
  });
});
