import { describe, expect, it } from 'vitest';
import {
  joinMinutes,
  longSpanishDate,
  splitMinutes,
  targetText,
  timeZoneOptions,
  workingDaysText,
} from './sla-format.ts';

describe('SLA screens formatting', () => {
  it('writes a holiday as a Spanish date', () => {
    expect(longSpanishDate('2026-11-16')).toBe('lunes, 16 de noviembre de 2026');
    expect(longSpanishDate('2027-01-01')).toBe('viernes, 1 de enero de 2027');
    expect(longSpanishDate('')).toBe('');
  });

  it('turns a target into hours and minutes and back', () => {
    expect(splitMinutes(150)).toEqual({ hours: '2', minutes: '30' });
    expect(splitMinutes(undefined)).toEqual({ hours: '', minutes: '' });
    expect(joinMinutes({ hours: '2', minutes: '30' })).toBe(150);
    expect(joinMinutes({ hours: '', minutes: '45' })).toBe(45);
    expect(joinMinutes({ hours: '', minutes: '' })).toBeNaN();
    expect(targetText(150)).toBe('2 h 30 min');
    expect(targetText(480)).toBe('8 h');
    expect(targetText(45)).toBe('45 min');
  });

  it('offers the IANA zones and names the working days', () => {
    const zones = timeZoneOptions().map((o) => o.value);
    expect(zones).toContain('America/Mexico_City');
    expect(zones).toContain('America/Matamoros');
    expect(zones).toContain('UTC');
    const week = [[{ start: '09:00', end: '18:00' }], [], [], [], [{ start: '09:00', end: '14:00' }], [], []];
    expect(workingDaysText(week)).toBe('lun., vie.');
  });
});
