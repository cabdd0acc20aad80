import { describe, expect, it } from 'vitest';
import { kanbanUrlParams, kanbanViewFromUrl, kanbanViewToUrl } from './kanban-url.ts';

describe('kanban url', () => {
  it('reads the lists’ encoding plus mine', () => {
    const view = kanbanViewFromUrl(
      new URLSearchParams('q=bomba&sort=priority:asc&priority=4,3&area=1&assignee=none,12&group=2&mine=1'),
    );
    expect(view).toEqual({
      search: 'bomba',
      filters: { priority_type_id: [4, 3], area_id: [1], user_assigned_id: [null, 12], group_id: [2] },
      sort: { by: 'priority', dir: 'asc' },
      mine: true,
    });
  });

  it('writes a view back to the same parameters, and clears what is unset', () => {
    const params = kanbanViewToUrl({
      search: '',
      filters: { project_id: [3] },
      sort: { by: 'id', dir: 'desc' },
      mine: false,
    });
    expect(params).toMatchObject({ q: null, project: '3', priority: null, sort: null, mine: null });
    const back = new URLSearchParams(
      Object.entries(params).flatMap(([k, v]) => (v === null ? [] : [[k, v] as [string, string]])),
    );
    expect(kanbanViewFromUrl(back).filters).toEqual({ project_id: [3] });
    expect(kanbanUrlParams).toContain('mine');
    expect(kanbanUrlParams).not.toContain('page');
  });
});
