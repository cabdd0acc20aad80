import { Button, Group, MultiSelect, TextInput } from '@mantine/core';
import { AUDIT_EVENT_OPTIONS, type TAuditFilters } from '@portal/contract';
import { IconFilterOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { SelectField, toSelectOptions } from '@/components/ui/select-field.tsx';
import { auditUsersQuery } from '../api/audit-log-api.ts';

/** The action choices in groups an administrator looks for. */
const groupOf = (event: string) => {
  const prefix = event.split('.')[0]!;
  if (prefix === 'ticket') return 'Tickets';
  if (prefix === 'user') return 'Usuarios';
  if (['role', 'route', 'section', 'route_permission', 'section_permission'].includes(prefix))
    return 'Roles y permisos';
  if (prefix === 'password' || prefix === 'password_reset') return 'Contraseñas';
  return 'Sesiones y accesos';
};
const groupedEvents = ['Sesiones y accesos', 'Contraseñas', 'Tickets', 'Usuarios', 'Roles y permisos'].map((group) => ({
  group,
  items: AUDIT_EVENT_OPTIONS.filter((o) => groupOf(o.value) === group),
}));

const ALL_USERS = { value: '', label: 'Todos los usuarios' };
const RANGE_ERROR = 'La fecha inicial no puede ser posterior a la final.';

export const hasFilters = (filters: TAuditFilters) =>
  filters.user_id !== undefined || (filters.event?.length ?? 0) > 0 || !!filters.from || !!filters.to;

interface AuditFiltersProps {
  value: TAuditFilters;
  onChange: (filters: TAuditFilters) => void;
}

/** Who, which actions and which days (whole days in the browser's time zone). */
export function AuditFilters({ value, onChange }: AuditFiltersProps) {
  const users = useQuery(auditUsersQuery());
  // The days as typed; a range that ends before it starts is shown, not sent.
  const [days, setDays] = useState({ from: value.from ?? '', to: value.to ?? '' });
  const isRangeInverted = days.from !== '' && days.to !== '' && days.from > days.to;

  const changeDays = (next: typeof days) => {
    setDays(next);
    if (next.from !== '' && next.to !== '' && next.from > next.to) return;
    onChange({ ...value, from: next.from || undefined, to: next.to || undefined });
  };

  const clear = () => {
    setDays({ from: '', to: '' });
    onChange({});
  };

  return (
    <Group gap="sm" align="flex-start" wrap="wrap">
      <div style={{ width: 240, maxWidth: '100%' }}>
        <SelectField
          label="Usuario"
          value={value.user_id === undefined ? '' : String(value.user_id)}
          onChange={(id) => onChange({ ...value, user_id: id === '' ? undefined : Number(id) })}
          options={[ALL_USERS, ...toSelectOptions(users.data ?? [])]}
          isLoading={users.isPending}
        />
      </div>
      <MultiSelect
        label="Acción"
        placeholder={value.event?.length ? undefined : 'Todas las acciones'}
        data={groupedEvents}
        value={value.event ?? []}
        onChange={(events) => onChange({ ...value, event: events.length > 0 ? events : undefined })}
        searchable
        clearable
        nothingFoundMessage="No se encontraron resultados"
        maxDropdownHeight={260}
        w={{ base: '100%', sm: 290 }}
        comboboxProps={{ withinPortal: true }}
      />
      <TextInput
        type="date"
        label="Desde"
        value={days.from}
        max={days.to || undefined}
        onChange={(e) => changeDays({ ...days, from: e.currentTarget.value })}
        w={150}
      />
      <TextInput
        type="date"
        label="Hasta"
        value={days.to}
        min={days.from || undefined}
        onChange={(e) => changeDays({ ...days, to: e.currentTarget.value })}
        error={isRangeInverted ? RANGE_ERROR : undefined}
        w={150}
      />
      {(hasFilters(value) || days.from !== '' || days.to !== '') && (
        <Button variant="subtle" leftSection={<IconFilterOff size={16} />} onClick={clear} mt={25}>
          Limpiar filtros
        </Button>
      )}
    </Group>
  );
}
