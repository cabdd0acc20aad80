import { ActionIcon, Button, Group, NativeSelect, Select, Stack, Table, Text, Tooltip } from '@mantine/core';
import { GROUP_MEMBER_ROLE_LABELS, SECTIONS, groupMemberRoles, type GroupMemberRole } from '@portal/contract';
import { IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorText, isSessionLost } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { useSectionFlags } from '@/lib/permissions.ts';
import { optionsQuery } from '@/lib/resource-api.ts';
import { groupMemberKeys, groupMembersQuery, removeGroupMember, saveGroupMember } from '../api/group-members-api.ts';

const roleOptions = groupMemberRoles.map((value) => ({ value, label: GROUP_MEMBER_ROLE_LABELS[value] }));

/**
 * The members tab of a group's modal: its members (leads first) with their role, a searchable
 * picker of active users to add one, and the removal of a member; each action only with its
 * flag on the groups section (w adds and changes roles, d removes).
 */
export function GroupMembersTab({ groupId }: { groupId: number }) {
  const queryClient = useQueryClient();
  const { canCreate, canChangeStatus } = useSectionFlags(SECTIONS.groups);
  const members = useQuery(groupMembersQuery(groupId));
  const users = useQuery({ ...optionsQuery('users'), enabled: canCreate });
  const [userId, setUserId] = useState<string | null>(null);
  const [role, setRole] = useState<GroupMemberRole>('member');
  const [isBusy, setBusy] = useState(false);
  const rows = members.data?.data ?? [];
  const memberIds = new Set(rows.map((m) => m.user_id));
  const candidates = (users.data ?? [])
    .filter((u) => !memberIds.has(u.id))
    .map((u) => ({ value: String(u.id), label: u.name }));

  async function run(action: () => Promise<unknown>, success: string) {
    setBusy(true);
    try {
      await action();
      notifySuccess(success, '');
      await queryClient.invalidateQueries({ queryKey: groupMemberKeys.of(groupId) });
    } catch (error) {
      if (!isSessionLost(error)) notifyError('No se pudo guardar', errorText(error, 'Inténtalo de nuevo.'));
    } finally {
      setBusy(false);
    }
  }

  const add = () =>
    userId &&
    void run(async () => {
      await saveGroupMember(groupId, { user_id: Number(userId), role });
      setUserId(null);
    }, 'Miembro agregado');

  return (
    <Stack gap="md">
      {canCreate && (
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label="Usuario"
            placeholder="Buscar usuario..."
            data={candidates}
            value={userId}
            onChange={setUserId}
            searchable
            clearable
            nothingFoundMessage="No se encontraron resultados"
            style={{ flex: 1, minWidth: 220 }}
          />
          <NativeSelect
            label="Rol"
            data={roleOptions}
            value={role}
            onChange={(e) => setRole(e.currentTarget.value as GroupMemberRole)}
            w={130}
          />
          <Button leftSection={<IconUserPlus size={16} />} onClick={add} disabled={!userId || isBusy}>
            Agregar miembro
          </Button>
        </Group>
      )}
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {members.isPending ? 'Cargando...' : 'Este grupo aún no tiene miembros.'}
        </Text>
      ) : (
        <Table striped highlightOnHover aria-label="Miembros del grupo">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Nombre</Table.Th>
              <Table.Th>Usuario</Table.Th>
              <Table.Th>Rol</Table.Th>
              {canChangeStatus && <Table.Th w={60}>Quitar</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((m) => (
              <Table.Tr key={m.user_id}>
                <Table.Td>
                  <Text size="sm" c={m.status_id === 1 ? undefined : 'dimmed'}>
                    {m.name}
                    {m.status_id === 1 ? '' : ' (inactivo)'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">@{m.username}</Text>
                </Table.Td>
                <Table.Td>
                  {canCreate ? (
                    <NativeSelect
                      aria-label={`Rol de ${m.name}`}
                      size="xs"
                      data={roleOptions}
                      value={m.role}
                      disabled={isBusy}
                      onChange={(e) =>
                        void run(
                          () =>
                            saveGroupMember(groupId, {
                              user_id: m.user_id,
                              role: e.currentTarget.value as GroupMemberRole,
                            }),
                          'Rol actualizado',
                        )
                      }
                    />
                  ) : (
                    <Text size="sm">{GROUP_MEMBER_ROLE_LABELS[m.role]}</Text>
                  )}
                </Table.Td>
                {canChangeStatus && (
                  <Table.Td>
                    <Tooltip label="Quitar del grupo">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Quitar a ${m.name} del grupo`}
                        disabled={isBusy}
                        onClick={() => void run(() => removeGroupMember(groupId, m.user_id), 'Miembro eliminado')}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
