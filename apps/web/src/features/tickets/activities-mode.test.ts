import type { TTicket } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { activitiesModeOf } from './activities-mode.ts';

const ticket = (assignee: number | null) => ({ user_assigned_id: assignee }) as TTicket;
const agent = (id: number) => ({ id, role: { is_supervisor: 0 } });
const supervisor = (id: number) => ({ id, role: { is_supervisor: 1 } });

describe('activities column', () => {
  it('lets the assignee register, a privileged role read, and nobody else in', () => {
    expect(activitiesModeOf(ticket(7), agent(7))).toBe('register');
    expect(activitiesModeOf(ticket(7), supervisor(7))).toBe('register');
    expect(activitiesModeOf(ticket(7), supervisor(2))).toBe('read-only');
    expect(activitiesModeOf(ticket(null), supervisor(2))).toBe('read-only');
    expect(activitiesModeOf(ticket(7), agent(8))).toBe('denied');
    expect(activitiesModeOf(ticket(null), agent(8))).toBe('denied');
  });
});
