import { describe, expect, it } from 'vitest';
import { createCsrf } from './csrf.ts';

describe('csrf', () => {
  const csrf = createCsrf('a-secret-of-enough-length-for-tests-0123456789');

  it('accepts the tokens it issued', () => {
    expect(csrf.verify(csrf.issue())).toBe(true);
  });

  it('refuses missing, malformed, tampered and foreign tokens', () => {
    const token = csrf.issue();
    expect(csrf.verify(undefined)).toBe(false);
    expect(csrf.verify('')).toBe(false);
    expect(csrf.verify('abc')).toBe(false);
    expect(csrf.verify(`${token}.x`)).toBe(false);
    expect(csrf.verify(`x${token}`)).toBe(false);
    expect(createCsrf('another-secret-of-enough-length-0123456789').verify(token)).toBe(false);
  });
});
