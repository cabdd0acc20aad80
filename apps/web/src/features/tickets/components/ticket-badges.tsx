import { Badge } from '@mantine/core';
import type { TicketStage } from '@portal/contract';

const priorityColors: Record<string, string> = { baja: 'gray', media: 'blue', alta: 'orange', urgente: 'red' };
const stageColors: Record<TicketStage, string> = { open: 'blue', started: 'yellow', closed: 'teal' };

export function PriorityBadge({ name }: { name: string }) {
  return (
    <Badge
      color={priorityColors[name.toLowerCase()] ?? 'gray'}
      variant="light"
      radius="sm"
      tt="none"
      style={{ flexShrink: 0 }}
    >
      {name}
    </Badge>
  );
}

/** A ticket status, coloured by its stage (open, started, closed). */
export function TicketStatusBadge({ name, stage }: { name: string; stage: TicketStage }) {
  return (
    <Badge
      color={stageColors[stage]}
      variant="dot"
      radius="sm"
      tt="none"
      style={{ flexShrink: 0, overflow: 'visible' }}
    >
      {name}
    </Badge>
  );
}

const dateFormat = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeStyle: 'short' });

/** Spanish date and time (DESIGN.md: es locale). */
export const formatDateTime = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
};
