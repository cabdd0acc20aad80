import { Anchor, Box, CloseButton, Group, Text } from '@mantine/core';
import type { TNotification } from '@portal/contract';
import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ticketPath } from '@/config/paths.ts';
import { describeNotification, formatFullDate, formatWhen, SWIPE_REMOVE_PX } from '../notifications-state.ts';
import classes from './notifications.module.css';

interface NotificationItemProps {
  notification: TNotification;
  /** Present in the tray; the history is read-only (not swipeable). */
  onRemove?: () => void;
  /** Called when the notification is opened (its ticket's page), e.g. to close the tray. */
  onOpen?: () => void;
}

/**
 * One notification. In the tray, swiping or dragging it left past 100 px
 * removes it; the close button (and the Delete key) do the same for keyboard
 * and screen-reader users.
 */
export function NotificationItem({ notification, onRemove, onOpen }: NotificationItemProps) {
  const navigate = useNavigate();
  const href = notification.ticket_id === null ? null : ticketPath(notification.ticket_id);
  const moved = useRef(false);
  const [offset, setOffset] = useState(0);
  const [isDragging, setDragging] = useState(false);
  const startX = useRef<number | null>(null);
  const isUnseen = notification.viewed === 0;
  const description = describeNotification(notification);
  const label = `${notification.title}: ${description}`;

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (!onRemove || event.button !== 0 || (event.target as HTMLElement).closest('button')) return;
    startX.current = event.clientX;
    moved.current = false;
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (startX.current === null) return;
    const dx = Math.min(0, event.clientX - startX.current);
    if (dx < -4) moved.current = true;
    if (!isDragging && dx < -4) {
      setDragging(true);
      event.currentTarget.setPointerCapture?.(event.pointerId);
    }
    setOffset(dx);
  };
  const finish = (isCancelled: boolean) => {
    const shouldRemove = !isCancelled && offset < -SWIPE_REMOVE_PX;
    startX.current = null;
    setDragging(false);
    if (shouldRemove) onRemove?.();
    else setOffset(0);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    if (onRemove && (event.key === 'Delete' || event.key === 'Backspace') && event.target === event.currentTarget) {
      event.preventDefault();
      onRemove();
    }
  };

  return (
    <li
      className={classes.item}
      data-unseen={isUnseen || undefined}
      tabIndex={onRemove ? 0 : undefined}
      aria-label={`${isUnseen ? 'Nueva. ' : ''}${label}`}
      onKeyDown={onKeyDown}
      data-testid="notification-item"
      data-notification-id={notification.id}
    >
      <Box
        className={classes.swipe}
        data-swipeable={onRemove ? true : undefined}
        data-dragging={isDragging || undefined}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => finish(false)}
        onPointerCancel={() => finish(true)}
        onClick={(event) => {
          // A click (not the end of a swipe, not the close button) opens the ticket.
          if (!href || moved.current || (event.target as HTMLElement).closest('button, a')) return;
          onOpen?.();
          void navigate(href);
        }}
        style={{
          transform: offset ? `translateX(${offset}px)` : undefined,
          opacity: Math.max(0.35, 1 + offset / 300),
          cursor: href ? 'pointer' : undefined,
        }}
      >
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <span className={classes.dot} aria-hidden data-visible={isUnseen || undefined} />
          <Box style={{ flex: 1, minWidth: 0 }}>
            <Group justify="space-between" gap={6} wrap="nowrap">
              <Text size="sm" fw={isUnseen ? 650 : 500} lineClamp={1}>
                {href ? (
                  <Anchor component={Link} to={href} inherit c="inherit" onClick={() => onOpen?.()}>
                    {notification.title}
                  </Anchor>
                ) : (
                  notification.title
                )}
              </Text>
              <Text size="xs" c="dimmed" title={formatFullDate(notification.timestamp)} style={{ flexShrink: 0 }}>
                {formatWhen(notification.timestamp)}
              </Text>
            </Group>
            <Text size="sm" c="dimmed" lineClamp={2}>
              {description}
            </Text>
          </Box>
          {onRemove && (
            <CloseButton
              size="sm"
              aria-label={`Eliminar notificación ${notification.title}`}
              onClick={onRemove}
              className={classes.remove}
            />
          )}
        </Group>
      </Box>
    </li>
  );
}
