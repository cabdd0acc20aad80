import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { asksForNewTicket } from '@/config/paths.ts';
import { notifyWarning } from '@/lib/notify.ts';

/**
 * Whether the command palette or the `n` key asked this list for its new-ticket form
 * (history state), and how to forget the request once the form closes. A role without
 * the create flag gets a warning instead.
 */
export function useNewTicketRequest(canCreate: boolean) {
  const location = useLocation();
  const navigate = useNavigate();
  const isAsked = asksForNewTicket(location.state);
  const forget = () => void navigate({ search: location.search, hash: location.hash }, { replace: true, state: null });

  useEffect(() => {
    if (!isAsked || canCreate) return;
    notifyWarning('No puedes crear tickets', 'Tu rol no tiene permiso para crear tickets en esta lista.');
    void navigate({ search: location.search, hash: location.hash }, { replace: true, state: null });
  }, [isAsked, canCreate, navigate, location.search, location.hash]);

  return { isAsked: isAsked && canCreate, forget };
}
