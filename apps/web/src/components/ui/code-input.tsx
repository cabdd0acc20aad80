import { PinInput } from '@mantine/core';
import { forwardRef, useImperativeHandle, useRef, type ClipboardEvent } from 'react';
import { useMedia } from '@/lib/use-media.ts';

export interface CodeInputHandle {
  /** Puts the cursor in box `index` (0-based). */
  focusBox(index: number): void;
}

interface CodeInputProps {
  value: string;
  onChange: (value: string) => void;
  /** 6 digits. */
  length: number;
  hasError?: boolean;
  autoFocus?: boolean;
  /** The id of the element that labels the boxes. */
  labelledBy: string;
}

/**
 * The code input: one digit per box, digits only, arrow keys and
 * backspace; a pasted text fills the boxes with its digits ("Tu código es: 123 456").
 */
export const CodeInput = forwardRef<CodeInputHandle, CodeInputProps>(function CodeInput(
  { value, onChange, length, hasError = false, autoFocus = false, labelledBy },
  ref,
) {
  const boxes = useRef<HTMLDivElement>(null);
  // Six 50 px boxes do not fit a 360 px phone inside the card.
  const isNarrow = useMedia('(max-width: 26em)');

  const focusBox = (index: number) =>
    boxes.current?.querySelectorAll<HTMLInputElement>('input:not([type=hidden])')[index]?.focus();
  useImperativeHandle(ref, () => ({ focusBox }));

  const paste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const digits = event.clipboardData.getData('text/plain').replace(/\D/g, '').slice(0, length);
    if (digits === '') return;
    onChange(digits);
    focusBox(Math.min(digits.length, length - 1));
  };

  return (
    <PinInput
      rootRef={boxes}
      length={length}
      type="number"
      oneTimeCode
      autoFocus={autoFocus}
      size={isNarrow ? 'md' : 'lg'}
      gap={isNarrow ? 6 : 'sm'}
      value={value}
      onChange={onChange}
      error={hasError}
      aria-labelledby={labelledBy}
      getInputProps={(index) => ({
        'aria-label': `Dígito ${index + 1} de ${length}`,
        onPaste: paste,
      })}
    />
  );
});
