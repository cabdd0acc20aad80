import { ActionIcon, Indicator, Popover, VisuallyHidden } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useEffect, useId, useState } from 'react';
import { useSession } from '@/lib/session.ts';
import { useNotificationCenter } from '../hooks/use-notification-center.ts';
import { badgeLabel, tabTitle, VIEW_AFTER_MS } from '../notifications-state.ts';
import { NotificationPanel } from './notification-panel.tsx';

export { badgeLabel };

/** The dropdown is 350 px wide. */
export const DROPDOWN_WIDTH = 350;

/** 'Tickets (n)' in the browser tab while notifications are unseen. */
function useTabTitle(count: number) {
  useEffect(() => {
    document.title = tabTitle(count);
  }, [count]);
  useEffect(
    () => () => {
      document.title = tabTitle(0);
    },
    [],
  );
}

function SignedInBell({ userId }: { userId: number }) {
  const center = useNotificationCenter(userId);
  const { markViewed, refresh } = center;
  const [isOpen, setOpen] = useState(false);
  const [isHistory, setHistory] = useState(false);
  const titleId = useId();
  useTabTitle(center.unseen);

  // What is unseen when the dropdown opens becomes seen 3 s later.
  const unseenKey = center.items
    .filter((n) => n.viewed === 0)
    .map((n) => n.id)
    .join(',');
  useEffect(() => {
    if (!isOpen || unseenKey === '') return;
    const timer = window.setTimeout(() => void markViewed(unseenKey.split(',').map(Number)), VIEW_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [isOpen, unseenKey, markViewed]);

  const toggle = () => {
    if (!isOpen) void refresh();
    setOpen(!isOpen);
  };

  const label = `Notificaciones: ${center.unseen === 0 ? 'ninguna nueva' : `${badgeLabel(center.unseen)} sin ver`}`;

  return (
    <>
      {/* The badge wraps the popover, so the popover's roles land on the button itself. */}
      <Indicator
        label={badgeLabel(center.unseen)}
        size={16}
        color="red"
        offset={6}
        disabled={center.unseen === 0}
        data-testid="notification-badge"
      >
        <Popover
          opened={isOpen}
          onChange={setOpen}
          width={DROPDOWN_WIDTH}
          position="bottom-end"
          shadow="md"
          radius="md"
          trapFocus
          returnFocus
          withinPortal
        >
          <Popover.Target>
            <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} onClick={toggle}>
              <IconBell size={20} stroke={1.7} />
            </ActionIcon>
          </Popover.Target>
          <Popover.Dropdown
            p={0}
            aria-labelledby={titleId}
            data-testid="notification-dropdown"
            style={{ maxWidth: 'calc(100vw - 16px)' }}
          >
            <NotificationPanel
              titleId={titleId}
              items={center.items}
              streamStatus={center.streamStatus}
              isHistory={isHistory}
              onHistoryChange={setHistory}
              onRemove={(id) => void center.remove(id)}
              onRemoveAll={center.removeAll}
              onOpen={() => setOpen(false)}
            />
          </Popover.Dropdown>
        </Popover>
      </Indicator>
      <VisuallyHidden aria-live="polite">{center.unseen > 0 ? label : ''}</VisuallyHidden>
    </>
  );
}

/**
 * The top bar's bell: unread badge, dropdown with the tray and the history,
 * live push with polling behind it, and the tab title count.
 */
export function NotificationBell() {
  const session = useSession();
  if (!session) return null;
  return <SignedInBell key={session.user.id} userId={session.user.id} />;
}
