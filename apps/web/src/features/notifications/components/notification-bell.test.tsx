import { MantineProvider } from '@mantine/core';
import { notifications as toasts } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client.ts';
import { clearSession } from '@/lib/session.ts';
import { startAgentSession } from '@/test/session.ts';
import * as api from '../api/notifications-api.ts';
import { makeNotification } from '../notification-fixtures.ts';
import { NotificationBell } from './notification-bell.tsx';

vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));
vi.mock('../api/notifications-api.ts', () => ({
  fetchActiveNotifications: vi.fn(),
  fetchNotificationHistory: vi.fn(),
  markNotificationsViewed: vi.fn(),
  markNotificationsRead: vi.fn(),
  markAllNotificationsRead: vi.fn(),
  fetchStreamTicket: vi.fn(),
  streamUrl: (ticket: string, since: number) => `/api/notifications/stream?ticket=${ticket}&since=${since}`,
}));

const mocked = vi.mocked(api);
const show = vi.mocked(toasts.show);
const ok = { status: true as const, message: 'ok', data: { updated: 1 } };

/** Stands in for the browser's EventSource (jsdom has none). */
class FakeEventSource {
  static instances: FakeEventSource[] = [];
  listeners = new Map<string, ((event: MessageEvent) => void)[]>();
  onerror: (() => void) | null = null;
  isClosed = false;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.isClosed = true;
  }
  emit(type: string, data: unknown) {
    for (const l of this.listeners.get(type) ?? []) l(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
}

function renderBell() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider env="test">
      <MemoryRouter>
        <QueryClientProvider client={client}>
          <NotificationBell />
        </QueryClientProvider>
      </MemoryRouter>
    </MantineProvider>,
  );
}

const bell = () => screen.getByRole('button', { name: /^Notificaciones:/ });
const flush = () => act(() => vi.advanceTimersByTimeAsync(0));

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
  vi.setSystemTime(Date.parse('2025-03-10T12:00:00Z'));
  startAgentSession();
  mocked.fetchActiveNotifications.mockResolvedValue({ status: true, data: [], total: 0 });
  mocked.fetchNotificationHistory.mockResolvedValue({ status: true, data: [], has_more: false });
  mocked.markNotificationsViewed.mockResolvedValue(ok);
  mocked.markNotificationsRead.mockResolvedValue(ok);
  mocked.markAllNotificationsRead.mockResolvedValue(ok);
  mocked.fetchStreamTicket.mockResolvedValue({ status: true, message: 'ok', data: { ticket: 't1', expires_in: 30 } });
});

afterEach(() => {
  clearSession();
  vi.useRealTimers();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  FakeEventSource.instances = [];
  document.title = 'Tickets';
});

describe('notification bell', () => {
  it('shows the unseen count on the badge, in its name and in the tab title', async () => {
    mocked.fetchActiveNotifications.mockResolvedValue({
      status: true,
      data: [makeNotification(3), makeNotification(2), makeNotification(1, { viewed: 1 })],
      total: 3,
    });
    renderBell();
    await flush();
    expect(bell()).toHaveAccessibleName('Notificaciones: 2 sin ver');
    expect(screen.getByTestId('notification-badge')).toHaveTextContent('2');
    expect(document.title).toBe('Tickets (2)');
  });

  it('shows 99+ above 99', async () => {
    const many = Array.from({ length: 100 }, (_, i) => makeNotification(i + 1));
    mocked.fetchActiveNotifications.mockResolvedValue({ status: true, data: many, total: 140 });
    renderBell();
    await flush();
    expect(screen.getByTestId('notification-badge')).toHaveTextContent('99+');
    expect(document.title).toBe('Tickets (99+)');
  });

  it('opens a 350 px dropdown with the empty state, and a history toggle with its own empty state', async () => {
    renderBell();
    await flush();
    expect(document.title).toBe('Tickets');
    fireEvent.click(bell());
    await flush();
    const dropdown = screen.getByRole('dialog');
    // Mantine writes sizes in rem: 21.875rem is 350 px, 18.75rem is 300 px.
    expect(dropdown.getAttribute('style')).toMatch(/width: calc\(21\.875rem/);
    expect(within(dropdown).getByText('No tienes notificaciones por ahora')).toBeInTheDocument();
    expect(screen.getByTestId('notification-scroll').getAttribute('style')).toMatch(/max-height: calc\(18\.75rem/);

    fireEvent.click(within(dropdown).getByRole('switch', { name: 'Historial' }));
    await flush();
    expect(within(dropdown).getByText('No hay historial de notificaciones')).toBeInTheDocument();
  });

  it('lists history read-only (no removal), with older pages on demand', async () => {
    mocked.fetchNotificationHistory
      .mockResolvedValueOnce({ status: true, data: [makeNotification(5, { visible: 0, viewed: 1 })], has_more: true })
      .mockResolvedValueOnce({ status: true, data: [makeNotification(4, { visible: 0, viewed: 1 })], has_more: false });
    renderBell();
    await flush();
    fireEvent.click(bell());
    fireEvent.click(screen.getByRole('switch', { name: 'Historial' }));
    await flush();
    const history = screen.getByRole('list', { name: 'Historial de notificaciones' });
    expect(within(history).getAllByRole('listitem')).toHaveLength(1);
    expect(within(history).queryByRole('button', { name: /Eliminar/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Cargar más' }));
    await flush();
    expect(mocked.fetchNotificationHistory).toHaveBeenLastCalledWith(5);
    expect(within(history).getAllByRole('listitem')).toHaveLength(2);
  });

  it('marks the unseen ones viewed 3 s after opening, not before', async () => {
    mocked.fetchActiveNotifications.mockResolvedValue({
      status: true,
      data: [makeNotification(2), makeNotification(1)],
      total: 2,
    });
    renderBell();
    await flush();
    fireEvent.click(bell());
    await act(() => vi.advanceTimersByTimeAsync(2900));
    expect(mocked.markNotificationsViewed).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(mocked.markNotificationsViewed).toHaveBeenCalledWith([2, 1]);
    expect(bell()).toHaveAccessibleName('Notificaciones: ninguna nueva');
    expect(document.title).toBe('Tickets');
  });

  it('removes one with a swipe left over 100 px, keeps it for a shorter one, and also by button', async () => {
    mocked.fetchActiveNotifications.mockResolvedValue({
      status: true,
      data: [makeNotification(3), makeNotification(2), makeNotification(1)],
      total: 3,
    });
    renderBell();
    await flush();
    fireEvent.click(bell());
    const items = () => screen.getAllByTestId('notification-item');
    const swipe = (item: HTMLElement, dx: number) => {
      const surface = item.firstElementChild!;
      fireEvent.pointerDown(surface, { clientX: 300, button: 0, pointerId: 1 });
      fireEvent.pointerMove(surface, { clientX: 300 + dx / 2, pointerId: 1 });
      fireEvent.pointerMove(surface, { clientX: 300 + dx, pointerId: 1 });
      fireEvent.pointerUp(surface, { clientX: 300 + dx, pointerId: 1 });
    };

    swipe(items()[0]!, -80);
    expect(items()).toHaveLength(3);
    expect(mocked.markNotificationsRead).not.toHaveBeenCalled();

    swipe(items()[0]!, -130);
    await flush();
    expect(items().map((i) => i.dataset.notificationId)).toEqual(['2', '1']);
    expect(mocked.markNotificationsRead).toHaveBeenCalledWith([3]);

    fireEvent.click(screen.getByRole('button', { name: 'Eliminar notificación Ticket #20' }));
    await flush();
    expect(items().map((i) => i.dataset.notificationId)).toEqual(['1']);

    // Keyboard: Delete on the focused item.
    fireEvent.keyDown(items()[0]!, { key: 'Delete' });
    await flush();
    expect(screen.getByText('No tienes notificaciones por ahora')).toBeInTheDocument();
    expect(mocked.markNotificationsRead).toHaveBeenCalledTimes(3);
  });

  it('deletes all: marks all read, clears and says Eliminadas', async () => {
    mocked.fetchActiveNotifications.mockResolvedValue({ status: true, data: [makeNotification(1)], total: 1 });
    renderBell();
    await flush();
    fireEvent.click(bell());
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar todas' }));
    await flush();
    expect(mocked.markAllNotificationsRead).toHaveBeenCalledTimes(1);
    expect(screen.getByText('No tienes notificaciones por ahora')).toBeInTheDocument();
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ title: 'Eliminadas', autoClose: 2000 }));
  });

  it('keeps them when delete all fails, with the Spanish failure message', async () => {
    mocked.fetchActiveNotifications.mockResolvedValue({ status: true, data: [makeNotification(1)], total: 1 });
    mocked.markAllNotificationsRead.mockRejectedValue(new ApiError('Error 500', 500));
    renderBell();
    await flush();
    fireEvent.click(bell());
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar todas' }));
    await flush();
    expect(show).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'No se pudieron eliminar las notificaciones.', color: 'red' }),
    );
    expect(screen.getAllByTestId('notification-item')).toHaveLength(1);
  });

  it('polls every 60 s and on tab visible, never more than once per 30 s, bell click included', async () => {
    renderBell();
    await flush();
    expect(mocked.fetchActiveNotifications).toHaveBeenCalledTimes(1);

    fireEvent.click(bell()); // 0 s after the last fetch: throttled
    fireEvent.click(bell());
    document.dispatchEvent(new Event('visibilitychange'));
    await flush();
    expect(mocked.fetchActiveNotifications).toHaveBeenCalledTimes(1);

    await act(() => vi.advanceTimersByTimeAsync(31_000));
    document.dispatchEvent(new Event('visibilitychange'));
    await flush();
    expect(mocked.fetchActiveNotifications).toHaveBeenCalledTimes(2);

    await act(() => vi.advanceTimersByTimeAsync(29_500)); // the 60 s tick, 29.5 s after the last fetch
    expect(mocked.fetchActiveNotifications).toHaveBeenCalledTimes(2);
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(mocked.fetchActiveNotifications).toHaveBeenCalledTimes(3);
  });

  it('announces a new one with a 1 s toast, ignores duplicates by id and survives a reload', async () => {
    mocked.fetchActiveNotifications
      .mockResolvedValueOnce({ status: true, data: [makeNotification(1)], total: 1 })
      .mockResolvedValue({ status: true, data: [makeNotification(2), makeNotification(1)], total: 2 });
    const view = renderBell();
    await flush();
    expect(show).toHaveBeenCalledTimes(1);
    expect(show).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'Ticket #10', message: 'Se te ha asignado un nuevo ticket', autoClose: 1000 }),
    );
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(show).toHaveBeenCalledTimes(2);
    expect(JSON.parse(window.localStorage.getItem('processedNotificationIds')!)).toEqual([1, 2]);

    // A reload starts from storage and announces nothing already processed.
    view.unmount();
    show.mockClear();
    renderBell();
    expect(screen.getByTestId('notification-badge')).toHaveTextContent('2');
    await flush();
    expect(show).not.toHaveBeenCalled();
  });

  it('takes live pushes from the stream, deduplicated, and reconnects with a new ticket when it fails', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    mocked.fetchActiveNotifications.mockResolvedValue({ status: true, data: [makeNotification(4)], total: 1 });
    mocked.fetchStreamTicket
      .mockResolvedValueOnce({ status: true, message: 'ok', data: { ticket: 'first', expires_in: 30 } })
      .mockResolvedValueOnce({ status: true, message: 'ok', data: { ticket: 'second', expires_in: 30 } });
    renderBell();
    await flush();
    const [source] = FakeEventSource.instances;
    expect(source!.url).toMatch(/ticket=first&since=\d+/);
    act(() => source!.emit('ready', { since: 4 }));
    fireEvent.click(bell());
    expect(screen.getByText('En vivo')).toBeInTheDocument();

    act(() => source!.emit('notification', makeNotification(5)));
    act(() => source!.emit('notification', makeNotification(5)));
    expect(screen.getAllByTestId('notification-item').map((i) => i.dataset.notificationId)).toEqual(['5', '4']);
    expect(show).toHaveBeenCalledTimes(2); // 4 from the first load, 5 once

    act(() => source!.onerror?.());
    expect(source!.isClosed).toBe(true);
    expect(screen.getByText('Cada minuto')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1600));
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(FakeEventSource.instances[1]!.url).toMatch(/ticket=second&since=5/);
  });
});
