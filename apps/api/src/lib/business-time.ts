import { DateTime, IANAZone } from 'luxon';

/** A working interval of one weekday, local wall-clock times `HH:MM` (`end` may be `24:00`). */
export interface WorkingInterval {
  start: string;
  end: string;
}

/**
 * A business calendar: an IANA time zone, the working intervals of each weekday (`week[0]` is
 * Monday … `week[6]` Sunday) and the holidays (local dates `YYYY-MM-DD`, no work that day).
 */
export interface WorkingCalendar {
  timeZone: string;
  week: readonly (readonly WorkingInterval[])[];
  holidays: readonly string[];
}

/** Why a calendar cannot be worked with. */
export type CalendarProblem =
  'unknown-time-zone' | 'bad-week' | 'bad-time' | 'end-before-start' | 'overlap' | 'bad-holiday' | 'no-working-day';

export class InvalidCalendarError extends Error {
  constructor(readonly problem: CalendarProblem) {
    super(`Invalid business calendar: ${problem}`);
  }
}

const MINUTE = 60_000;
const DAY_MINUTES = 1440;
/** How far ahead an opening is looked for: beyond it, the calendar is taken to never open. */
const MAX_SEARCH_DAYS = 366 * 12;

const timeRe = /^([01]\d|2[0-4]):([0-5]\d)$/;
const dateRe = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Minutes after local midnight of `HH:MM`, or undefined when it is not a time of day (24:00 allowed). */
export function minuteOfDay(time: string): number | undefined {
  const m = timeRe.exec(time);
  if (!m) return undefined;
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  return minutes <= DAY_MINUTES ? minutes : undefined;
}

export const isValidTimeZone = (zone: string): boolean => IANAZone.isValidZone(zone);

/** A calendar checked and turned into minutes, ready for the arithmetic. */
export interface CompiledCalendar {
  zone: IANAZone;
  /** Per ISO weekday - 1 (0 = Monday): sorted, disjoint [start, end) minutes of the local day. */
  week: [number, number][][];
  holidays: ReadonlySet<string>;
  /** Each local day worked out, by the day's `wallMidnight`. */
  days: Map<number, KeptDay>;
}

/**
 * A local day's working segments as UTC milliseconds, and the stretches of constant offset they
 * were cut along (none for a day without work).
 */
interface KeptDay {
  segments: [number, number][];
  offsets: OffsetPiece[];
}

/** A stretch [from, to) of UTC ms over which the zone's offset (minutes) stays the same. */
interface OffsetPiece {
  from: number;
  to: number;
  offset: number;
}

/**
 * Checks a calendar: a known zone, well-formed intervals that end after they start and do not
 * overlap within their day, real holiday dates, and at least one working day (a calendar that
 * never opens would make every due date infinite).
 */
export function compileCalendar(calendar: WorkingCalendar): CompiledCalendar {
  if (!isValidTimeZone(calendar.timeZone)) throw new InvalidCalendarError('unknown-time-zone');
  if (calendar.week.length !== 7) throw new InvalidCalendarError('bad-week');
  const week = calendar.week.map((intervals) => {
    const minutes = intervals.map(({ start, end }): [number, number] => {
      const [s, e] = [minuteOfDay(start), minuteOfDay(end)];
      if (s === undefined || e === undefined) throw new InvalidCalendarError('bad-time');
      if (e <= s) throw new InvalidCalendarError('end-before-start');
      return [s, e];
    });
    minutes.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < minutes.length; i++) {
      if (minutes[i]![0] < minutes[i - 1]![1]) throw new InvalidCalendarError('overlap');
    }
    return minutes;
  });
  if (week.every((d) => d.length === 0)) throw new InvalidCalendarError('no-working-day');
  for (const date of calendar.holidays) {
    if (!isRealDate(date)) throw new InvalidCalendarError('bad-holiday');
  }
  return {
    zone: IANAZone.create(calendar.timeZone),
    week,
    holidays: new Set(calendar.holidays),
    days: new Map(),
  };
}

export function isRealDate(date: string): boolean {
  const m = dateRe.exec(date);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const utc = new Date(Date.UTC(y, mo - 1, d));
  return utc.getUTCFullYear() === y && utc.getUTCMonth() === mo - 1 && utc.getUTCDate() === d;
}

/** The zone's offset from UTC, in minutes, at an instant (ms). */
const offsetAt = (zone: IANAZone, ms: number): number => zone.offset(ms);

/**
 * The stretches of [from, to) (UTC ms) over which the zone's offset stays the same, found by
 * halving wherever the offsets at the ends of a day differ (offsets change at whole minutes).
 */
function constantOffsetPieces(zone: IANAZone, from: number, to: number): OffsetPiece[] {
  const pieces: OffsetPiece[] = [];
  let start = from;
  let offset = offsetAt(zone, start);
  while (start < to) {
    const stepEnd = Math.min(start + DAY_MINUTES * MINUTE, to);
    const endOffset = offsetAt(zone, stepEnd - MINUTE);
    if (endOffset === offset) {
      start = stepEnd;
      continue;
    }
    // The first minute of [start, stepEnd) whose offset differs.
    let lo = start / MINUTE; // offset here is `offset`
    let hi = stepEnd / MINUTE - 1; // offset here differs
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetAt(zone, mid * MINUTE) === offset) lo = mid;
      else hi = mid;
    }
    pieces.push({ from: pieces.length ? pieces[pieces.length - 1]!.to : from, to: hi * MINUTE, offset });
    start = hi * MINUTE;
    offset = offsetAt(zone, start);
  }
  pieces.push({ from: pieces.length ? pieces[pieces.length - 1]!.to : from, to, offset });
  return pieces;
}

/**
 * The working segments (UTC ms, sorted, disjoint) of one local day, given as the UTC ms of its
 * wall-clock midnight (`Date.UTC(y, m, d)`). An instant works when its local date is that day,
 * not a holiday, and its local wall time falls in one of the weekday's intervals: so a repeated
 * hour (daylight saving ends) works twice over and a skipped one (it starts) not at all.
 */
function daySegments(cal: CompiledCalendar, wallMidnight: number): [number, number][] {
  const kept = cal.days.get(wallMidnight);
  if (kept) return kept.segments;
  const date = new Date(wallMidnight);
  const isoDate = date.toISOString().slice(0, 10);
  const weekday = (date.getUTCDay() + 6) % 7;
  const intervals = cal.week[weekday]!;
  const segments: [number, number][] = [];
  let offsets: OffsetPiece[] = [];
  if (intervals.length > 0 && !cal.holidays.has(isoDate)) {
    // Every instant of the local day lies within 14 hours (the largest offset) of its wall-clock span.
    const margin = 15 * 60 * MINUTE;
    offsets = constantOffsetPieces(cal.zone, wallMidnight - margin, wallMidnight + DAY_MINUTES * MINUTE + margin);
    for (const [s, e] of intervals) {
      for (const piece of offsets) {
        const from = Math.max(piece.from, wallMidnight + (s - piece.offset) * MINUTE);
        const to = Math.min(piece.to, wallMidnight + (e - piece.offset) * MINUTE);
        if (from < to) segments.push([from, to]);
      }
    }
    segments.sort((a, b) => a[0] - b[0]);
  }
  if (cal.days.size > 4096) cal.days.clear();
  cal.days.set(wallMidnight, { segments, offsets });
  return segments;
}

/**
 * The zone's offset at an instant: from the stretches a working day's segments were cut along
 * when one holds it (the pieces kept under a key span 15 hours either side of that UTC day, so
 * those of the instant's UTC day or the day before are the ones that can), else asked of the zone.
 */
function offsetOf(cal: CompiledCalendar, ms: number): number {
  const day = Math.floor(ms / (DAY_MINUTES * MINUTE)) * DAY_MINUTES * MINUTE;
  for (const key of [day, day - DAY_MINUTES * MINUTE]) {
    const piece = cal.days.get(key)?.offsets.find((p) => p.from <= ms && ms < p.to);
    if (piece) return piece.offset;
  }
  return offsetAt(cal.zone, ms);
}

/** The UTC ms of the wall-clock midnight of the local date of an instant. */
function localWallMidnight(cal: CompiledCalendar, ms: number): number {
  const wall = ms + offsetOf(cal, ms) * MINUTE;
  return Math.floor(wall / (DAY_MINUTES * MINUTE)) * DAY_MINUTES * MINUTE;
}

/** The working segments from the local day of `ms` onwards (the earlier ones of that day included). */
function* segmentsFrom(cal: CompiledCalendar, ms: number): Generator<[number, number]> {
  // The day before too: a segment of the previous local day never ends after `ms`'s day starts, but
  // looking one day back keeps this right whatever the offset.
  let day = localWallMidnight(cal, ms) - DAY_MINUTES * MINUTE;
  let idleDays = 0;
  while (idleDays < MAX_SEARCH_DAYS) {
    const segments = daySegments(cal, day);
    if (segments.length === 0) idleDays++;
    else idleDays = 0;
    for (const segment of segments) {
      if (segment[1] > ms) yield segment;
    }
    day += DAY_MINUTES * MINUTE;
  }
  throw new InvalidCalendarError('no-working-day');
}

/** The instant (ms) at which `minutes` business minutes have passed since `from` (ms). */
export function addBusinessMinutes(cal: CompiledCalendar, from: number, minutes: number): number {
  if (minutes <= 0) return from;
  let left = minutes * MINUTE;
  for (const [s, e] of segmentsFrom(cal, from)) {
    const start = Math.max(s, from);
    if (e - start >= left) return start + left;
    left -= e - start;
  }
  /* c8 ignore next */
  throw new InvalidCalendarError('no-working-day');
}

/** The business milliseconds in [from, to) (negative when `to` is before `from`). */
export function businessMsBetween(cal: CompiledCalendar, from: number, to: number): number {
  if (to < from) return 0 - businessMsBetween(cal, to, from);
  let total = 0;
  for (const [s, e] of segmentsFrom(cal, from)) {
    if (s >= to) break;
    total += Math.min(e, to) - Math.max(s, from);
  }
  return total;
}

/** Whole business minutes in [from, to) (negative when `to` is before `from`), rounded toward zero. */
export const businessMinutesBetween = (cal: CompiledCalendar, from: number, to: number): number =>
  Math.trunc(businessMsBetween(cal, from, to) / MINUTE);

/** `at` itself when the calendar is open then, otherwise the start of its next working segment. */
export function nextOpening(cal: CompiledCalendar, at: number): number {
  for (const [s] of segmentsFrom(cal, at)) return Math.max(s, at);
  /* c8 ignore next */
  throw new InvalidCalendarError('no-working-day');
}

/** Whether the calendar is open at an instant. */
export const isOpenAt = (cal: CompiledCalendar, at: number): boolean => nextOpening(cal, at) === at;

/** The local date `YYYY-MM-DD` of an instant in the calendar's zone. */
export const localDateOf = (cal: CompiledCalendar, at: number): string =>
  DateTime.fromMillis(at, { zone: cal.zone }).toISODate()!;
