import { Stack, Text } from '@mantine/core';
import { EmptyIllustration } from './illustrations.tsx';

interface EmptyStateProps {
  /** The text shown when the list is empty. */
  title?: string;
  hint?: string;
  /** Smaller, for a table inside a modal. */
  isCompact?: boolean;
}

/** An empty list: the illustration and its text. */
export function EmptyState({ title = 'Sin resultados por ahora', hint, isCompact = false }: EmptyStateProps) {
  return (
    <Stack align="center" gap={6} py={isCompact ? 'lg' : 'xl'}>
      <EmptyIllustration size={isCompact ? 90 : undefined} />
      <Text fw={600}>{title}</Text>
      {hint && (
        <Text size="sm" c="dimmed">
          {hint}
        </Text>
      )}
    </Stack>
  );
}
