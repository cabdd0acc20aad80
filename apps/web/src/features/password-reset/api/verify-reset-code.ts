import type { TVerifyResetCodeRequest, TVerifyResetCodeResponse } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

export const verifyResetCode = (body: TVerifyResetCodeRequest) =>
  api.post<TVerifyResetCodeResponse>('/password/verify-reset-code', body, { isPublic: true });

export const useVerifyResetCode = () => useMutation({ mutationFn: verifyResetCode });
