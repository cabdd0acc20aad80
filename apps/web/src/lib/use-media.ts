import { useMediaQuery } from '@mantine/hooks';

/**
 * Whether the media query matches, right from the first render (the app renders
 * only in a browser): Mantine's default answers `false` first and the real
 * value after an effect, rendering a phone's screen twice, first as a desktop's.
 */
export function useMedia(query: string): boolean {
  return useMediaQuery(query, undefined, { getInitialValueInEffect: false });
}
