import { readStorage, removeStorage, storageKeys, writeStorage } from '@/lib/storage.ts';

/** What the recovery screens hand to each other through browser storage. */
export const resetStorage = {
  email: () => readStorage(storageKeys.resetEmail),
  token: () => readStorage(storageKeys.resetToken),
  /** A new e-mail starts a new recovery: a token from an earlier one no longer applies. */
  startWith(email: string) {
    writeStorage(storageKeys.resetEmail, email);
    removeStorage(storageKeys.resetToken);
  },
  saveToken: (token: string) => writeStorage(storageKeys.resetToken, token),
  clear: () => removeStorage(storageKeys.resetEmail, storageKeys.resetToken),
};
