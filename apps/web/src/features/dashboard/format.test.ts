import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.ts';
import { formatCount, formatDuration, formatRate, hoursOf, onTimeRate, topWithOthers } from './format.ts';

describe('dashboard formats', () => {
  it('writes Spanish numbers and durations', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(45 * 60)).toBe('45 min');
    expect(formatDuration(5.5 * 3600)).toBe('5.5 h');
    expect(formatDuration(86_400)).toBe('1 día');
    expect(formatDuration(3.25 * 86_400)).toBe('3.3 días');
    expect(hoursOf(5400)).toBe(1.5);
    expect(hoursOf(null)).toBeNull();
  });

  it('gives the on-time share of the SLA outcomes, none without any', () => {
    expect(onTimeRate(0, 0)).toBeNull();
    expect(onTimeRate(7, 1)).toBe(88);
    expect(onTimeRate(0, 3)).toBe(0);
    expect(formatRate(88)).toBe('88 %');
    expect(formatRate(null)).toBe('—');
  });

  it("keeps the first ten and adds up the rest under 'Otros'", () => {
    const items = Array.from({ length: 13 }, (_, i) => ({ name: `Área ${i}`, count: 20 - i }));
    const top = topWithOthers(items);
    expect(top).toHaveLength(11);
    expect(top.at(-1)).toEqual({ name: 'Otros', count: 10 + 9 + 8 });
    expect(topWithOthers(items.slice(0, 10))).toHaveLength(10);
  });

  it('writes CSV with a byte order mark, quoting and no formulas', () => {
    expect(
      toCsv(
        ['Área', 'Tickets'],
        [
          ['Almacén, norte', 3],
          ['=SUMA(A1)', null],
          ['Dice "hola"', 1.5],
        ],
      ),
    ).toBe('\uFEFFÁrea,Tickets\r\n"Almacén, norte",3\r\n\'=SUMA(A1),\r\n"Dice ""hola""",1.5\r\n');
  });
});
