import { afterEach, describe, expect, it } from 'vitest';
import { createHotkeyReader, isModalOpen, isTypingTarget, SEQUENCE_TIMEOUT_MS, type KeyPress } from './hotkeys.ts';

const press = (key: string, extra: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  isBusy: false,
  ...extra,
});

describe('createHotkeyReader', () => {
  it('reads g t and g g as two-key sequences, n and / as single keys', () => {
    const read = createHotkeyReader();
    expect(read(press('g'), 0)).toBe('pending');
    expect(read(press('t'), 300)).toBe('go-tickets');
    expect(read(press('g'), 1000)).toBe('pending');
    expect(read(press('g'), 1200)).toBe('go-general-tickets');
    expect(read(press('n'), 2000)).toBe('new-ticket');
    expect(read(press('/'), 2100)).toBe('focus-search');
    expect(read(press('t'), 2200)).toBeNull();
  });

  it('forgets a g after the timeout or another key', () => {
    const read = createHotkeyReader();
    read(press('g'), 0);
    expect(read(press('t'), SEQUENCE_TIMEOUT_MS + 1)).toBeNull();
    read(press('g'), 5000);
    read(press('x'), 5100);
    expect(read(press('t'), 5200)).toBeNull();
  });

  it('opens the palette with Ctrl+K or ⌘K even while typing or in a modal', () => {
    const read = createHotkeyReader();
    expect(read(press('k', { ctrlKey: true, isBusy: true }), 0)).toBe('toggle-palette');
    expect(read(press('K', { metaKey: true }), 10)).toBe('toggle-palette');
    expect(read(press('k', { ctrlKey: true, altKey: true }), 20)).toBeNull();
    expect(read(press('k'), 30)).toBeNull();
  });

  it('ignores the other shortcuts while busy or with a modifier', () => {
    const read = createHotkeyReader();
    expect(read(press('n', { isBusy: true }), 0)).toBeNull();
    expect(read(press('/', { isBusy: true }), 10)).toBeNull();
    expect(read(press('g', { isBusy: true }), 20)).toBeNull();
    expect(read(press('t'), 30)).toBeNull();
    expect(read(press('n', { ctrlKey: true }), 40)).toBeNull();
    expect(read(press('g'), 50)).toBe('pending');
    expect(read(press('t', { isBusy: true }), 60)).toBeNull();
  });
});

describe('where keys are text', () => {
  afterEach(() => document.body.replaceChildren());

  it('treats inputs, textareas, selects and editable elements as typing', () => {
    const editable = document.createElement('div');
    editable.contentEditable = 'true';
    document.body.append(editable);
    // jsdom does not compute isContentEditable.
    Object.defineProperty(editable, 'isContentEditable', { value: true });
    for (const el of [document.createElement('input'), document.createElement('textarea'), editable]) {
      expect(isTypingTarget(el)).toBe(true);
    }
    expect(isTypingTarget(document.createElement('button'))).toBe(false);
    expect(isTypingTarget(document.body)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });

  it('sees an open modal dialog', () => {
    expect(isModalOpen(document)).toBe(false);
    const dialog = document.createElement('section');
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-modal', 'true');
    document.body.append(dialog);
    expect(isModalOpen(document)).toBe(true);
  });
});
