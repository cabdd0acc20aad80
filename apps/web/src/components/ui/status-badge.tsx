import { Badge } from '@mantine/core';
import { recordStatusName } from '@portal/contract';
import { IconCheck, IconX } from '@tabler/icons-react';

const colors: Record<string, string> = { Activo: 'teal', Inactivo: 'gray', Desconocido: 'yellow' };

/** SPEC §3: 1 Activo, 2 Inactivo, anything else Desconocido. */
export function StatusBadge({ statusId }: { statusId: number }) {
  const name = recordStatusName(statusId);
  return (
    <Badge color={colors[name]} variant="light" radius="sm">
      {name}
    </Badge>
  );
}

/** A permission flag (1 or '1' granted) shown as a check or a cross. */
export function FlagMark({ value }: { value: unknown }) {
  const isOn = value === 1 || value === '1' || value === true;
  return isOn ? (
    <IconCheck size={18} color="var(--mantine-color-teal-7)" aria-label="Sí" role="img" />
  ) : (
    <IconX size={18} color="var(--mantine-color-red-7)" aria-label="No" role="img" />
  );
}
