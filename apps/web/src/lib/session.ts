import type { TSessionUser } from '@portal/contract';
import { useSyncExternalStore } from 'react';
import { readStorage, removeStorage, storageKeys, writeStorage } from './storage.ts';
import { secondsLeft } from './token.ts';

export interface Session {
  token: string;
  user: TSessionUser;
}

const listeners = new Set<() => void>();
let current: Session | null = load();

function load(): Session | null {
  const token = readStorage(storageKeys.token);
  const rawUser = readStorage(storageKeys.user);
  if (!token || !rawUser) return null;
  try {
    const user = JSON.parse(rawUser) as TSessionUser;
    return typeof user?.id === 'number' && typeof user.role_id === 'number' ? { token, user } : null;
  } catch {
    return null;
  }
}

function emit() {
  for (const listener of listeners) listener();
}

export function getSession(): Session | null {
  return current;
}

export function getToken(): string | null {
  return current?.token ?? null;
}

/** Saves token, user and userId after a successful login. */
export function startSession(token: string, user: TSessionUser): void {
  writeStorage(storageKeys.token, token);
  writeStorage(storageKeys.user, JSON.stringify(user));
  writeStorage(storageKeys.userId, String(user.id));
  current = { token, user };
  emit();
}

export function replaceToken(token: string): void {
  if (!current) return;
  writeStorage(storageKeys.token, token);
  current = { ...current, token };
  emit();
}

const END_REASON_KEY = 'sessionEndReason';

/**
 * Removes token, user and userId; guards then send the browser to /login.
 * `'expired'` when the session ended on its own (expiry, a refused token), so
 * /login can say why; a sign-out passes nothing.
 */
export function clearSession(reason?: 'expired'): void {
  if (reason && current !== null) {
    try {
      window.sessionStorage.setItem(END_REASON_KEY, reason);
    } catch {
      // Storage unavailable: /login just says nothing.
    }
  }
  removeStorage(storageKeys.token, storageKeys.user, storageKeys.userId);
  if (current === null) return;
  current = null;
  emit();
}

/** Why the last session of this tab ended, when it ended on its own (read by /login). */
export function sessionEndReason(): 'expired' | null {
  try {
    return window.sessionStorage.getItem(END_REASON_KEY) === 'expired' ? 'expired' : null;
  } catch {
    return null;
  }
}

export function forgetSessionEndReason(): void {
  try {
    window.sessionStorage.removeItem(END_REASON_KEY);
  } catch {
    // see clearSession
  }
}

/** A session whose token has not expired (a token without a readable expiry counts as expired). */
export function hasLiveSession(session: Session | null = current): session is Session {
  const left = secondsLeft(session?.token);
  return left !== null && left > 0;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// A token that expired while the portal was closed ended the session on its own,
// as one the server refuses does: /login says so.
if (current && !hasLiveSession(current)) clearSession('expired');

// Another tab signing in or out changes this one too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key === storageKeys.token || event.key === storageKeys.user) {
      current = load();
      emit();
    }
  });
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

export const fullName = (user: Pick<TSessionUser, 'name' | 'last_name' | 'second_last_name'>) =>
  [user.name, user.last_name, user.second_last_name].filter(Boolean).join(' ');
