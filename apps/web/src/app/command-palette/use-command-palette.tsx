import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useEffectEvent, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths, routeNameOf } from '@/config/paths.ts';
import { userPermissionsQuery } from '@/lib/permissions.ts';
import { useSession } from '@/lib/session.ts';
import { handOverEarlyPaletteShortcut } from './early-palette-key.ts';
import { createHotkeyReader, isModalOpen, isTypingTarget } from './hotkeys.ts';
import { goToNewTicket } from './new-ticket-list.ts';

// The palette (Spotlight, its CSS, the ticket search) is a chunk of its own, fetched on first use.
const loadPalette = () => import('./command-palette.tsx');
const CommandPalette = lazy(loadPalette);

/**
 * The signed-in shell's keyboard: Ctrl+K / ⌘K opens the command palette (loading it the
 * first time), `g t`, `g g`, `n` and `/` act on the screen. Returns `open` for a button and
 * the palette's element for the layout to render.
 */
export function useCommandPalette() {
  const session = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [isRequested, setRequested] = useState(false);
  const [isOpen, setOpen] = useState(false);
  // Held here so what is typed while the palette's chunk loads is not lost.
  const [query, setQuery] = useState('');

  const open = () => {
    setRequested(true);
    setOpen(true);
  };

  const openEarly = useEffectEvent(open);

  const onKey = useEffectEvent((event: KeyboardEvent, read: ReturnType<typeof createHotkeyReader>) => {
    if (event.defaultPrevented) return;
    const { key, ctrlKey, metaKey, altKey } = event;
    const isInPalette = event.target instanceof Element && event.target.closest('[data-palette-search]') !== null;
    if (isOpen && !isInPalette && !ctrlKey && !metaKey && !altKey) {
      if (key === 'Escape') setOpen(false);
      else if (key.length === 1 || key === 'Backspace') {
        event.preventDefault();
        setQuery((q) => (key === 'Backspace' ? q.slice(0, -1) : q + key));
        return;
      }
    }
    // Read from the cache (the sidebar asks for it) when a key is pressed: a subscription
    // would re-render the whole layout when the answer arrives.
    const permissions = session ? queryClient.getQueryData(userPermissionsQuery(session).queryKey) : undefined;
    const allowed: ReadonlySet<string> = new Set(permissions?.routes);
    const isBusy = isOpen || isTypingTarget(event.target) || isModalOpen(document);
    const command = read({ key, ctrlKey, metaKey, altKey, isBusy }, performance.now());
    const go = (path: string) => {
      if (!allowed.has(routeNameOf(path))) return;
      event.preventDefault();
      void navigate(path);
    };
    switch (command) {
      case 'toggle-palette':
        event.preventDefault();
        if (isOpen) setOpen(false);
        else open();
        return;
      case 'go-tickets':
        return go(paths.tickets);
      case 'go-general-tickets':
        return go(paths.generalTickets);
      case 'new-ticket':
        if (goToNewTicket(navigate, location, allowed)) event.preventDefault();
        return;
      case 'focus-search': {
        const search = document.querySelector<HTMLInputElement>('[data-list-search]');
        if (!search) return;
        event.preventDefault();
        search.focus();
        search.select();
      }
    }
  });

  useEffect(() => {
    const read = createHotkeyReader();
    const listener = (event: KeyboardEvent) => onKey(event, read);
    window.addEventListener('keydown', listener);
    handOverEarlyPaletteShortcut(openEarly);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const element = isRequested ? (
    <Suspense fallback={null}>
      <CommandPalette opened={isOpen} onClose={() => setOpen(false)} query={query} onQueryChange={setQuery} />
    </Suspense>
  ) : null;

  return { open, prefetch: () => void loadPalette(), element };
}
