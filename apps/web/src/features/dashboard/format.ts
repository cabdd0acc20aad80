/** Spanish (Mexico) formats of the dashboard's figures. */
const integer = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 1 });
const shortDay = new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const longDay = new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

export const formatCount = (n: number) => integer.format(n);

/** The share met of the outcomes, 0–100 with no decimals; null without any outcome. */
export const onTimeRate = (met: number, breached: number): number | null =>
  met + breached === 0 ? null : Math.round((met * 100) / (met + breached));
/** A rate as the dashboard reads it: '87 %'; '—' for none. */
export const formatRate = (rate: number | null) => (rate === null ? '—' : `${integer.format(rate)} %`);

const dateOf = (day: string) => new Date(`${day}T00:00:00Z`);
/** `2025-01-06` → '6 ene' */
export const formatShortDay = (day: string) => shortDay.format(dateOf(day)).replace('.', '');
/** `2025-01-06` → '6 de enero de 2025' */
export const formatLongDay = (day: string) => longDay.format(dateOf(day));

/** A duration in the unit that reads best: '45 min', '5,5 h', '3,2 días'; '—' for none. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 3_600) return `${integer.format(Math.round(seconds / 60))} min`;
  if (seconds < 86_400) return `${decimal.format(seconds / 3_600)} h`;
  const days = seconds / 86_400;
  return `${decimal.format(days)} ${days < 1.05 ? 'día' : 'días'}`;
}

/** A duration in hours with one decimal, for CSV files and chart values. */
export const hoursOf = (seconds: number | null) => (seconds === null ? null : Math.round(seconds / 360) / 10);

/** The local calendar day, `YYYY-MM-DD`. */
export function localDay(date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The first `limit` items and, when more remain, one more adding them up under 'Otros'. */
export function topWithOthers<T extends { name: string; count: number }>(
  items: T[],
  limit = 10,
): { name: string; count: number }[] {
  if (items.length <= limit) return items;
  const rest = items.slice(limit).reduce((sum, item) => sum + item.count, 0);
  return [...items.slice(0, limit), { name: 'Otros', count: rest }];
}
