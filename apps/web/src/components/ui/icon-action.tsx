import { ActionIcon, Tooltip, type ActionIconProps } from '@mantine/core';
import type { ReactNode } from 'react';

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

/** An icon button of a table row, named by its tooltip. */
export function IconAction({ label, ariaLabel, icon, onClick, color, variant = 'subtle', size }: IconActionProps) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant={variant} color={color} size={size} aria-label={ariaLabel} onClick={onClick}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}
