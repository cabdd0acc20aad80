import '@fontsource/inter/latin-400.css';
import '@fontsource/inter/latin-500.css';
import '@fontsource/inter/latin-600.css';
import '@fontsource/inter/latin-700.css';
import './app/mantine-first.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { listenForEarlyPaletteShortcut } from './app/command-palette/early-palette-key.ts';
import { addRemainingMantineStyles } from './app/mantine-styles.ts';
import { preloadScreenOf } from './app/router.tsx';

listenForEarlyPaletteShortcut();

// The opened address's code and first data are asked for before React renders anything.
preloadScreenOf(window.location.pathname, window.location.search);

// A transition: React renders the first screen in slices of a few milliseconds, so the
// browser is never blocked by one long task while the app starts (Lighthouse's TBT).
startTransition(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
addRemainingMantineStyles();
