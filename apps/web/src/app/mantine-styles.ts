import restUrl from './mantine-rest.css?url';

let markLoaded: () => void;
/** Settles once mantine-rest.css has loaded (or failed): the toasts, styled by it, wait for it. */
export const remainingMantineStyles = new Promise<void>((resolve) => {
  markLoaded = () => resolve();
});

/**
 * Adds the stylesheet of the Mantine components the first screens do not show
 * (mantine-rest.css) once the page has loaded and the browser is idle, so that
 * it does not hold up the first paint. It goes right after the entry's stylesheet (Mantine's first
 * part), before the screens' own stylesheets: the cascade is the same as with
 * the whole of @mantine/core/styles.css imported first.
 */
export function addRemainingMantineStyles(): void {
  const add = () => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = restUrl;
    link.addEventListener('load', markLoaded, { once: true });
    link.addEventListener('error', markLoaded, { once: true });
    // Built: the entry's <link>; in development, Vite's <style> of mantine-first.css.
    const first = document.querySelector(
      'link[rel="stylesheet"][href*="/assets/index-"], style[data-vite-dev-id$="/mantine-first.css"]',
    );
    if (first) first.after(link);
    else document.head.prepend(link);
  };
  // Parsing it takes a slow phone's main thread for a while: not before the first screen has rendered.
  const addWhenIdle = () =>
    typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(add, { timeout: 2000 }) : add();
  if (document.readyState === 'complete') addWhenIdle();
  else window.addEventListener('load', addWhenIdle, { once: true });
}
