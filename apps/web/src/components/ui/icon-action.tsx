import { ActionIcon, Tooltip, type ActionIconProps } from '@mantine/core';
import { useRef, useState, type ReactNode } from 'react';

interface IconActionProps {
  /** The tooltip. */
  label: string;
  /** The accessible name, which says what the action applies to. */
  ariaLabel: string;
  icon: ReactNode;
  onClick: () => void;
  color?: string;
  variant?: ActionIconProps['variant'];
  size?: ActionIconProps['size'];
}

/**
 * An icon button of a table row, named by its tooltip. The tooltip (Mantine's, shown on
 * mouse hover like its default) is built the first time the pointer comes over the
 * button: a page of rows renders a few buttons each, and a tooltip per button made
 * up a good part of a list's first render on a slow phone.
 */
export function IconAction({ label, ariaLabel, icon, onClick, color, variant = 'subtle', size }: IconActionProps) {
  const button = useRef<HTMLButtonElement>(null);
  const [hint, setHint] = useState<'unbuilt' | 'shown' | 'hidden'>('unbuilt');
  return (
    <>
      <ActionIcon
        ref={button}
        variant={variant}
        color={color}
        size={size}
        aria-label={ariaLabel}
        onClick={onClick}
        onPointerEnter={(event) => {
          if (event.pointerType === 'mouse') setHint('shown');
        }}
        onPointerLeave={() => setHint((was) => (was === 'unbuilt' ? was : 'hidden'))}
      >
        {icon}
      </ActionIcon>
      {hint !== 'unbuilt' && <Tooltip label={label} target={button} opened={hint === 'shown'} />}
    </>
  );
}
