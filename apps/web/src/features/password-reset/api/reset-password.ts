import type { TResetPasswordRequest, TResetPasswordResponse } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

export const resetPassword = (body: TResetPasswordRequest) =>
  api.post<TResetPasswordResponse>('/password/reset-password', body, { isPublic: true });

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
