import { z } from 'zod';
import { ZId, ZNamedRef, ZStatusId, ZStatusRef, ZText } from './common.ts';

/** A working interval's bound: `HH:MM` from 00:00 to 24:00. */
const TIME_RE = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Holidays are dates of these years. */
export const HOLIDAY_YEARS = { min: 2000, max: 2100 } as const;
/** The longest SLA target: ten years of minutes. */
export const MAX_SLA_TARGET_MINUTES = 10 * 365 * 24 * 60;

export const SLA_TEXT = {
  time: 'La hora debe tener el formato HH:MM, de 00:00 a 24:00.',
  endBeforeStart: 'La hora de fin debe ser posterior a la hora de inicio.',
  overlap: 'Los horarios de un mismo día no pueden traslaparse.',
  weekLength: 'El horario debe tener los 7 días de la semana, de lunes a domingo.',
  tooManyIntervals: 'Un día admite como máximo 6 horarios.',
  noWorkingDay: 'El calendario debe tener al menos un día laborable.',
  holiday: `El día festivo debe ser una fecha válida (AAAA-MM-DD) entre ${HOLIDAY_YEARS.min} y ${HOLIDAY_YEARS.max}.`,
  repeatedHoliday: 'Hay días festivos repetidos.',
  timeZone: 'La zona horaria no es válida: use una zona IANA, por ejemplo America/Mexico_City.',
  targetMin: 'El objetivo debe ser de al menos 1 minuto.',
  targetMax: 'El objetivo no puede superar 10 años.',
  target: 'El objetivo debe ser un número entero de minutos.',
} as const;

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

export const ZWorkingInterval = z.object({
  start: z.string({ error: SLA_TEXT.time }).regex(TIME_RE, SLA_TEXT.time),
  end: z.string({ error: SLA_TEXT.time }).regex(TIME_RE, SLA_TEXT.time),
});

/** One weekday's intervals: each ends after it starts, none overlaps another. */
const ZWorkingDay = z
  .array(ZWorkingInterval)
  .max(6, SLA_TEXT.tooManyIntervals)
  .superRefine((intervals, ctx) => {
    if (intervals.some(({ start, end }) => minutesOf(end) <= minutesOf(start))) {
      ctx.addIssue({ code: 'custom', message: SLA_TEXT.endBeforeStart });
      return;
    }
    const sorted = [...intervals].sort((a, b) => minutesOf(a.start) - minutesOf(b.start));
    if (sorted.some((iv, i) => i > 0 && minutesOf(iv.start) < minutesOf(sorted[i - 1]!.end))) {
      ctx.addIssue({ code: 'custom', message: SLA_TEXT.overlap });
    }
  });

/** The working hours of a week, Monday first; at least one day works. */
export const ZWorkingWeek = z
  .array(ZWorkingDay, { error: SLA_TEXT.weekLength })
  .length(7, SLA_TEXT.weekLength)
  .refine((week) => week.some((day) => day.length > 0), SLA_TEXT.noWorkingDay);

const isHolidayDate = (date: string) => {
  const m = DATE_RE.exec(date);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const utc = new Date(Date.UTC(y, mo - 1, d));
  return (
    y >= HOLIDAY_YEARS.min &&
    y <= HOLIDAY_YEARS.max &&
    utc.getUTCFullYear() === y &&
    utc.getUTCMonth() === mo - 1 &&
    utc.getUTCDate() === d
  );
};

export const ZHoliday = z.object({
  date: z.string({ error: SLA_TEXT.holiday }).refine(isHolidayDate, SLA_TEXT.holiday),
  name: ZText('alphanumeric', { max: 100 }),
});

export const ZHolidays = z
  .array(ZHoliday)
  .max(1000, 'Máximo 1000 días festivos.')
  .refine((days) => new Set(days.map((d) => d.date)).size === days.length, SLA_TEXT.repeatedHoliday);

/** An IANA zone name the runtime knows (`America/Matamoros`, `UTC`), never an offset. */
export const isKnownTimeZone = (zone: string): boolean => {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

export const ZTimeZone = z
  .string({ error: SLA_TEXT.timeZone })
  .max(64, SLA_TEXT.timeZone)
  .refine(isKnownTimeZone, SLA_TEXT.timeZone);

export const ZBusinessCalendarWrite = z.object({
  name: ZText('alphanumeric', { max: 100 }),
  time_zone: ZTimeZone,
  week: ZWorkingWeek,
  holidays: ZHolidays.default([]),
  status_id: ZStatusId.default(1),
});

export const ZBusinessCalendar = z.object({
  id: z.number(),
  name: z.string(),
  time_zone: z.string(),
  week: z.array(z.array(z.object({ start: z.string(), end: z.string() }))),
  holidays: z.array(z.object({ date: z.string(), name: z.string() })),
  status_id: z.number(),
  status: ZStatusRef,
});
export type TBusinessCalendar = z.infer<typeof ZBusinessCalendar>;

/** A target in business minutes: at least one, at most ten years. */
const ZTargetMinutes = z
  .number({ error: SLA_TEXT.target })
  .int(SLA_TEXT.target)
  .min(1, SLA_TEXT.targetMin)
  .max(MAX_SLA_TARGET_MINUTES, SLA_TEXT.targetMax);

export const ZSlaPolicyWrite = z.object({
  name: ZText('alphanumeric', { max: 100 }),
  priority_type_id: ZId,
  /** Null: any area. */
  area_id: ZId.nullable().default(null),
  calendar_id: ZId,
  first_response_minutes: ZTargetMinutes,
  resolution_minutes: ZTargetMinutes,
  status_id: ZStatusId.default(1),
});

export const ZSlaPolicy = z.object({
  id: z.number(),
  name: z.string(),
  priority_type_id: z.number(),
  priority_type: ZNamedRef,
  area_id: z.number().nullable(),
  area: ZNamedRef,
  calendar_id: z.number(),
  calendar: ZNamedRef,
  first_response_minutes: z.number(),
  resolution_minutes: z.number(),
  status_id: z.number(),
  status: ZStatusRef,
});
export type TSlaPolicy = z.infer<typeof ZSlaPolicy>;
