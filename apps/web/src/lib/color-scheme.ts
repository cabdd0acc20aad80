import { localStorageColorSchemeManager, type MantineColorScheme } from '@mantine/core';

/** The colour scheme chosen in the top bar, remembered per browser; 'auto' follows prefers-color-scheme. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'colorScheme' });

export const colorSchemeOptions: { value: MantineColorScheme; label: string }[] = [
  { value: 'light', label: 'Claro' },
  { value: 'dark', label: 'Oscuro' },
  { value: 'auto', label: 'Sistema' },
];
