import argon2 from 'argon2';

/** OWASP's argon2id profile: 19 MiB, 2 iterations, 1 lane. */
const options = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (plain: string) => argon2.hash(plain, options);

export async function verifyPassword(hash: string, plain: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, plain);
  } catch {
    return false;
  }
}

/** Verified against when the user does not exist, so both paths take the same time. */
let dummyHash: Promise<string> | undefined;
export function burnPasswordCheck(plain: string): Promise<boolean> {
  dummyHash ??= hashPassword('not-a-real-password-used-for-timing');
  return dummyHash.then((h) => verifyPassword(h, plain)).then(() => false);
}
