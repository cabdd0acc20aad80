import { MAX_SLA_TARGET_MINUTES } from '@portal/contract';

/** A working interval of a weekday, `HH:MM` to `HH:MM`. */
export interface WorkingInterval {
  start: string;
  end: string;
}
/** The working hours of a week, Monday first. */
export type WorkingWeek = WorkingInterval[][];

export interface Holiday {
  date: string;
  name: string;
}

export const WEEKDAYS = ['Lunes', 'Martes', 'Miércoles', 'Jueves', 'Viernes', 'Sábado', 'Domingo'] as const;

/** A new calendar's week: Monday to Friday, 09:00 to 18:00. */
export const defaultWeek = (): WorkingWeek =>
  WEEKDAYS.map((_, day) => (day < 5 ? [{ start: '09:00', end: '18:00' }] : []));

export const DEFAULT_TIME_ZONE = 'America/Mexico_City';

/** `HH:MM` (up to `24:00`) as minutes of the day; NaN when it is not a time. */
export const minutesOfDay = (time: string): number => {
  const m = /^(\d{2}):(\d{2})$/.exec(time);
  return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
};

const spanishDate = new Intl.DateTimeFormat('es-MX', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A holiday's date in Spanish: `lunes, 16 de noviembre de 2026`; '' when it is not a date. */
export function longSpanishDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return '';
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number.isNaN(at.getTime()) ? '' : spanishDate.format(at);
}

/** A target in business minutes as the list shows it: `2 h 30 min`, `45 min`, `8 h`. */
export function targetText(minutes: number): string {
  const [h, m] = [Math.floor(minutes / 60), minutes % 60];
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** Hours and minutes as typed in a target's two boxes ('' for empty). */
export interface HoursMinutes {
  hours: string;
  minutes: string;
}

export const splitMinutes = (total: unknown): HoursMinutes =>
  typeof total === 'number' && Number.isFinite(total)
    ? { hours: String(Math.floor(total / 60)), minutes: String(total % 60) }
    : { hours: '', minutes: '' };

/**
 * The minutes of a target: hours × 60 + minutes; a box left empty is 0. Not a whole number
 * (or both empty) gives NaN, which the contract refuses with its own message.
 */
export function joinMinutes({ hours, minutes }: HoursMinutes): number {
  if (hours.trim() === '' && minutes.trim() === '') return Number.NaN;
  const [h, m] = [hours.trim() === '' ? 0 : Number(hours), minutes.trim() === '' ? 0 : Number(minutes)];
  return Number.isInteger(h) && Number.isInteger(m) ? h * 60 + m : Number.NaN;
}

/** The most hours a target box accepts (ten years). */
export const MAX_TARGET_HOURS = Math.floor(MAX_SLA_TARGET_MINUTES / 60);

/** Every IANA zone the browser knows, plus `current` (a record's zone) when it is not among them. */
export function timeZoneOptions(current?: string): { value: string; label: string }[] {
  const zones = new Set(['UTC', ...Intl.supportedValuesOf('timeZone')]);
  if (current) zones.add(current);
  return [...zones].sort().map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') }));
}

/** The working days of a week in short: `lun., mar., mié., jue., vie.`. */
export function workingDaysText(week: WorkingWeek): string {
  const short = ['lun.', 'mar.', 'mié.', 'jue.', 'vie.', 'sáb.', 'dom.'];
  return week.flatMap((day, i) => (day.length > 0 ? [short[i]] : [])).join(', ');
}
