import type {
  TActiveNotificationsResponse,
  TNotificationHistoryResponse,
  TNotificationUpdateResponse,
  TStreamTicketResponse,
} from '@portal/contract';
import { api, API_BASE } from '@/lib/api-client.ts';

export const fetchActiveNotifications = () => api.get<TActiveNotificationsResponse>('/notifications/active-records');

export const fetchNotificationHistory = (beforeId?: number) =>
  api.get<TNotificationHistoryResponse>(
    `/notifications/all-data${beforeId === undefined ? '' : `?before_id=${beforeId}`}`,
  );

export const markNotificationsViewed = (ids: number[]) =>
  api.post<TNotificationUpdateResponse>('/notifications/view', { ids });

/** Read notifications leave the tray: swipe removal. */
export const markNotificationsRead = (ids: number[]) =>
  api.post<TNotificationUpdateResponse>('/notifications/read', { ids });

export const markAllNotificationsRead = () => api.post<TNotificationUpdateResponse>('/notifications/read-all');

export const fetchStreamTicket = () => api.post<TStreamTicketResponse>('/notifications/stream-ticket');

/** EventSource cannot send the bearer header: the URL carries a single-use ticket instead of the token. */
export const streamUrl = (ticket: string, since: number) =>
  `${API_BASE}/notifications/stream?${new URLSearchParams({ ticket, since: String(since) })}`;
