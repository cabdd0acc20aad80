import {
  ActionIcon,
  Burger,
  Divider,
  Group,
  Menu,
  Stack,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
  useMantineColorScheme,
} from '@mantine/core';
import { useFullscreenDocument } from '@mantine/hooks';
import { DEFAULT_AVATAR_URL } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import {
  IconCheck,
  IconDeviceDesktop,
  IconLogout,
  IconMaximize,
  IconMinimize,
  IconMoon,
  IconSearch,
  IconSettings,
  IconSun,
  IconUserCircle,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { DEFAULT_MENU_ICON, DEFAULT_MENU_NAME, entryForPath } from '@/config/menu.ts';
import { paths } from '@/config/paths.ts';
import { UserAvatar } from '@/components/ui/user-avatar.tsx';
import { NotificationBell } from '@/features/notifications/components/notification-bell.tsx';
import { imageQuery } from '@/features/profile/api/profile-api.ts';
import { AbsenceBadge, AbsenceMenuItem } from '@/features/profile/components/absence-controls.tsx';
import { colorSchemeOptions } from '@/lib/color-scheme.ts';
import { fullName, useSession } from '@/lib/session.ts';
import { isApplePlatform } from '../command-palette/hotkeys.ts';

const schemeIcons = { light: IconSun, dark: IconMoon, auto: IconDeviceDesktop };

interface TopBarProps {
  isDrawerOpen: boolean;
  onToggleDrawer: () => void;
  onOpenPalette: () => void;
  /** Fetches the palette's code ahead of a likely click. */
  onPrefetchPalette: () => void;
}

export function TopBar({ isDrawerOpen, onToggleDrawer, onOpenPalette, onPrefetchPalette }: TopBarProps) {
  const session = useSession();
  const { pathname } = useLocation();
  const entry = entryForPath(pathname);
  const Icon = entry.icon ?? DEFAULT_MENU_ICON;
  const title = entry.name ?? DEFAULT_MENU_NAME;
  const { toggle: toggleFullscreen, fullscreen } = useFullscreenDocument();
  const paletteKeys = isApplePlatform() ? '⌘K' : 'Ctrl+K';
  const user = session?.user;
  const name = user ? fullName(user) : '';
  // The uploaded photo (GET /images/{id}); the initials stand in for the default silhouette.
  const image = useQuery({ ...imageQuery(user?.id ?? 0), enabled: !!user });
  const photo = image.data && image.data !== DEFAULT_AVATAR_URL ? image.data : undefined;

  return (
    <>
      <Burger
        opened={isDrawerOpen}
        onClick={onToggleDrawer}
        hiddenFrom="sm"
        size="sm"
        aria-label={isDrawerOpen ? 'Cerrar menú' : 'Abrir menú'}
      />
      <Group gap="sm" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
        <ThemeIcon variant="light" size="lg" radius="md" visibleFrom="xs">
          <Icon size={20} stroke={1.7} />
        </ThemeIcon>
        <Title order={1} size="h4" fw={650} lineClamp={1}>
          {title}
        </Title>
      </Group>

      <Group gap={6} wrap="nowrap">
        <Tooltip label={`Buscar y navegar (${paletteKeys})`}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            onClick={onOpenPalette}
            onPointerEnter={onPrefetchPalette}
            onFocus={onPrefetchPalette}
            aria-label="Abrir la paleta de comandos"
            aria-keyshortcuts="Control+K Meta+K"
          >
            <IconSearch size={20} stroke={1.7} />
          </ActionIcon>
        </Tooltip>
        <NotificationBell />
        <Tooltip label={fullscreen ? 'Salir de pantalla completa' : 'Pantalla completa'}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            onClick={toggleFullscreen}
            aria-label={fullscreen ? 'Salir de pantalla completa' : 'Pantalla completa'}
            visibleFrom="xs"
          >
            {fullscreen ? <IconMinimize size={20} stroke={1.7} /> : <IconMaximize size={20} stroke={1.7} />}
          </ActionIcon>
        </Tooltip>
        {user && <AbsenceBadge userId={user.id} />}
        <Divider orientation="vertical" mx={4} visibleFrom="sm" />
        <Group gap="sm" wrap="nowrap">
          <UserAvatar name={name} src={photo} size={36} />
          <Stack gap={0} visibleFrom="sm" style={{ lineHeight: 1.2 }}>
            <Text size="sm" fw={600} lh={1.3}>
              {name}
            </Text>
            <Text size="xs" c="dimmed" lh={1.3}>
              @{user?.username || 'Usuario'}
            </Text>
          </Stack>
        </Group>
        <Menu position="bottom-end" width={200} shadow="md">
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Configuración de la cuenta">
              <IconSettings size={20} stroke={1.7} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item component={Link} to={paths.usersProfile} leftSection={<IconUserCircle size={16} />}>
              Perfil
            </Menu.Item>
            {user && <AbsenceMenuItem userId={user.id} />}
            <ColorSchemeItems />
            <Menu.Divider />
            <Menu.Item component={Link} to={paths.logout} color="red" leftSection={<IconLogout size={16} />}>
              Salir
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </>
  );
}

/** Claro / Oscuro / Sistema in the gear menu: a radio group, remembered per browser. */
function ColorSchemeItems() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <>
      <Menu.Divider />
      <Menu.Label id="color-scheme-label">Tema</Menu.Label>
      <div role="group" aria-labelledby="color-scheme-label">
        {colorSchemeOptions.map(({ value, label }) => {
          const Icon = schemeIcons[value];
          const isChecked = colorScheme === value;
          return (
            <Menu.Item
              key={value}
              // Mantine gives every item role="menuitem"; these three are a radio group.
              renderRoot={(props) => <button type="button" {...props} role="menuitemradio" aria-checked={isChecked} />}
              closeMenuOnClick={false}
              leftSection={<Icon size={16} />}
              rightSection={isChecked ? <IconCheck size={14} aria-hidden /> : null}
              onClick={() => setColorScheme(value)}
            >
              {label}
            </Menu.Item>
          );
        })}
      </div>
    </>
  );
}
