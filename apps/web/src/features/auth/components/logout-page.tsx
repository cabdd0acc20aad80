import { useEffect } from 'react';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { clearSession } from '@/lib/session.ts';
import { logout } from '../api/session-api.ts';

let pending: Promise<unknown> | null = null;

/** /logout: revokes the token and clears the session; the guard then shows /login. */
export default function LogoutPage() {
  useEffect(() => {
    // One call even when React runs the effect twice (StrictMode): a second one would meet a revoked token.
    pending ??= logout().finally(() => {
      pending = null;
      clearSession();
    });
  }, []);
  return <PageLoader fullScreen />;
}
