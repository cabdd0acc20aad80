import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { homePath, paths } from '@/config/paths.ts';
import { clearSession, hasLiveSession, useSession } from '@/lib/session.ts';

export interface LoginRedirectState {
  from?: string;
}

/** /login and the like: a signed-in user goes to /tickets. */
export function GuestOnly() {
  const session = useSession();
  const location = useLocation();
  const isLive = hasLiveSession(session);
  useEffect(() => {
    if (session && !isLive) clearSession();
  }, [session, isLive]);
  if (isLive) {
    const from = (location.state as LoginRedirectState | null)?.from;
    return <Navigate to={from && from !== paths.logout ? from : homePath} replace />;
  }
  return <Outlet />;
}

/**
 * Signed-in screens: without a live session (missing or expired token) the browser goes to /login,
 * which says 'Tu sesión expiró' when there was a session whose token ran out.
 */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();
  const isLive = hasLiveSession(session);
  useEffect(() => {
    if (session && !isLive) clearSession('expired');
  }, [session, isLive]);
  if (!isLive) {
    const state: LoginRedirectState = { from: location.pathname + location.search };
    return <Navigate to={paths.login} replace state={state} />;
  }
  return <Outlet />;
}
