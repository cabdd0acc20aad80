import type {
  TChangePasswordRequest,
  TChangePasswordResponse,
  TImageResponse,
  TLaboralInformation,
  TLastTicket,
  TNotificationPreferences,
  TUser,
  TUserProfileUpdate,
} from '@portal/contract';
import { queryOptions } from '@tanstack/react-query';
import {
  API_BASE,
  ApiError,
  NETWORK_ERROR_MESSAGE,
  SESSION_EXPIRED_MESSAGE,
  api,
  type FieldErrors,
} from '@/lib/api-client.ts';
import { notifyWarning } from '@/lib/notify.ts';
import { clearSession, getToken } from '@/lib/session.ts';

export const profileKeys = {
  user: (id: number) => ['profile', id, 'user'] as const,
  laboral: (id: number) => ['profile', id, 'laboral'] as const,
  lastTickets: ['profile', 'last-tickets'] as const,
  image: (id: number) => ['profile', id, 'image'] as const,
};

export const profileUserQuery = (id: number) =>
  queryOptions({
    queryKey: profileKeys.user(id),
    queryFn: ({ signal }) => api.get<{ status: true; data: TUser }>(`/users/${id}`, { signal }).then((r) => r.data),
  });

export const laboralQuery = (id: number) =>
  queryOptions({
    queryKey: profileKeys.laboral(id),
    queryFn: ({ signal }) => api.get<TLaboralInformation>(`/users/laboral-information/${id}`, { signal }),
  });

/** An array whose first three are shown. */
export const lastTicketsQuery = () =>
  queryOptions({
    queryKey: profileKeys.lastTickets,
    queryFn: async ({ signal }) => (await api.get<TLastTicket[]>('/tickets/last-three', { signal })).slice(0, 3),
  });

export const imageQuery = (id: number) =>
  queryOptions({
    queryKey: profileKeys.image(id),
    queryFn: ({ signal }) => api.get<TImageResponse>(`/images/${id}`, { signal }).then((r) => r.url),
    staleTime: 5 * 60_000,
  });

export const updateProfile = (id: number, body: TUserProfileUpdate) =>
  api.put<{ status: true; message: string; data: TUser }>(`/users/update/${id}`, body);

export const changePassword = (id: number, body: TChangePasswordRequest) =>
  api.post<TChangePasswordResponse>(`/users/change-password/${id}`, body);

/**
 * The avatar goes as multipart form data, which the JSON client does not
 * send; the same bearer token and the same Spanish failures apply.
 */
export async function uploadAvatar(id: number, file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/users/${id}/avatar`, {
      method: 'POST',
      headers: { Accept: 'application/json', Authorization: `Bearer ${getToken() ?? ''}` },
      body: form,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(NETWORK_ERROR_MESSAGE, 500, { isNetworkError: true });
  }
  if (response.status === 401) {
    notifyWarning(SESSION_EXPIRED_MESSAGE, 'Inicia sesión para continuar', 3000);
    clearSession();
    throw new ApiError(SESSION_EXPIRED_MESSAGE, 401, { isSessionLost: true });
  }
  const body = (await response.json().catch(() => null)) as {
    status?: boolean;
    message?: string;
    url?: string;
    errors?: FieldErrors;
  } | null;
  if (!response.ok || !body?.url) {
    throw new ApiError(body?.message ?? `Error ${response.status}`, response.status, { errors: body?.errors });
  }
  return body.url;
}

export const notificationPreferencesQuery = () =>
  queryOptions({
    queryKey: ['profile', 'notification-preferences'] as const,
    queryFn: ({ signal }) =>
      api
        .get<{ status: true; data: TNotificationPreferences }>('/users/notification-preferences', { signal })
        .then((r) => r.data),
  });

export const saveNotificationPreferences = (body: TNotificationPreferences) =>
  api.put<{ status: true; message: string; data: TNotificationPreferences }>('/users/notification-preferences', body);
