import { describe, expect, it } from 'vitest';
import { formatDateTime } from './ticket-badges.tsx';

describe('formatDateTime', () => {
  it('keeps the time on one line: no breaking space inside "2:18 p. m."', () => {
    const text = formatDateTime('2026-11-22T20:18:00Z');
    const time = text.split(', ').at(-1)!;
    expect(time).toMatch(/\d{1,2}:18/);
    expect(time).not.toMatch(/ /);
    expect(formatDateTime('not a date')).toBe('');
  });
});
