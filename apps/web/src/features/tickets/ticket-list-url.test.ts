import { describe, expect, it } from 'vitest';
import { filtersFromUrl, filtersToUrl, nextSort, sortFromUrl, sortToUrl } from './ticket-list-url.ts';

describe('ticket list URL', () => {
  it('round-trips filters, with unassigned as none', () => {
    const filters = {
      stage: ['open' as const],
      priority_type_id: [4],
      project_id: [3, 5],
      user_assigned_id: [null, 12],
      created_from: '2025-01-01',
      created_to: '2025-01-31',
    };
    const params = new URLSearchParams(
      Object.entries(filtersToUrl(filters)).flatMap(([k, v]) => (v === null ? [] : [[k, v]])),
    );
    expect(params.get('assignee')).toBe('none,12');
    expect(filtersFromUrl(params)).toEqual(filters);
  });

  it('ignores values it cannot read', () => {
    expect(filtersFromUrl(new URLSearchParams('stage=x&priority=a,-1&from=ayer&assignee=,'))).toEqual({});
  });

  it('reads and writes the sort, flipping on the same column', () => {
    expect(sortFromUrl('updated:asc')).toEqual({ by: 'updated', dir: 'asc' });
    expect(sortFromUrl('color:asc')).toEqual({ by: 'id', dir: 'desc' });
    expect(sortToUrl({ by: 'id', dir: 'desc' })).toBeNull();
    expect(nextSort({ by: 'priority', dir: 'desc' }, 'priority')).toEqual({ by: 'priority', dir: 'asc' });
    expect(nextSort({ by: 'id', dir: 'desc' }, 'name')).toEqual({ by: 'name', dir: 'asc' });
  });

  it('sorts by a due date through the URL, the soonest first on a header click', () => {
    expect(sortFromUrl('resolution_due_at:asc')).toEqual({ by: 'resolution_due_at', dir: 'asc' });
    expect(sortFromUrl('first_response_due_at:desc')).toEqual({ by: 'first_response_due_at', dir: 'desc' });
    expect(sortToUrl({ by: 'resolution_due_at', dir: 'asc' })).toBe('resolution_due_at:asc');
    expect(nextSort({ by: 'id', dir: 'desc' }, 'resolution_due_at')).toEqual({ by: 'resolution_due_at', dir: 'asc' });
  });
});
