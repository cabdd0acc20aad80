import { describe, expect, it } from 'vitest';
import { countBadge, savedViewPath, viewIdOf } from './saved-views-api.ts';

describe('saved views in the web app', () => {
  it('opens each view on its own list, the history on its tab', () => {
    expect(savedViewPath({ id: 12, list: 'general' })).toBe('/general-tickets?view=12');
    expect(savedViewPath({ id: 3, list: 'mine' })).toBe('/tickets?view=3');
    expect(savedViewPath({ id: 4, list: 'old' })).toBe('/record-tickets?tab=old&view=4');
    expect(savedViewPath({ id: 5, list: 'kanban' })).toBe('/kanban?view=5');
  });

  it('reads the opened view from the URL, ignoring what is not an id', () => {
    expect(viewIdOf(new URLSearchParams('view=12&priority=4'))).toBe(12);
    for (const text of ['', 'view=', 'view=abc', 'view=-1', 'view=1.5']) {
      expect(viewIdOf(new URLSearchParams(text))).toBeNull();
    }
  });

  it('writes the count as the lists do: grouped, and "más de" past the cap', () => {
    expect(countBadge({ total: 7, is_lower_bound: false })).toBe('7');
    expect(countBadge({ total: 1234, is_lower_bound: false })).toBe('1.234');
    expect(countBadge({ total: 10_000, is_lower_bound: true })).toBe('más de 10.000');
  });
});
