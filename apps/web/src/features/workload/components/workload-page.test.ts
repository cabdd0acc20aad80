import { describe, expect, it } from 'vitest';
import { queueText, workloadParts, workloadSummary } from './workload-page.tsx';

describe('workload card', () => {
  it('names every segment of the bar, open tickets included', () => {
    const parts = workloadParts({ ticket_count: 10, started_count: 3, completed_count: 2 });
    expect(parts.map((p) => [p.label, p.value, p.color])).toEqual([
      ['Abiertos', 5, 'blue'],
      ['En proceso', 3, 'yellow'],
      ['Terminados', 2, 'teal'],
    ]);
  });

  it('says in words what one open ticket means, so a full bar never reads as 100 % done', () => {
    expect(workloadSummary({ ticket_count: 1, completed_count: 0 })).toBe('1 ticket asignado · 0 % terminado');
    expect(workloadSummary({ ticket_count: 10, completed_count: 6 })).toBe('10 tickets asignados · 60 % terminado');
    expect(workloadSummary({ ticket_count: 0, completed_count: 0 })).toBe('Sin tickets asignados');
  });

  it("says how many tickets wait in a group's queue, past the bound as a lower bound", () => {
    expect(queueText({ queue_count: 3, count_is_lower_bound: false })).toBe('3 en cola');
    expect(queueText({ queue_count: 1000, count_is_lower_bound: true })).toBe('Más de 1,000 en cola');
  });
});
