import { Group, Text } from '@mantine/core';

/** The portal's mark: a ticket with a check, in the brand blue. */
export function LogoMark({ size = 40 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" role="img" aria-label="Logo del Portal de tickets">
      <rect width="48" height="48" rx="11" fill="var(--mantine-color-brand-8)" />
      <path
        d="M11 16a3 3 0 0 1 3-3h20a3 3 0 0 1 3 3v4a4 4 0 0 0 0 8v4a3 3 0 0 1-3 3H14a3 3 0 0 1-3-3v-4a4 4 0 0 0 0-8z"
        fill="#fff"
      />
      <path
        d="M19 24l3.5 3.5L29 21"
        fill="none"
        stroke="var(--mantine-color-brand-8)"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function Logo({ withText = true, size = 36 }: { withText?: boolean; size?: number }) {
  return (
    <Group gap={10} wrap="nowrap">
      <LogoMark size={size} />
      {withText && (
        <Text
          fw={700}
          size="md"
          c="light-dark(var(--mantine-color-brand-9), var(--mantine-color-brand-1))"
          style={{ whiteSpace: 'nowrap', letterSpacing: '-0.01em' }}
        >
          Portal de tickets
        </Text>
      )}
    </Group>
  );
}
