import { ActionIcon, Button, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import { sanitize } from '@portal/contract';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { CustomFieldProps } from '@/components/resource/types.ts';
import { longSpanishDate, type Holiday } from './sla-format.ts';

/**
 * A calendar's holidays: a date and a name each, the date also shown in Spanish (`lunes, 16
 * de noviembre de 2026`). Errors by path: `holidays` (a date repeated), `holidays.N.date`,
 * `holidays.N.name`.
 */
export function HolidaysEditor({ label, value, onChange, errors }: CustomFieldProps) {
  const holidays = value as Holiday[];
  const set = (index: number, change: Partial<Holiday>) =>
    onChange(holidays.map((h, i) => (i === index ? { ...h, ...change } : h)));

  return (
    <Fieldset legend={label} variant="unstyled">
      <Stack gap="xs">
        {errors.holidays && (
          <Text size="sm" c="red" role="alert">
            {errors.holidays}
          </Text>
        )}
        {holidays.length === 0 && (
          <Text size="sm" c="dimmed">
            Sin días festivos.
          </Text>
        )}
        {holidays.map((holiday, i) => (
          <Group key={i} gap="xs" align="flex-start" wrap="wrap">
            <TextInput
              type="date"
              aria-label={`Fecha del día festivo ${i + 1}`}
              value={holiday.date}
              w={160}
              error={errors[`holidays.${i}.date`]}
              onChange={(e) => set(i, { date: e.currentTarget.value })}
            />
            <TextInput
              aria-label={`Nombre del día festivo ${i + 1}`}
              placeholder="Nombre"
              value={holiday.name}
              maxLength={100}
              style={{ flex: 1, minWidth: 160 }}
              error={errors[`holidays.${i}.name`]}
              onChange={(e) => set(i, { name: sanitize('alphanumeric', e.currentTarget.value) })}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              mt={4}
              aria-label={`Quitar día festivo ${i + 1}`}
              onClick={() => onChange(holidays.filter((_, j) => j !== i))}
            >
              <IconTrash size={16} />
            </ActionIcon>
            <Text size="sm" c="dimmed" w="100%" mt={-4} data-testid="holiday-long-date">
              {longSpanishDate(holiday.date)}
            </Text>
          </Group>
        ))}
        <Group>
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconPlus size={14} />}
            onClick={() => onChange([...holidays, { date: '', name: '' }])}
          >
            Agregar día festivo
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}
