import { Badge } from '@mantine/core';

const priorityColors: Record<string, string> = { baja: 'gray', media: 'blue', alta: 'orange', urgente: 'red' };

export function PriorityBadge({ name }: { name: string }) {
  return (
    <Badge
      color={priorityColors[name.toLowerCase()] ?? 'gray'}
      variant="light"
      radius="sm"
      tt="none"
      style={{ minWidth: 'max-content' }}
    >
      {name}
    </Badge>
  );
}

const dateFormat = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeStyle: 'short' });
const dayFormat = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium' });

/** Spanish date and time (DESIGN.md: es locale). */
export const formatDateTime = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
};

/** Spanish date without the time, for narrow columns. */
export const formatDate = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dayFormat.format(date);
};
