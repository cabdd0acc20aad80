/** The `exp` claim (seconds since the epoch) of a JWT, or null when unreadable. */
export function tokenExpiry(token: string | null | undefined): number | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const claims: unknown = JSON.parse(atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=')));
    const exp = (claims as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp : null;
  } catch {
    return null;
  }
}

/** Whole seconds the token has left (0 or less when expired); null when it has no readable expiry. */
export function secondsLeft(token: string | null | undefined, now = Date.now()): number | null {
  const exp = tokenExpiry(token);
  return exp === null ? null : Math.floor(exp - now / 1000);
}
