import { Box, Group, Text } from '@mantine/core';
import { minutesOfDay, WEEKDAYS, type WorkingWeek } from './sla-format.ts';

const HEIGHT = 192;
const HOUR_MARKS = [0, 6, 12, 18, 24];

/**
 * The week's working hours at a glance: a column per weekday, each working interval a block
 * from its start to its end over the 24 hours of the day. Each column is a list named after
 * its day, each block an item that reads `09:00 a 14:00`; an interval not yet valid is left out.
 */
export function WeekGrid({ week }: { week: WorkingWeek }) {
  return (
    <Box role="group" aria-label="Vista semanal del horario">
      <Group gap={4} align="flex-start" wrap="nowrap">
        <Box pos="relative" h={HEIGHT} w={36} mt={22} aria-hidden>
          {HOUR_MARKS.map((hour) => (
            <Text key={hour} size="xs" c="dimmed" pos="absolute" top={(hour / 24) * HEIGHT - 8} right={4}>
              {String(hour).padStart(2, '0')}:00
            </Text>
          ))}
        </Box>
        {WEEKDAYS.map((day, i) => {
          const blocks = (week[i] ?? []).filter(
            (iv) => minutesOfDay(iv.end) > minutesOfDay(iv.start) && minutesOfDay(iv.end) <= 1440,
          );
          return (
            <Box key={day} style={{ flex: 1, minWidth: 0 }}>
              <Text size="xs" fw={600} ta="center" h={22} truncate>
                {day.slice(0, 3)}
              </Text>
              <Box
                component="ul"
                aria-label={day}
                pos="relative"
                h={HEIGHT}
                m={0}
                p={0}
                style={{
                  listStyle: 'none',
                  border: '1px solid var(--mantine-color-default-border)',
                  borderRadius: 4,
                  background:
                    'repeating-linear-gradient(to bottom, transparent 0, transparent calc(25% - 1px), var(--mantine-color-default-border) calc(25% - 1px), var(--mantine-color-default-border) 25%)',
                }}
              >
                {blocks.map((iv) => {
                  const [start, end] = [minutesOfDay(iv.start), minutesOfDay(iv.end)];
                  return (
                    <Box
                      component="li"
                      key={`${iv.start}-${iv.end}`}
                      pos="absolute"
                      left={2}
                      right={2}
                      top={(start / 1440) * HEIGHT}
                      h={Math.max(((end - start) / 1440) * HEIGHT, 2)}
                      title={`${day}: ${iv.start} a ${iv.end}`}
                      style={{
                        background: 'var(--mantine-color-teal-light)',
                        borderLeft: '3px solid var(--mantine-color-teal-filled)',
                        borderRadius: 3,
                        overflow: 'hidden',
                      }}
                    >
                      <Text size="11px" lh={1.2} px={2} c="var(--mantine-color-text)">
                        {iv.start} a {iv.end}
                      </Text>
                    </Box>
                  );
                })}
              </Box>
            </Box>
          );
        })}
      </Group>
    </Box>
  );
}
