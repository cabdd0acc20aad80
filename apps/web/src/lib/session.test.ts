import { afterEach, describe, expect, it, vi } from 'vitest';

const tokenExpiringIn = (seconds: number) =>
  `x.${btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + seconds }))}.y`;
const user = { id: 1, name: 'Ana', last_name: 'Admin', second_last_name: null, username: 'admin', role_id: 1 };

/** The session module as the app loads it, with what the browser had stored. */
async function loadWith(token: string) {
  window.localStorage.setItem('token', token);
  window.localStorage.setItem('user', JSON.stringify(user));
  vi.resetModules();
  return import('./session.ts');
}

describe('the stored session when the app loads', () => {
  afterEach(() => {
    window.localStorage.clear();
    window.sessionStorage.clear();
  });

  it('ends a session whose token expired while the portal was closed, so /login says it expired', async () => {
    const session = await loadWith(tokenExpiringIn(-60));
    expect(session.getSession()).toBeNull();
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(session.sessionEndReason()).toBe('expired');
  });

  it('keeps a live one', async () => {
    const token = tokenExpiringIn(3600);
    const session = await loadWith(token);
    expect(session.getSession()?.token).toBe(token);
    expect(session.sessionEndReason()).toBeNull();
  });
});
