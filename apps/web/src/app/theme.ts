import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';
import { TOASTS_Z_INDEX } from '@/lib/notify.ts';

/** A deep logistics blue: the one brand colour. */
const brand: MantineColorsTuple = [
  '#eaf1fc',
  '#d3e0f6',
  '#a4bfec',
  '#739ce2',
  '#4b7fd9',
  '#316cd4',
  '#2362d3',
  '#1652bb',
  '#0f3f99',
  '#07337f',
];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 8, dark: 6 },
  colors: { brand },
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif', fontWeight: '650' },
  defaultRadius: 'md',
  focusRing: 'auto',
  components: {
    Tooltip: { defaultProps: { withArrow: true, openDelay: 150 } },
    // An open menu or popover is what the user acts on: above the toasts, which start below the
    // top bar right where its account menu and notifications drop.
    Menu: { defaultProps: { zIndex: TOASTS_Z_INDEX + 1 } },
    Popover: { defaultProps: { zIndex: TOASTS_Z_INDEX + 1 } },
    // Every toast's close button has a name (shown with notifications.show() anywhere).
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Cerrar notificación' } } },
    Modal: {
      defaultProps: {
        centered: true,
        overlayProps: { backgroundOpacity: 0.45, blur: 2 },
        closeButtonProps: { 'aria-label': 'Cerrar' },
      },
    },
  },
});

/**
 * Dimmed text one shade stronger than Mantine's default in each scheme, and in
 * the dark scheme a lighter link blue, so both keep a 4.5:1 contrast (WCAG AA).
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7]! },
  dark: {
    '--mantine-color-dimmed': t.colors.dark[1]!,
    '--mantine-color-anchor': t.colors.brand![3]!,
  },
});
