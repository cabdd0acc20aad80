import { MantineProvider } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { BrowserRouter } from 'react-router';
import { onSessionLost } from '@/lib/api-client.ts';
import { colorSchemeManager } from '@/lib/color-scheme.ts';
import { notifyWarning } from '@/lib/notify.ts';
import { clearSession, getSession } from '@/lib/session.ts';
import classes from './app.module.css';
import { AppRoutes } from './router.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

// The toasts' container arrives after the first paint; `notifications.show()` queues until then.
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

// SPEC §4: a 401 or an HTML answer clears the session; the guards then show /login.
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
      <Suspense fallback={null}>
        <Notifications position="top-right" limit={4} zIndex={1000} className={classes.toasts} />
      </Suspense>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </MantineProvider>
  );
}
