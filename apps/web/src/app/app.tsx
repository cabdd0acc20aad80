import { MantineProvider } from '@mantine/core';
import { lazy, Suspense, useEffect, useState } from 'react';
import { BrowserRouter } from 'react-router';
import { onSessionLost } from '@/lib/api-client.ts';
import { colorSchemeManager } from '@/lib/color-scheme.ts';
import { notifyWarning, TOASTS_Z_INDEX } from '@/lib/notify.ts';
import { clearSession, getSession } from '@/lib/session.ts';
import classes from './app.module.css';
import { remainingMantineStyles } from './mantine-styles.ts';
import { AppRoutes } from './router.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

/**
 * The toasts' container (a chunk of its own) loads once the browser is first idle, so it
 * takes nothing from the first screen, and once their styles (mantine-rest.css) are in;
 * `notifications.show()` queues until then.
 */
function Toasts() {
  const [isWanted, setWanted] = useState(false);
  useEffect(() => {
    let isGone = false;
    const want = () => void remainingMantineStyles.then(() => !isGone && setWanted(true));
    if (typeof window.requestIdleCallback !== 'function') {
      want();
      return () => void (isGone = true);
    }
    const id = window.requestIdleCallback(want, { timeout: 2000 });
    return () => {
      isGone = true;
      window.cancelIdleCallback(id);
    };
  }, []);
  if (!isWanted) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="top-right" limit={4} zIndex={TOASTS_Z_INDEX} className={classes.toasts} />
    </Suspense>
  );
}

// A 401 or an HTML answer clears the session; the guards then show /login.
onSessionLost((message) => {
  if (getSession()) notifyWarning(message, 'Inicia sesión para continuar', 3000);
  clearSession('expired');
});

export function App() {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
    >
      <Toasts />
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </MantineProvider>
  );
}
