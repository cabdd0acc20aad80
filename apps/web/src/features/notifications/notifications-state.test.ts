import { NOTIFICATION_TEXT } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { makeNotification } from './notification-fixtures.ts';
import {
  applyPushed,
  applyRemoved,
  applyServerList,
  applyViewed,
  badgeLabel,
  describeNotification,
  formatWhen,
  loadState,
  newestKnownId,
  saveState,
  tabTitle,
  unseenCount,
  type NotificationState,
} from './notifications-state.ts';

const empty: NotificationState = { userId: 7, items: [], processed: [] };

describe('notification tray rules', () => {
  it('labels the badge 99+ above 99 and titles the tab Tickets (n)', () => {
    expect(badgeLabel(0)).toBe('0');
    expect(badgeLabel(99)).toBe('99');
    expect(badgeLabel(100)).toBe('99+');
    expect(tabTitle(0)).toBe('Tickets');
    expect(tabTitle(3)).toBe('Tickets (3)');
    expect(tabTitle(150)).toBe('Tickets (99+)');
  });

  it('takes the server list newest first and announces only ids never processed', () => {
    const first = applyServerList(empty, [makeNotification(1), makeNotification(3), makeNotification(2)], 0);
    expect(first.state.items.map((n) => n.id)).toEqual([3, 2, 1]);
    expect(first.fresh.map((n) => n.id).sort()).toEqual([1, 2, 3]);

    const again = applyServerList(first.state, [makeNotification(4), makeNotification(3)], 3);
    expect(again.fresh.map((n) => n.id)).toEqual([4]);
    expect(again.state.items.map((n) => n.id)).toEqual([4, 3]);
  });

  it('keeps a pushed notification newer than the snapshot the server answered with', () => {
    const pushed = applyPushed(empty, makeNotification(9)).state;
    const merged = applyServerList(pushed, [makeNotification(5)], 5);
    expect(merged.state.items.map((n) => n.id)).toEqual([9, 5]);
    // Older than the snapshot and gone from the server: read elsewhere, dropped.
    const dropped = applyServerList(merged.state, [], 9);
    expect(dropped.state.items).toEqual([]);
  });

  it('ignores duplicates by id, including ones removed earlier', () => {
    const once = applyPushed(empty, makeNotification(1));
    expect(once.fresh).toHaveLength(1);
    const twice = applyPushed(once.state, makeNotification(1, { message: 'otra vez' }));
    expect(twice.fresh).toEqual([]);
    expect(twice.state).toBe(once.state);

    const removed = applyRemoved(once.state, [1]);
    expect(removed.items).toEqual([]);
    expect(applyPushed(removed, makeNotification(1)).fresh).toEqual([]);
  });

  it('counts only unseen ones, and viewed ones stop counting', () => {
    const state = applyServerList(empty, [makeNotification(1), makeNotification(2, { viewed: 1 })], 0).state;
    expect(unseenCount(state)).toBe(1);
    expect(unseenCount(applyViewed(state, [1]))).toBe(0);
    expect(newestKnownId(state)).toBe(2);
  });

  it('persists the tray per user and the processed ids under the documented storage keys', () => {
    const state = applyServerList({ ...empty, userId: 7 }, [makeNotification(4)], 0).state;
    saveState(state);
    expect(JSON.parse(window.localStorage.getItem('processedNotificationIds')!)).toEqual([4]);
    expect(JSON.parse(window.localStorage.getItem('notifications')!).items[0].id).toBe(4);
    expect(loadState(7).items.map((n) => n.id)).toEqual([4]);
    // Another user on the same browser never sees that tray.
    expect(loadState(8).items).toEqual([]);
    window.localStorage.setItem('notifications', '{broken');
    expect(loadState(7).items).toEqual([]);
  });

  it('says when in Spanish', () => {
    const now = Date.parse('2025-03-10T12:00:00Z');
    expect(formatWhen(now - 10_000, now)).toBe('ahora');
    expect(formatWhen(now - 5 * 60_000, now)).toBe('hace 5 minutos');
    expect(formatWhen(now - 2 * 3600_000, now)).toBe('hace 2 horas');
    expect(formatWhen(now - 86_400_000, now)).toBe('ayer');
  });
});

describe('describeNotification', () => {
  it('says who did what to which ticket', () => {
    const base = { ticket_id: 61, ticket_name: 'Falla en montacargas', actor_name: 'Diego Hernández' };
    expect(describeNotification({ ...base, message: NOTIFICATION_TEXT.assigned })).toBe(
      'Diego Hernández te asignó el ticket #61 · Falla en montacargas',
    );
    expect(describeNotification({ ...base, message: NOTIFICATION_TEXT.statusChanged })).toBe(
      'Diego Hernández cambió el estado de tu ticket #61 · Falla en montacargas',
    );
    expect(describeNotification({ ...base, message: NOTIFICATION_TEXT.activityAdded })).toBe(
      'Diego Hernández registró una actividad en tu ticket #61 · Falla en montacargas',
    );
  });

  it('falls back to the message when the actor is unknown', () => {
    expect(
      describeNotification({ ticket_id: 5, ticket_name: null, actor_name: null, message: NOTIFICATION_TEXT.assigned }),
    ).toBe(NOTIFICATION_TEXT.assigned);
    expect(
      describeNotification({ ticket_id: null, ticket_name: null, actor_name: 'Ana', message: 'Mantenimiento' }),
    ).toBe('Mantenimiento');
  });
});
