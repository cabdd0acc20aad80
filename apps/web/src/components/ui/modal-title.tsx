import { Stack, Text } from '@mantine/core';

/** A modal's heading, with the name of the record it concerns beneath when given. */
export function ModalTitle({ title, subtitle }: { title: string; subtitle?: string }) {
  const heading = (
    <Text fw={650} size="lg">
      {title}
    </Text>
  );
  if (subtitle === undefined) return heading;
  return (
    <Stack gap={0}>
      {heading}
      <Text size="sm" c="dimmed" lineClamp={1}>
        {subtitle}
      </Text>
    </Stack>
  );
}
