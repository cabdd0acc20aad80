import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  addBusinessMinutes,
  businessMinutesBetween,
  compileCalendar,
  InvalidCalendarError,
  isOpenAt,
  nextOpening,
  type WorkingCalendar,
  type WorkingInterval,
} from './business-time.ts';

const MINUTE = 60_000;

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function randomOf(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return { next, int, pick: <T>(items: readonly T[]): T => items[int(0, items.length - 1)]! };
}

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Zones with daylight saving (America/Matamoros, half-hour shifts at Lord Howe) and without. */
const ZONES = ['America/Matamoros', 'America/Mexico_City', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'];

/** Windows of 12 days around America/Matamoros' daylight-saving changes and an ordinary stretch. */
const WINDOWS = ['2026-03-03T00:00:00Z', '2026-10-27T00:00:00Z', '2027-03-09T00:00:00Z', '2026-06-10T00:00:00Z'].map(
  (iso) => Date.parse(iso),
);
const WINDOW_MINUTES = 12 * 1440;

/** Random disjoint intervals of one day: split days, whole days, hours that DST repeats or skips. */
function randomDay(rnd: ReturnType<typeof randomOf>): WorkingInterval[] {
  const shape = rnd.int(0, 9);
  if (shape === 0) return [];
  if (shape === 1) return [{ start: '00:00', end: '24:00' }];
  if (shape === 2) return [{ start: '01:00', end: '03:30' }];
  const count = rnd.int(1, 3);
  const step = rnd.next() < 0.5 ? 30 : 1;
  const bounds = new Set<number>();
  while (bounds.size < count * 2) bounds.add(rnd.int(0, 1440 / step) * step);
  const sorted = [...bounds].sort((a, b) => a - b);
  const intervals: WorkingInterval[] = [];
  for (let i = 0; i < sorted.length; i += 2) intervals.push({ start: hhmm(sorted[i]!), end: hhmm(sorted[i + 1]!) });
  return intervals;
}

function randomCalendar(seed: number, windowStart: number): WorkingCalendar {
  const rnd = randomOf(seed);
  const timeZone = seed % 3 === 0 ? 'America/Matamoros' : rnd.pick(ZONES);
  let week = Array.from({ length: 7 }, () => randomDay(rnd));
  if (week.every((d) => d.length === 0)) week = week.map((d, i) => (i === 0 ? [{ start: '09:00', end: '18:00' }] : d));
  const holidays = Array.from({ length: rnd.int(0, 4) }, () =>
    new Date(windowStart + rnd.int(-1, 13) * 1440 * MINUTE).toISOString().slice(0, 10),
  );
  return { timeZone, week, holidays };
}

/** The oracle: whether the minute starting at `t` is worked, by the local wall clock, one minute at a time. */
function isWorkedMinute(calendar: WorkingCalendar, t: number): boolean {
  const local = DateTime.fromMillis(t, { zone: calendar.timeZone });
  if (calendar.holidays.includes(local.toISODate()!)) return false;
  const minute = local.hour * 60 + local.minute;
  return calendar.week[local.weekday - 1]!.some(({ start, end }) => {
    const [sh, sm] = start.split(':').map(Number) as [number, number];
    const [eh, em] = end.split(':').map(Number) as [number, number];
    return sh * 60 + sm <= minute && minute < eh * 60 + em;
  });
}

describe('business-minute arithmetic against a minute-by-minute oracle', () => {
  const cases = Array.from({ length: 36 }, (_, i) => ({ seed: 1000 + i, windowStart: WINDOWS[i % WINDOWS.length]! }));

  it.each(cases)('calendar $seed', ({ seed, windowStart }) => {
    const calendar = randomCalendar(seed, windowStart);
    const compiled = compileCalendar(calendar);
    const worked = Array.from({ length: WINDOW_MINUTES }, (_, i) => isWorkedMinute(calendar, windowStart + i * MINUTE));
    // prefix[i]: worked minutes in [windowStart, windowStart + i minutes).
    const prefix = [0];
    for (const w of worked) prefix.push(prefix[prefix.length - 1]! + (w ? 1 : 0));
    const rnd = randomOf(seed * 7);
    const at = (i: number) => windowStart + i * MINUTE;

    for (let q = 0; q < 150; q++) {
      const i = rnd.int(0, WINDOW_MINUTES - 1);
      const j = rnd.int(i, WINDOW_MINUTES);
      expect(businessMinutesBetween(compiled, at(i), at(j)), `between ${i} ${j}`).toBe(prefix[j]! - prefix[i]!);
      expect(businessMinutesBetween(compiled, at(j), at(i))).toBe(prefix[i]! - prefix[j]!);

      const firstOpen = worked.indexOf(true, i);
      if (firstOpen >= 0) {
        expect(nextOpening(compiled, at(i)), `opening ${i}`).toBe(at(firstOpen));
        expect(isOpenAt(compiled, at(i))).toBe(worked[i]);
      }

      const n = rnd.int(1, Math.max(1, prefix[WINDOW_MINUTES]! - prefix[i]!));
      // The n-th worked minute from i ends at the due instant.
      let k = i;
      let seen = 0;
      while (k < WINDOW_MINUTES && seen < n) if (worked[k++]) seen++;
      if (seen === n) expect(addBusinessMinutes(compiled, at(i), n), `add ${i} ${n}`).toBe(at(k));
    }
  });

  it('a due date counts a repeated hour once per instant and skips a missing one (America/Matamoros)', () => {
    const night = { start: '00:00', end: '06:00' };
    const calendar = compileCalendar({ timeZone: 'America/Matamoros', week: Array(7).fill([night]), holidays: [] });
    // 2026-11-01 (daylight saving ends at 02:00, back to 01:00): the night lasts 7 real hours.
    const day = (iso: string) => DateTime.fromISO(iso, { zone: 'America/Matamoros' }).toMillis();
    expect(businessMinutesBetween(calendar, day('2026-11-01T00:00'), day('2026-11-02T00:00'))).toBe(7 * 60);
    // 2026-03-08 (it starts at 02:00, on to 03:00): 5 real hours.
    expect(businessMinutesBetween(calendar, day('2026-03-08T00:00'), day('2026-03-09T00:00'))).toBe(5 * 60);
  });

  it('an urgent ticket at 17:50 on a Friday is due the next working morning', () => {
    const week = [...Array(5).fill([{ start: '09:00', end: '18:00' }]), [], []];
    const calendar = compileCalendar({ timeZone: 'America/Mexico_City', week, holidays: ['2026-11-16'] });
    const friday = DateTime.fromISO('2026-11-13T17:50', { zone: 'America/Mexico_City' }).toMillis();
    // 10 minutes on Friday, Monday 16 is a holiday, 50 minutes on Tuesday.
    const due = DateTime.fromMillis(addBusinessMinutes(calendar, friday, 60), { zone: 'America/Mexico_City' });
    expect(due.toISO()).toBe('2026-11-17T09:50:00.000-06:00');
  });
});

describe('calendars that cannot be worked with', () => {
  const week = (day: WorkingInterval[]) => Array.from({ length: 7 }, () => day);
  const problemOf = (calendar: WorkingCalendar) => {
    try {
      compileCalendar(calendar);
      return 'none';
    } catch (error) {
      return error instanceof InvalidCalendarError ? error.problem : 'other';
    }
  };
  it('refuses a calendar without a working day, and the other malformed ones', () => {
    expect(problemOf({ timeZone: 'UTC', week: week([]), holidays: [] })).toBe('no-working-day');
    expect(problemOf({ timeZone: 'Mars/Olympus', week: week([{ start: '09:00', end: '10:00' }]), holidays: [] })).toBe(
      'unknown-time-zone',
    );
    expect(problemOf({ timeZone: 'UTC', week: week([{ start: '10:00', end: '09:00' }]), holidays: [] })).toBe(
      'end-before-start',
    );
    const overlapping = [
      { start: '09:00', end: '14:00' },
      { start: '13:00', end: '18:00' },
    ];
    expect(problemOf({ timeZone: 'UTC', week: week(overlapping), holidays: [] })).toBe('overlap');
    expect(problemOf({ timeZone: 'UTC', week: week([{ start: '09:00', end: '25:00' }]), holidays: [] })).toBe(
      'bad-time',
    );
    expect(
      problemOf({ timeZone: 'UTC', week: week([{ start: '09:00', end: '10:00' }]), holidays: ['2026-02-30'] }),
    ).toBe('bad-holiday');
    expect(problemOf({ timeZone: 'UTC', week: week([{ start: '09:00', end: '10:00' }]), holidays: [] })).toBe('none');
  });

  it('a calendar whose every working day is a holiday never opens: refused, not looped over', () => {
    const monday = [[{ start: '09:00', end: '10:00' }], [], [], [], [], [], []];
    const holidays: string[] = [];
    for (let d = Date.parse('2026-01-01'); d < Date.parse('2040-01-01'); d += 1440 * MINUTE) {
      if (new Date(d).getUTCDay() === 1) holidays.push(new Date(d).toISOString().slice(0, 10));
    }
    const calendar = compileCalendar({ timeZone: 'UTC', week: monday, holidays });
    expect(() => addBusinessMinutes(calendar, Date.parse('2026-01-01'), 60)).toThrow(InvalidCalendarError);
  });
});
