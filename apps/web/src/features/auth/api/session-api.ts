import type { TLoginRequest, TLoginResponse } from '@portal/contract';
import { api } from '@/lib/api-client.ts';

export const login = (credentials: TLoginRequest) =>
  api.post<TLoginResponse>('/login', credentials, { isPublic: true });

/** Errors are ignored: the session ends here whatever the server says. */
export const logout = () => api.post<{ status: boolean; message: string }>('/logout').catch(() => undefined);

export const renewToken = () => api.post<{ status: true; message: string; data: { token: string } }>('/renew-token');
