/** What a key press asks for; `pending` means a `g` waiting for its second key. */
export type HotkeyCommand = 'toggle-palette' | 'go-tickets' | 'go-general-tickets' | 'new-ticket' | 'focus-search';

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** The user is typing (an input, a textarea, an editable element) or a modal is open. */
  isBusy: boolean;
}

/** Apple systems name the modifier ⌘ (the palette opens with ⌘K there). */
export const isApplePlatform = () => /Mac|iPhone|iPad/.test(navigator.userAgent);

/** How long a `g` waits for the key that completes `g t` or `g g`. */
export const SEQUENCE_TIMEOUT_MS = 1000;

/** True when keys typed at `target` are text, not commands. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** A modal dialog (a form, the palette itself) takes the keys while it is open. */
export const isModalOpen = (doc: Document) => doc.querySelector('[aria-modal="true"]') !== null;

/** Ctrl+K / ⌘K, the palette's shortcut. */
export const isPaletteShortcut = ({ key, ctrlKey, metaKey, altKey }: Omit<KeyPress, 'isBusy'>) =>
  (ctrlKey || metaKey) && !altKey && key.toLowerCase() === 'k';

/**
 * Reads key presses one at a time: Ctrl+K / ⌘K anywhere; `g t`, `g g`, `n` and `/` only
 * while the user is neither typing nor in a modal. Returns the command, `pending` after a
 * lone `g`, or null.
 */
export function createHotkeyReader(timeoutMs = SEQUENCE_TIMEOUT_MS) {
  let gPressedAt: number | null = null;
  return (press: KeyPress, now: number): HotkeyCommand | 'pending' | null => {
    if (isPaletteShortcut(press)) {
      gPressedAt = null;
      return 'toggle-palette';
    }
    const isSecondKey = gPressedAt !== null && now - gPressedAt <= timeoutMs;
    gPressedAt = null;
    if (press.isBusy || press.ctrlKey || press.metaKey || press.altKey) return null;
    if (isSecondKey && press.key === 't') return 'go-tickets';
    if (isSecondKey && press.key === 'g') return 'go-general-tickets';
    if (press.key === 'g') {
      gPressedAt = now;
      return 'pending';
    }
    if (press.key === 'n') return 'new-ticket';
    if (press.key === '/') return 'focus-search';
    return null;
  };
}
