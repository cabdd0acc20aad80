import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { SessionExpiryWatcher } from '@/features/auth/components/session-expiry-watcher.tsx';
import { readStorage, writeStorage } from '@/lib/storage.ts';
import { useMedia } from '@/lib/use-media.ts';
import { useCommandPalette } from '../command-palette/use-command-palette.tsx';
import QueryProvider from '../query-provider.tsx';
import classes from './layout.module.css';
import { Sidebar } from './sidebar.tsx';
import { TopBar } from './top-bar.tsx';

/** One sidebar variant, 90 px collapsed and 250 px expanded. */
export const SIDEBAR_COLLAPSED = 90;
export const SIDEBAR_EXPANDED = 250;
const LOCK_KEY = 'sidebarLocked';

/** The signed-in frame: sidebar, top bar, the screen, and the session-expiry watcher. */
export default function AppLayout({ children }: { children?: ReactNode }) {
  return (
    <QueryProvider>
      <Frame>{children}</Frame>
    </QueryProvider>
  );
}

/** The frame itself, inside the query client (the command palette asks for the user's routes). */
function Frame({ children }: { children?: ReactNode }) {
  const palette = useCommandPalette();
  const [isLocked, setLocked] = useState(() => readStorage(LOCK_KEY) !== '0');
  const [isHovered, setHovered] = useState(false);
  const [isDrawerOpen, drawer] = useDisclosure(false);
  const isMobile = useMedia('(max-width: 47.99em)');
  const { pathname } = useLocation();

  useEffect(() => drawer.close(), [pathname]); // eslint-disable-line react-hooks/exhaustive-deps

  const toggleLock = () => {
    setLocked((was) => {
      writeStorage(LOCK_KEY, was ? '0' : '1');
      return !was;
    });
    setHovered(false);
  };
  const isExpanded = isMobile || isLocked || isHovered;

  return (
    <>
      <AppShell
        layout="alt"
        header={{ height: 64 }}
        navbar={{
          width: isLocked ? SIDEBAR_EXPANDED : SIDEBAR_COLLAPSED,
          breakpoint: 'sm',
          collapsed: { mobile: !isDrawerOpen },
        }}
        padding="md"
      >
        <AppShell.Header className={classes.header}>
          <TopBar
            isDrawerOpen={isDrawerOpen}
            onToggleDrawer={drawer.toggle}
            onOpenPalette={palette.open}
            onPrefetchPalette={palette.prefetch}
          />
        </AppShell.Header>
        <AppShell.Navbar
          className={classes.navbar}
          data-expanded={isExpanded || undefined}
          data-locked={isLocked || undefined}
          onMouseEnter={() => setHovered(true)}
          onMouseLeave={() => setHovered(false)}
          aria-label="Menú principal"
        >
          <Sidebar
            isExpanded={isExpanded}
            isLocked={isLocked}
            isMobile={isMobile}
            onToggleLock={toggleLock}
            onCloseDrawer={drawer.close}
          />
        </AppShell.Navbar>
        <AppShell.Main className={classes.main}>
          <Suspense fallback={<PageLoader />}>{children ?? <Outlet />}</Suspense>
        </AppShell.Main>
        <SessionExpiryWatcher />
      </AppShell>
      {palette.element}
    </>
  );
}
