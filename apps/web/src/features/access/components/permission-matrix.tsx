import { Alert, Checkbox, Group, Loader, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { SECTIONS, type TCatalogRecord, type TOption } from '@portal/contract';
import { IconInfoCircle, IconSearch } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { LoadErrorNotice } from '@/components/ui/load-error-notice.tsx';
import { sectionLabel } from '@/config/sections.ts';
import { isApiError } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { useSectionFlags } from '@/lib/permissions.ts';
import { createRecord, optionsQuery, resourceKeys, updateRecord } from '@/lib/resource-api.ts';
import { allSectionPermissionsQuery } from '../api/section-permissions-api.ts';

type Permission = TCatalogRecord<'sections-permission'>;
type Flag = 'r' | 'w' | 'u' | 'd';

export const FLAGS: { flag: Flag; short: string; label: string }[] = [
  { flag: 'r', short: 'R', label: 'Leer' },
  { flag: 'w', short: 'W', label: 'Crear' },
  { flag: 'u', short: 'U', label: 'Editar' },
  { flag: 'd', short: 'D', label: 'Eliminar / restaurar' },
];

const cellKey = (sectionId: number, roleId: number) => `${sectionId}:${roleId}`;
const isOn = (p: Permission | undefined, flag: Flag) => !!p && p.status_id === 1 && Number(p[flag]) === 1;

/**
 * The 'Matriz' tab of Roles y Permisos: sections (by their readable names) as
 * rows, roles as column groups, one checkbox per flag. Each change is saved at
 * once through the section-permission API (an update of the role's row, or a
 * new row) and confirmed with a toast; a refusal puts the box back.
 */
export function PermissionMatrix() {
  const { canCreate, canUpdate } = useSectionFlags(SECTIONS.sectionsPermission);
  const queryClient = useQueryClient();
  const sections = useQuery(optionsQuery('sections'));
  const roles = useQuery(optionsQuery('roles'));
  const permissions = useQuery(allSectionPermissionsQuery());
  const [saving, setSaving] = useState<Set<string>>(new Set());
  const [filter, setFilter] = useState('');

  const byCell = useMemo(() => {
    const map = new Map<string, Permission>();
    for (const p of permissions.data ?? []) map.set(cellKey(p.section_id, p.role_id), p);
    return map;
  }, [permissions.data]);

  const rows = useMemo(() => {
    const needle = filter.trim().toLocaleLowerCase('es');
    return (sections.data ?? [])
      .map((s) => ({ ...s, label: sectionLabel(s.name) }))
      .filter((s) => !needle || `${s.label} ${s.name}`.toLocaleLowerCase('es').includes(needle))
      .sort((a, b) => a.label.localeCompare(b.label, 'es'));
  }, [sections.data, filter]);

  const error = sections.error ?? roles.error ?? permissions.error;
  if (error) return <LoadErrorNotice error={error} onRetry={() => void permissions.refetch()} />;
  if (sections.isPending || roles.isPending || permissions.isPending) {
    return (
      <Stack gap="xs" data-testid="matrix-loading">
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} height={28} />
        ))}
      </Stack>
    );
  }

  async function toggle(section: TOption, role: TOption, flag: Flag, checked: boolean) {
    const key = cellKey(section.id, role.id);
    const current = byCell.get(key);
    const flags = Object.fromEntries(FLAGS.map(({ flag: f }) => [f, isOn(current, f) ? 1 : 0])) as Record<Flag, number>;
    flags[flag] = checked ? 1 : 0;
    setSaving((s) => new Set(s).add(`${key}:${flag}`));
    try {
      const saved = current
        ? await updateRecord('sections-permission', current.id, { role_id: role.id, ...flags, status_id: 1 })
        : await createRecord('sections-permission', {
            section_id: section.id,
            role_id: role.id,
            ...flags,
            status_id: 1,
          });
      queryClient.setQueryData(allSectionPermissionsQuery().queryKey, (list: Permission[] | undefined) =>
        current ? (list ?? []).map((p) => (p.id === current.id ? saved.data : p)) : [...(list ?? []), saved.data],
      );
      void queryClient.invalidateQueries({ queryKey: resourceKeys.all('sections-permission') });
      const label = FLAGS.find((f) => f.flag === flag)!.label;
      notifySuccess(
        'Permiso guardado',
        `${role.name}: ${label} en ${sectionLabel(section.name)} ${checked ? 'concedido' : 'retirado'}.`,
      );
    } catch (e) {
      if (isApiError(e) && e.details.isSessionLost) return;
      notifyError('No se pudo guardar el permiso', isApiError(e) ? e.message : 'Inténtalo de nuevo.');
      void permissions.refetch();
    } finally {
      setSaving((s) => {
        const next = new Set(s);
        next.delete(`${key}:${flag}`);
        return next;
      });
    }
  }

  const roleList = roles.data ?? [];
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <TextInput
          aria-label="Filtrar secciones"
          placeholder="Filtrar secciones..."
          leftSection={<IconSearch size={16} />}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          w={{ base: '100%', sm: 300 }}
        />
        <Text size="xs" c="dimmed">
          R Leer · W Crear · U Editar · D Eliminar / restaurar. Cada cambio se guarda al instante.
        </Text>
      </Group>
      {!canCreate && !canUpdate && (
        <Alert color="gray" variant="light" icon={<IconInfoCircle />}>
          Solo puedes consultar la matriz: tu rol no puede cambiar permisos.
        </Alert>
      )}
      <Table.ScrollContainer minWidth={260 + roleList.length * 200}>
        <Table withTableBorder withColumnBorders striped highlightOnHover aria-label="Matriz de permisos" stickyHeader>
          <Table.Thead>
            <Table.Tr>
              <Table.Th rowSpan={2} scope="col">
                Sección
              </Table.Th>
              {roleList.map((role) => (
                <Table.Th key={role.id} colSpan={FLAGS.length} ta="center" scope="colgroup">
                  {role.name}
                </Table.Th>
              ))}
            </Table.Tr>
            <Table.Tr>
              {roleList.flatMap((role) =>
                FLAGS.map(({ flag, short, label }) => (
                  <Table.Th key={`${role.id}:${flag}`} ta="center" scope="col" w={50}>
                    <abbr title={label} style={{ textDecoration: 'none' }}>
                      {short}
                    </abbr>
                  </Table.Th>
                )),
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((section) => (
              <Table.Tr key={section.id}>
                <Table.Th scope="row" fw={500} title={section.name}>
                  {section.label}
                </Table.Th>
                {roleList.flatMap((role) => {
                  const current = byCell.get(cellKey(section.id, role.id));
                  const mayChange = current ? canUpdate : canCreate;
                  return FLAGS.map(({ flag, label }) => {
                    const isSaving = saving.has(`${cellKey(section.id, role.id)}:${flag}`);
                    return (
                      <Table.Td key={`${role.id}:${flag}`} ta="center" p={4}>
                        {isSaving ? (
                          <Loader size={16} aria-label="Guardando" style={{ verticalAlign: 'middle' }} />
                        ) : (
                          <Checkbox
                            aria-label={`${label} en ${section.label} para ${role.name}`}
                            checked={isOn(current, flag)}
                            disabled={!mayChange}
                            onChange={(e) => void toggle(section, role, flag, e.currentTarget.checked)}
                            styles={{ body: { justifyContent: 'center' } }}
                          />
                        )}
                      </Table.Td>
                    );
                  });
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length === 0 && (
        <Text size="sm" c="dimmed" ta="center">
          Ninguna sección coincide con el filtro.
        </Text>
      )}
    </Stack>
  );
}
