import type { TSendResetCodeRequest, TSendResetCodeResponse } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

export const sendResetCode = (body: TSendResetCodeRequest) =>
  api.post<TSendResetCodeResponse>('/password/send-reset-code', body, { isPublic: true });

export const useSendResetCode = () => useMutation({ mutationFn: sendResetCode });
