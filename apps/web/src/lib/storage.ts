/** Browser storage keys: renaming one would lose what browsers already keep. */
export const storageKeys = {
  token: 'token',
  user: 'user',
  userId: 'userId',
  resetEmail: 'reset_email',
  resetToken: 'reset_token',
  processedNotificationIds: 'processedNotificationIds',
} as const;

/** Per-list page size, remembered locally. */
export const pageSizeKey = (list: string) => `perPage:${list}`;

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Private mode or a full quota: the value only lives for this page.
  }
}

export function removeStorage(...keys: string[]): void {
  for (const key of keys) {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // see writeStorage
    }
  }
}
