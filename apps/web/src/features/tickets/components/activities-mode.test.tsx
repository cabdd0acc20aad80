import type { TTicket } from '@portal/contract';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { activitiesModeOf } from './activities-modal.tsx';
import { useSearchPage } from './use-search-page.ts';

const ticket = (assignee: number | null) => ({ user_assigned_id: assignee }) as TTicket;
const agent = (id: number) => ({ id, role: { is_supervisor: 0 } });
const supervisor = (id: number) => ({ id, role: { is_supervisor: 1 } });

describe('activities column (SPEC §6)', () => {
  it('lets the assignee register, a privileged role read, and nobody else in', () => {
    expect(activitiesModeOf(ticket(7), agent(7))).toBe('register');
    expect(activitiesModeOf(ticket(7), supervisor(7))).toBe('register');
    expect(activitiesModeOf(ticket(7), supervisor(2))).toBe('read-only');
    expect(activitiesModeOf(ticket(null), supervisor(2))).toBe('read-only');
    expect(activitiesModeOf(ticket(7), agent(8))).toBe('denied');
    expect(activitiesModeOf(ticket(null), agent(8))).toBe('denied');
  });
});

describe('useSearchPage', () => {
  it('keeps the page while the search stays and starts again at 1 when it changes', () => {
    const { result, rerender } = renderHook(({ search }) => useSearchPage(search), { initialProps: { search: '' } });
    act(() => result.current[1](3));
    expect(result.current[0]).toBe(3);
    rerender({ search: '' });
    expect(result.current[0]).toBe(3);
    rerender({ search: 'rampa' });
    expect(result.current[0]).toBe(1);
    act(() => result.current[1](2));
    expect(result.current[0]).toBe(2);
  });
});
