import { Badge } from '@mantine/core';
import { SLA_STATE_LABELS, type SlaState } from '@portal/contract';
import { readableBadgeText } from './status-badge.tsx';

const colors: Record<SlaState, string> = {
  none: 'gray',
  ok: 'teal',
  at_risk: 'orange',
  breached: 'red',
  met: 'blue',
  paused: 'gray',
};

/** `2 h 15 min`, `45 min`: business time, in hours and minutes. */
export function businessDuration(minutes: number): string {
  const [h, m] = [Math.floor(minutes / 60), minutes % 60];
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** What is left of a ticket's business time: `vence en 2 h 15 min hábiles`, `vencido hace 30 min hábiles`. */
export function businessTimeLeft(minutes: number): string {
  return minutes >= 0
    ? `vence en ${businessDuration(minutes)} hábiles`
    : `vencido hace ${businessDuration(-minutes)} hábiles`;
}

/** A ticket's SLA state (A tiempo, Por vencer, Vencido, Cumplido, En pausa), with the business time left when given. */
export function SlaBadge({ state, minutesLeft }: { state: SlaState; minutesLeft?: number | null }) {
  if (state === 'none') return null;
  const color = colors[state];
  const left = minutesLeft === null || minutesLeft === undefined ? '' : ` · ${businessTimeLeft(minutesLeft)}`;
  return (
    <Badge
      color={color}
      c={readableBadgeText(color)}
      variant="light"
      radius="sm"
      tt="none"
      style={{ minWidth: 'max-content' }}
      data-sla-state={state}
    >
      {SLA_STATE_LABELS[state]}
      {left}
    </Badge>
  );
}
