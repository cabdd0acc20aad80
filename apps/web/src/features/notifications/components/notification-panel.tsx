import { Badge, Button, Center, Group, Loader, ScrollArea, Stack, Switch, Text } from '@mantine/core';
import { NOTIFICATION_TEXT, type TNotification } from '@portal/contract';
import { IconBellOff, IconHistory } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { fetchNotificationHistory } from '../api/notifications-api.ts';
import type { StreamStatus } from '../hooks/use-notification-stream.ts';
import { NotificationItem } from './notification-item.tsx';
import classes from './notifications.module.css';

/** The list is at most 300 px high. */
export const LIST_MAX_HEIGHT = 300;
export const historyQueryKey = ['notifications', 'history'] as const;

interface NotificationPanelProps {
  titleId: string;
  items: TNotification[];
  streamStatus: StreamStatus;
  isHistory: boolean;
  onHistoryChange: (isHistory: boolean) => void;
  onRemove: (id: number) => void;
  onRemoveAll: () => Promise<boolean>;
  /** A notification was opened (its ticket's page): the tray closes. */
  onOpen?: () => void;
}

function EmptyState({ text, icon: Icon }: { text: string; icon: typeof IconBellOff }) {
  return (
    <Stack className={classes.empty} gap={6} align="center">
      <Icon size={28} stroke={1.5} color="var(--mantine-color-gray-5)" aria-hidden />
      <Text size="sm" c="dimmed">
        {text}
      </Text>
    </Stack>
  );
}

function HistoryList({ onOpen }: { onOpen?: () => void }) {
  const history = useInfiniteQuery({
    queryKey: historyQueryKey,
    queryFn: ({ pageParam }) => fetchNotificationHistory(pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
    staleTime: 0,
  });

  if (history.isPending) {
    return (
      <Center py="lg">
        <Loader size="sm" aria-label="Cargando historial" />
      </Center>
    );
  }
  if (history.isError) {
    return <EmptyState text="No se pudo cargar el historial de notificaciones." icon={IconHistory} />;
  }
  const items = history.data.pages.flatMap((page) => page.data);
  if (items.length === 0) return <EmptyState text={NOTIFICATION_TEXT.emptyHistory} icon={IconHistory} />;
  return (
    <>
      <ul className={classes.list} aria-label="Historial de notificaciones">
        {items.map((n) => (
          <NotificationItem key={n.id} notification={n} onOpen={onOpen} />
        ))}
      </ul>
      {history.hasNextPage && (
        <Center py={6}>
          <Button
            size="compact-xs"
            variant="subtle"
            loading={history.isFetchingNextPage}
            onClick={() => void history.fetchNextPage()}
          >
            Cargar más
          </Button>
        </Center>
      )}
    </>
  );
}

/** The dropdown of the bell: the tray (swipeable) or, with the toggle, the history (read-only). */
export function NotificationPanel({
  titleId,
  items,
  streamStatus,
  isHistory,
  onHistoryChange,
  onRemove,
  onRemoveAll,
  onOpen,
}: NotificationPanelProps) {
  const [isRemovingAll, setRemovingAll] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);

  // Focus moves to the next notification, so keyboard users (and Escape) stay inside the dropdown.
  const remove = (id: number, index: number) => {
    const hadFocus = listRef.current?.contains(document.activeElement) ?? false;
    onRemove(id);
    if (!hadFocus) return;
    requestAnimationFrame(() => {
      const rows = listRef.current?.querySelectorAll<HTMLElement>(':scope > li');
      const next = rows?.[Math.min(index, rows.length - 1)];
      (next ?? document.getElementById(titleId)?.closest<HTMLElement>('[role="dialog"]'))?.focus();
    });
  };

  const removeAll = async () => {
    setRemovingAll(true);
    await onRemoveAll();
    setRemovingAll(false);
  };

  return (
    <>
      <Stack className={classes.header} gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Text id={titleId} fw={650}>
            Notificaciones
          </Text>
          {streamStatus === 'live' ? (
            <Badge size="xs" variant="dot" color="teal" title="Las notificaciones llegan al instante">
              En vivo
            </Badge>
          ) : (
            <Badge size="xs" variant="dot" color="gray" title="Se actualizan cada minuto">
              Cada minuto
            </Badge>
          )}
        </Group>
        <Group justify="space-between" wrap="nowrap" mih={22}>
          <Switch
            size="xs"
            label="Historial"
            checked={isHistory}
            onChange={(event) => onHistoryChange(event.currentTarget.checked)}
          />
          {!isHistory && items.length > 0 && (
            <Button size="compact-xs" variant="subtle" color="red" loading={isRemovingAll} onClick={removeAll}>
              Eliminar todas
            </Button>
          )}
        </Group>
      </Stack>

      <ScrollArea.Autosize mah={LIST_MAX_HEIGHT} type="auto" data-testid="notification-scroll">
        {isHistory ? (
          <HistoryList onOpen={onOpen} />
        ) : items.length === 0 ? (
          <EmptyState text={NOTIFICATION_TEXT.empty} icon={IconBellOff} />
        ) : (
          <ul className={classes.list} aria-label="Notificaciones sin leer" ref={listRef}>
            {items.map((n, index) => (
              <NotificationItem key={n.id} notification={n} onRemove={() => remove(n.id, index)} onOpen={onOpen} />
            ))}
          </ul>
        )}
      </ScrollArea.Autosize>

      {!isHistory && items.length > 0 && (
        <Text className={classes.footer} size="xs" c="dimmed">
          Desliza una notificación a la izquierda para eliminarla.
        </Text>
      )}
    </>
  );
}
