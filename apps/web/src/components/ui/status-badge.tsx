import { Badge } from '@mantine/core';
import { recordStatusName, type TicketStage } from '@portal/contract';
import { IconCheck, IconX } from '@tabler/icons-react';

/** Light badges with their darkest text shade, for a 4.5:1 contrast. */
const colors: Record<string, [string, string]> = {
  Activo: ['var(--mantine-color-teal-0)', '#0b5e45'],
  Inactivo: ['var(--mantine-color-gray-1)', 'var(--mantine-color-gray-8)'],
  Desconocido: ['var(--mantine-color-yellow-0)', '#7a4d00'],
};

/**
 * Text colour for a light badge of `color` that keeps a 4.5:1 contrast in both schemes: the
 * darkest shade darkened further on the light tint (orange-9 alone gives 3.6:1), a light shade
 * on the dark one. Pass it as the badge's `c`.
 */
export const readableBadgeText = (color: string) =>
  `light-dark(color-mix(in srgb, var(--mantine-color-${color}-9), black 35%), var(--mantine-color-${color}-2))`;

/** 1 Activo, 2 Inactivo, anything else Desconocido. */
export function StatusBadge({ statusId }: { statusId: number }) {
  const name = recordStatusName(statusId);
  return (
    <Badge
      variant="light"
      radius="sm"
      style={{ '--badge-bg': colors[name]![0], '--badge-color': colors[name]![1] } as React.CSSProperties}
    >
      {name}
    </Badge>
  );
}

const stageColors: Record<TicketStage, string> = { open: 'blue', started: 'yellow', closed: 'teal' };

/** Closed statuses that mean the work was not done (Cancelado, Rechazado…): closed, but not green. */
const isClosedUndone = (name: string) =>
  /^(cancel|rechaz|anulad|descartad)/.test(
    name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase(),
  );

/** The colour of a ticket status: its stage's, and grey for a closed status whose work was not done. */
export const ticketStatusColor = (name: string, stage: TicketStage) =>
  stage === 'closed' && isClosedUndone(name) ? 'gray' : stageColors[stage];

/** A ticket status, coloured by its stage (open, started, closed; cancelled ones apart). */
export function TicketStatusBadge({ name, stage }: { name: string; stage: TicketStage }) {
  return (
    <Badge
      color={ticketStatusColor(name, stage)}
      variant="dot"
      radius="sm"
      tt="none"
      style={{ minWidth: 'max-content' }}
    >
      {name}
    </Badge>
  );
}

/** A permission flag (1 or '1' granted) shown as a check or a cross. */
export function FlagMark({ value }: { value: unknown }) {
  const isOn = value === 1 || value === '1' || value === true;
  return isOn ? (
    <IconCheck size={18} color="var(--mantine-color-teal-7)" aria-label="Sí" role="img" />
  ) : (
    <IconX size={18} color="var(--mantine-color-red-7)" aria-label="No" role="img" />
  );
}
