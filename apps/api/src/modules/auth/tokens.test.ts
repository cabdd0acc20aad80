import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService } from './tokens.ts';

const SECRET = 'a-test-secret-of-enough-length-for-hs256';

describe('access tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('verifies a token it issued, again and again', async () => {
    const tokens = createTokenService(SECRET, 5);
    const { token, claims } = await tokens.issue(7);
    expect(await tokens.verify(token)).toEqual(claims);
    expect(await tokens.verify(token)).toEqual(claims);
  });

  it('refuses a token signed with another key, tampered with, or of another algorithm', async () => {
    const tokens = createTokenService(SECRET, 5);
    const other = createTokenService(`${SECRET}-other`, 5);
    const { token } = await other.issue(7);
    await expect(tokens.verify(token)).rejects.toThrow('bad signature');
    const mine = (await tokens.issue(7)).token;
    await tokens.verify(mine); // now remembered as verified
    const [header, payload, signature] = mine.split('.') as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ sub: '1', jti: 'x', iat: 1, exp: 9e9 })).toString('base64url');
    await expect(tokens.verify(`${header}.${forged}.${signature}`)).rejects.toThrow('bad signature');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    await expect(tokens.verify(`${none}.${payload}.`)).rejects.toThrow();
  });

  it('refuses a remembered token once it has expired', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const tokens = createTokenService(SECRET, 1);
    const { token } = await tokens.issue(7);
    await tokens.verify(token);
    vi.setSystemTime(new Date('2026-01-01T00:01:01Z'));
    await expect(tokens.verify(token)).rejects.toThrow('expired');
    await expect(tokens.verify(token)).rejects.toThrow('expired');
  });
});
