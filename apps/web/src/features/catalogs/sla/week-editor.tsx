import { ActionIcon, Button, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { CustomFieldProps } from '@/components/resource/types.ts';
import { WEEKDAYS, type WorkingWeek } from './sla-format.ts';
import { WeekGrid } from './week-grid.tsx';

/** The most intervals a day takes (the contract's limit). */
const MAX_INTERVALS = 6;

/**
 * A calendar's working hours: each weekday with its intervals (`HH:MM` to `HH:MM`, several per
 * day, e.g. 09:00–14:00 and 15:00–18:00), a day without any is not worked; the week grid below
 * shows them. Errors come by path: `week` (no working day), `week.N` (the day's intervals
 * overlap or one ends before it starts), `week.N.I.start|end` (a time not `HH:MM`).
 */
export function WeekEditor({ label, value, onChange, errors }: CustomFieldProps) {
  const week = value as WorkingWeek;
  const setDay = (day: number, intervals: WorkingWeek[number]) =>
    onChange(week.map((current, i) => (i === day ? intervals : current)));

  return (
    <Fieldset legend={label} variant="unstyled">
      <Stack gap="xs">
        {errors.week && (
          <Text size="sm" c="red" role="alert">
            {errors.week}
          </Text>
        )}
        {WEEKDAYS.map((day, d) => {
          const intervals = week[d] ?? [];
          const dayError = errors[`week.${d}`];
          return (
            <Stack key={day} gap={4}>
              <Group gap="xs" align="flex-start" wrap="wrap">
                <Text size="sm" fw={500} w={80} pt={6}>
                  {day}
                </Text>
                {intervals.length === 0 && (
                  <Text size="sm" c="dimmed" pt={6}>
                    No laborable
                  </Text>
                )}
                {intervals.map((iv, i) => {
                  const set = (part: 'start' | 'end', text: string) =>
                    setDay(
                      d,
                      intervals.map((x, j) => (j === i ? { ...x, [part]: text.replace(/[^\d:]/g, '') } : x)),
                    );
                  return (
                    <Group key={i} gap={4} wrap="nowrap" align="flex-start">
                      <TextInput
                        aria-label={`Inicio ${day.toLowerCase()} ${i + 1}`}
                        placeholder="HH:MM"
                        value={iv.start}
                        maxLength={5}
                        inputMode="numeric"
                        w={72}
                        error={errors[`week.${d}.${i}.start`]}
                        onChange={(e) => set('start', e.currentTarget.value)}
                      />
                      <Text size="sm" pt={6}>
                        a
                      </Text>
                      <TextInput
                        aria-label={`Fin ${day.toLowerCase()} ${i + 1}`}
                        placeholder="HH:MM"
                        value={iv.end}
                        maxLength={5}
                        inputMode="numeric"
                        w={72}
                        error={errors[`week.${d}.${i}.end`]}
                        onChange={(e) => set('end', e.currentTarget.value)}
                      />
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        mt={4}
                        aria-label={`Quitar horario ${i + 1} del ${day.toLowerCase()}`}
                        onClick={() =>
                          setDay(
                            d,
                            intervals.filter((_, j) => j !== i),
                          )
                        }
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                  );
                })}
                {intervals.length < MAX_INTERVALS && (
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    mt={4}
                    leftSection={<IconPlus size={14} />}
                    aria-label={`Agregar horario al ${day.toLowerCase()}`}
                    onClick={() => {
                      const last = intervals[intervals.length - 1];
                      setDay(d, [...intervals, last ? { start: last.end, end: '' } : { start: '09:00', end: '18:00' }]);
                    }}
                  >
                    Agregar horario
                  </Button>
                )}
              </Group>
              {dayError && (
                <Text size="sm" c="red" role="alert" pl={88}>
                  {dayError}
                </Text>
              )}
            </Stack>
          );
        })}
        <WeekGrid week={week} />
      </Stack>
    </Fieldset>
  );
}
