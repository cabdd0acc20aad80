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

/** The layout's listener takes over: `open` runs for a press seen before it, and the early listener stops. */
export function handOverEarlyPaletteShortcut(open: () => void): void {
  window.removeEventListener('keydown', remember);
  if (!isRequested) return;
  isRequested = false;
  open();
}
