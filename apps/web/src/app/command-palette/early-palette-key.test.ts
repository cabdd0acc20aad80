import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, startSession } from '@/lib/session.ts';
import { handOverEarlyPaletteShortcut, listenForEarlyPaletteShortcut } from './early-palette-key.ts';

const liveToken = () => `x.${btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600 }))}.y`;
const user = { id: 1, name: 'Ana', last_name: 'Admin', second_last_name: null, username: 'admin', role_id: 1 };
const press = (init: KeyboardEventInit) => {
  const event = new KeyboardEvent('keydown', { cancelable: true, ...init });
  window.dispatchEvent(event);
  return event;
};

describe('the palette shortcut pressed before the layout listens', () => {
  afterEach(() => {
    handOverEarlyPaletteShortcut(() => undefined);
    clearSession();
  });

  it('is kept, signed in, and opens the palette once the layout takes over', () => {
    startSession(liveToken(), user as never);
    listenForEarlyPaletteShortcut();
    expect(press({ key: 'k', ctrlKey: true }).defaultPrevented).toBe(true);
    const open = vi.fn();
    handOverEarlyPaletteShortcut(open);
    expect(open).toHaveBeenCalledTimes(1);

    // Handed over: the early listener is gone.
    press({ key: 'k', metaKey: true });
    handOverEarlyPaletteShortcut(open);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('is ignored without a session, and other keys are never kept', () => {
    listenForEarlyPaletteShortcut();
    expect(press({ key: 'k', ctrlKey: true }).defaultPrevented).toBe(false);
    startSession(liveToken(), user as never);
    press({ key: 'k' });
    press({ key: 'k', ctrlKey: true, altKey: true });
    const open = vi.fn();
    handOverEarlyPaletteShortcut(open);
    expect(open).not.toHaveBeenCalled();
  });
});
