import {
  ActionIcon,
  AppShell,
  Badge,
  Box,
  CloseButton,
  Divider,
  Group,
  NavLink,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconBookmark, IconBookmarks, IconPin, IconPinnedOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { Link, useLocation } from 'react-router';
import { Logo } from '@/components/ui/logo.tsx';
import { DEFAULT_MENU_ICON, DEFAULT_MENU_NAME, filterMenu, logoutItem, menu, type MenuItem } from '@/config/menu.ts';
import { userPermissionsQuery } from '@/lib/permissions.ts';
import { countBadge, savedViewPath, savedViewsQuery, viewIdOf } from '@/lib/saved-views-api.ts';
import { useSession } from '@/lib/session.ts';
import classes from './layout.module.css';

interface SidebarProps {
  isExpanded: boolean;
  isLocked: boolean;
  isMobile: boolean;
  onToggleLock: () => void;
  onCloseDrawer: () => void;
}

const isActivePath = (pathname: string, path?: string) =>
  path !== undefined && (pathname === path || pathname.startsWith(`${path}/`));

export function Sidebar({ isExpanded, isLocked, isMobile, onToggleLock, onCloseDrawer }: SidebarProps) {
  const session = useSession();
  const allowed = useQuery({ ...userPermissionsQuery(session!), enabled: session !== null });
  // Rendered in a deferred (sliced) render, not in the synchronous one the answer arrives in.
  const permissions = useDeferredValue(allowed.data);
  const items = permissions ? filterMenu(menu, permissions) : [];

  return (
    <>
      <Group className={classes.brand} justify="space-between" wrap="nowrap">
        <Logo withText={isExpanded} size={36} />
        {isMobile ? (
          <CloseButton aria-label="Cerrar menú" onClick={onCloseDrawer} />
        ) : (
          isExpanded && (
            <Tooltip label={isLocked ? 'Desfijar menú' : 'Fijar menú abierto'}>
              <ActionIcon
                variant={isLocked ? 'light' : 'subtle'}
                color={isLocked ? 'brand' : 'gray'}
                onClick={onToggleLock}
                aria-label={isLocked ? 'Desfijar menú' : 'Fijar menú abierto'}
                aria-pressed={isLocked}
              >
                {isLocked ? <IconPinnedOff size={18} /> : <IconPin size={18} />}
              </ActionIcon>
            </Tooltip>
          )
        )}
      </Group>

      <AppShell.Section grow component={ScrollArea} py="sm" px={isExpanded ? 'sm' : 0} type="hover">
        <nav aria-label="Secciones">
          {!permissions && !allowed.isError ? (
            <Stack gap={8} px={isExpanded ? 0 : 'md'}>
              {Array.from({ length: 6 }, (_, i) => (
                <Skeleton key={i} height={34} radius="md" />
              ))}
            </Stack>
          ) : (
            <>
              {items.map((item, index) => (
                <MenuEntry key={item.name ?? index} item={item} isExpanded={isExpanded} isFirst={index === 0} />
              ))}
              <SavedViewsEntry isExpanded={isExpanded} />
            </>
          )}
        </nav>
      </AppShell.Section>

      <AppShell.Section className={classes.footer} p={isExpanded ? 'sm' : 0} pb="md">
        <Box pt="xs">
          <Leaf item={logoutItem} isExpanded={isExpanded} color="red" />
        </Box>
      </AppShell.Section>
    </>
  );
}

function MenuEntry({ item, isExpanded, isFirst }: { item: MenuItem; isExpanded: boolean; isFirst: boolean }) {
  if (!item.submenu) return <Leaf item={item} isExpanded={isExpanded} />;
  const Icon = item.icon ?? DEFAULT_MENU_ICON;
  const name = item.name ?? DEFAULT_MENU_NAME;

  if (!isExpanded) {
    // Collapsed: the group is a thin divider and its items are icons with tooltips.
    return (
      <>
        {!isFirst && <Divider my={6} mx="md" />}
        {item.submenu.map((child, i) => (
          <Leaf key={child.path ?? i} item={child} isExpanded={false} />
        ))}
      </>
    );
  }
  return (
    <NavLink
      label={<Text className={classes.groupLabel}>{name}</Text>}
      leftSection={<Icon size={18} stroke={1.6} />}
      defaultOpened
      childrenOffset={14}
      py={8}
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    >
      {item.submenu.map((child, i) => (
        <Leaf key={child.path ?? i} item={child} isExpanded />
      ))}
    </NavLink>
  );
}

function Leaf({ item, isExpanded, color }: { item: MenuItem; isExpanded: boolean; color?: string }) {
  const { pathname } = useLocation();
  const Icon = item.icon ?? DEFAULT_MENU_ICON;
  const name = item.name ?? DEFAULT_MENU_NAME;
  const isActive = isActivePath(pathname, item.path);
  const linkProps = item.action
    ? { component: 'button' as const, onClick: item.action }
    : { component: Link, to: item.path ?? '/' };

  if (!isExpanded) {
    return (
      <Tooltip label={name} position="right" offset={12} events={{ hover: true, focus: true, touch: false }}>
        <Box
          {...(linkProps as object)}
          className={classes.iconLink}
          data-active={isActive || undefined}
          aria-current={isActive ? 'page' : undefined}
          aria-label={name}
          c={color ? `${color}.7` : undefined}
        >
          <Icon size={21} stroke={1.6} />
        </Box>
      </Tooltip>
    );
  }
  return (
    <NavLink
      {...(linkProps as object)}
      label={name}
      leftSection={<Icon size={18} stroke={1.6} />}
      active={isActive}
      aria-current={isActive ? 'page' : undefined}
      color={color}
      variant="light"
      py={7}
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    />
  );
}

/** 'Vistas': the person's saved views and those shared with their role, each with its bounded ticket count. */
function SavedViewsEntry({ isExpanded }: { isExpanded: boolean }) {
  const session = useSession();
  const views = useQuery({ ...savedViewsQuery(), enabled: session !== null });
  const { pathname, search } = useLocation();
  const openId = viewIdOf(new URLSearchParams(search));
  const list = views.data?.data ?? [];
  if (list.length === 0) return null;

  const entries = list.map((view) => {
    const to = savedViewPath(view);
    const isActive = openId === view.id && to.startsWith(`${pathname}?`);
    const count = countBadge(view.count);
    if (!isExpanded) {
      return (
        <Tooltip key={view.id} label={`${view.name} (${count})`} position="right" offset={12}>
          <Box
            component={Link}
            to={to}
            className={classes.iconLink}
            data-active={isActive || undefined}
            aria-current={isActive ? 'page' : undefined}
            aria-label={`Vista ${view.name}, ${count} tickets`}
          >
            <IconBookmark size={21} stroke={1.6} />
          </Box>
        </Tooltip>
      );
    }
    return (
      <NavLink
        key={view.id}
        component={Link}
        to={to}
        label={
          <Text size="sm" truncate>
            {view.name}
          </Text>
        }
        leftSection={<IconBookmark size={18} stroke={1.6} />}
        rightSection={
          <Badge size="sm" variant="light" color="gray" aria-label={`${count} tickets`}>
            {count}
          </Badge>
        }
        active={isActive}
        aria-current={isActive ? 'page' : undefined}
        variant="light"
        py={7}
        style={{ borderRadius: 'var(--mantine-radius-md)' }}
      />
    );
  });

  if (!isExpanded) {
    return (
      <>
        <Divider my={6} mx="md" />
        {entries}
      </>
    );
  }
  return (
    <NavLink
      label={<Text className={classes.groupLabel}>Vistas</Text>}
      leftSection={<IconBookmarks size={18} stroke={1.6} />}
      defaultOpened
      childrenOffset={14}
      py={8}
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    >
      {entries}
    </NavLink>
  );
}
