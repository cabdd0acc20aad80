import { hasLiveSession } from '@/lib/session.ts';
import { isPaletteShortcut } from './hotkeys.ts';

let isRequested = false;

function remember(event: KeyboardEvent) {
  if (event.defaultPrevented || !isPaletteShortcut(event) || !hasLiveSession()) return;
  // The browser's own Ctrl+K (its search box) would take the key otherwise.
  event.preventDefault();
  isRequested = true;
}

/**
 * The palette's keyboard listener belongs to the signed-in layout, whose code loads
 * and renders after the page (a deferred render): a Ctrl+K pressed as soon as the
 * address opens would be lost. The entry listens from the start and keeps that
 * press until the layout takes it.
 */
export function listenForEarlyPaletteShortcut(): void {
  window.addEventListener('keydown', remember);
}

/** For the layout's listener as it starts: whether the palette was asked for before it. Stops the early listener. */
export function takeEarlyPaletteRequest(): boolean {
  window.removeEventListener('keydown', remember);
  const wasRequested = isRequested;
  isRequested = false;
  return wasRequested;
}
