import { Button, Group, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface ListHeaderProps {
  /** Left out when the list sits in a tab that already names it. */
  title?: string;
  /** Shows 'Agregar' (the w flag). */
  onAdd?: () => void;
  children?: ReactNode;
}

/** The title of a list screen with its actions on the right. */
export function ListHeader({ title, onAdd, children }: ListHeaderProps) {
  const hasTitle = title !== undefined;
  return (
    <Group justify={hasTitle ? 'space-between' : 'flex-end'} align="flex-end" gap="sm" mih={hasTitle ? 36 : 0}>
      {hasTitle && (
        <Title order={2} size="h3">
          {title}
        </Title>
      )}
      {children}
      {onAdd && (
        <Button leftSection={<IconPlus size={18} />} onClick={onAdd}>
          Agregar
        </Button>
      )}
    </Group>
  );
}
