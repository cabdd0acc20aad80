import { Badge } from '@mantine/core';
import { readableBadgeText } from '@/components/ui/status-badge.tsx';

const priorityColors: Record<string, string> = { baja: 'gray', media: 'blue', alta: 'orange', urgente: 'red' };

export function PriorityBadge({ name }: { name: string }) {
  const color = priorityColors[name.toLowerCase()] ?? 'gray';
  return (
    <Badge
      color={color}
      variant="light"
      radius="sm"
      tt="none"
      c={readableBadgeText(color)}
      style={{ minWidth: 'max-content' }}
    >
      {name}
    </Badge>
  );
}

const timeFormat = new Intl.DateTimeFormat('es-MX', { timeStyle: 'short' });
const dayFormat = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium' });

/** Spanish date and time (es locale); the time never breaks across lines ('2:18 p. m.'). */
export const formatDateTime = (iso: string) => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${dayFormat.format(date)}, ${timeFormat.format(date).replace(/\s/g, '\u00a0')}`;
};

/** Spanish date without the time, for narrow columns. */
export const formatDate = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dayFormat.format(date);
};
