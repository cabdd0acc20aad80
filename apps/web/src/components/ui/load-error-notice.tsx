import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { isSessionLost } from '@/lib/api-client.ts';

/** What a list that failed to load says. */
export const LOAD_FAILED = 'Error al cargar los datos. Inténtalo nuevamente.';

interface LoadErrorNoticeProps {
  error: Error | null;
  /** `null` for a notice that is only its text. */
  title?: string | null;
  /** What the notice says; the error's message unless given. */
  children?: ReactNode;
  /** Offers 'Reintentar'. */
  onRetry?: () => void;
}

/**
 * The fixed notice of a list that failed to load. Nothing when the
 * failure ended the session: the sign-in screen is on its way.
 */
export function LoadErrorNotice({ error, title = LOAD_FAILED, children, onRetry }: LoadErrorNoticeProps) {
  if (!error || isSessionLost(error)) return null;
  const text = children ?? error.message;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle />}
      title={title ?? undefined}
      role="alert"
      withCloseButton={false}
    >
      {onRetry ? (
        <Group justify="space-between" gap="xs">
          <Text size="sm">{text}</Text>
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            Reintentar
          </Button>
        </Group>
      ) : (
        text
      )}
    </Alert>
  );
}
