let fetched: Promise<string | null> | null = null;

/**
 * The anti-forgery token for PUT and PATCH: the `csrf-token` meta tag the API
 * injects into index.html, or (under `vite dev`, which has no such tag) one
 * fetched once from /api/csrf-token.
 */
export async function csrfToken(): Promise<string | null> {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content;
  if (meta) return meta;
  fetched ??= fetch('/api/csrf-token', { headers: { Accept: 'application/json' } })
    .then(async (res) => ((await res.json()) as { token?: string }).token ?? null)
    .catch(() => {
      fetched = null;
      return null;
    });
  return fetched;
}

/** Forgets a fetched token (after the server refused it). */
export function resetCsrfToken(): void {
  fetched = null;
}
