import { Fieldset, Group, Text, TextInput } from '@mantine/core';
import type { CustomFieldProps } from '@/components/resource/types.ts';
import type { HoursMinutes } from './sla-format.ts';

/** A target in business time, typed as hours and minutes (sent as minutes). */
export function TargetInput({ label, value, onChange, errors }: CustomFieldProps) {
  const parts = value as HoursMinutes;
  const error = Object.values(errors)[0];
  const digits = (text: string) => text.replace(/\D/g, '').slice(0, 6);
  return (
    <Fieldset legend={label} variant="unstyled">
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <TextInput
          aria-label={`${label}: horas`}
          value={parts.hours}
          inputMode="numeric"
          w={90}
          error={Boolean(error)}
          rightSection={<Text size="xs">h</Text>}
          onChange={(e) => onChange({ ...parts, hours: digits(e.currentTarget.value) })}
        />
        <TextInput
          aria-label={`${label}: minutos`}
          value={parts.minutes}
          inputMode="numeric"
          w={90}
          error={Boolean(error)}
          rightSection={<Text size="xs">min</Text>}
          onChange={(e) => onChange({ ...parts, minutes: digits(e.currentTarget.value) })}
        />
      </Group>
      {error && (
        <Text size="sm" c="red" role="alert" mt={4}>
          {error}
        </Text>
      )}
    </Fieldset>
  );
}
