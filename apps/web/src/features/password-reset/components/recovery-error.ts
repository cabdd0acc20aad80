import { PASSWORD_RESET_MSG } from '@portal/contract';
import { errorText, isApiError } from '@/lib/api-client.ts';

/** The server's message, a network failure's own text, else the screen's fallback. */
export function recoveryErrorText(error: unknown, fallback: string): string {
  if (isApiError(error) && error.details.isNetworkError) return PASSWORD_RESET_MSG.connectionFailed;
  return errorText(error, fallback);
}
