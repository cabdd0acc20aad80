import {
  Alert,
  Button,
  Group,
  Modal,
  NativeSelect,
  Pagination,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { DEFAULT_ASSIGN_PAGE_SIZE, TICKET_PAGE_SIZES, type TAssignableUser, type TTicket } from '@portal/contract';
import { IconAlertTriangle, IconSearch, IconUserCheck } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LOAD_FAILED, SKELETON_ROWS } from './list-texts.ts';
import { EmptyIllustration } from '@/components/ui/illustrations.tsx';
import { isApiError } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { usePageSize } from '@/lib/use-page-size.ts';
import { assignableUsersQuery, assignTicket, ticketKeys } from '../api/tickets-api.ts';
import { useSearchPage } from './use-search-page.ts';

interface AssignModalProps {
  ticket: TTicket;
  /** w: assign a ticket nobody holds yet. */
  canAssign: boolean;
  /** u: change the current assignee. */
  canReassign: boolean;
  onClose: () => void;
}

const fullName = (u: TAssignableUser) => [u.name, u.last_name, u.second_last_name].filter(Boolean).join(' ');

/**
 * The assign modal (SPEC §2, §6, §8): users 5 per page by default, 'Asignar'
 * on each, 'Asignado' disabled for the current assignee.
 */
export function AssignModal({ ticket, canAssign, canReassign, onClose }: AssignModalProps) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useSearchPage(debouncedSearch);
  const [perPage, setPerPage] = usePageSize('assign-users', TICKET_PAGE_SIZES, DEFAULT_ASSIGN_PAGE_SIZE);
  const [assigningTo, setAssigningTo] = useState<number | null>(null);

  const users = useQuery(assignableUsersQuery({ page, per_page: perPage, search: debouncedSearch }));
  const rows = users.isError ? [] : (users.data?.data ?? []);
  const lastPage = Math.max(users.data?.meta.last_page ?? 1, 1);
  const isLoading = users.isPending || (users.isFetching && users.isPlaceholderData);
  const mayAssign = ticket.user_assigned_id === null ? canAssign : canReassign;

  async function assign(user: TAssignableUser) {
    setAssigningTo(user.id);
    try {
      await assignTicket(ticket.id, user.id);
      notifySuccess('Ticket asignado', `El ticket #${ticket.id} ahora es de ${fullName(user)}.`);
      await queryClient.invalidateQueries({ queryKey: ticketKeys.all });
      onClose();
    } catch (error) {
      if (isApiError(error)) {
        if (!error.details.isSessionLost) notifyError('No se pudo asignar el ticket.', error.message);
      } else {
        notifyError('Error inesperado', 'No se pudo asignar el ticket.');
      }
      setAssigningTo(null);
    }
  }

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={
        <Stack gap={0}>
          <Text fw={650} size="lg">
            {ticket.user_assigned_id === null ? 'Asignar ticket' : 'Cambiar asignación'} #{ticket.id}
          </Text>
          <Text size="sm" c="dimmed" lineClamp={1}>
            {ticket.name}
          </Text>
        </Stack>
      }
    >
      <Stack gap="md">
        <Group justify="space-between" gap="sm" wrap="wrap">
          <TextInput
            aria-label="Buscar usuario"
            placeholder="Buscar..."
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            maxLength={100}
            w={{ base: '100%', xs: 280 }}
            data-autofocus
          />
          <Group gap={8} wrap="nowrap">
            <Text size="sm" c="dimmed" component="label" htmlFor="per-page-assign">
              Mostrar
            </Text>
            <NativeSelect
              id="per-page-assign"
              data={TICKET_PAGE_SIZES.map(String)}
              value={String(perPage)}
              onChange={(e) => {
                setPerPage(Number(e.currentTarget.value));
                setPage(1);
              }}
              w={80}
            />
          </Group>
        </Group>

        {users.isError && !(isApiError(users.error) && users.error.details.isSessionLost) && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle />} title={LOAD_FAILED} role="alert">
            {users.error.message}
          </Alert>
        )}

        <Table.ScrollContainer minWidth={560}>
          <Table striped verticalSpacing="xs" aria-label="Usuarios" aria-busy={isLoading}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Nombre</Table.Th>
                <Table.Th>Usuario</Table.Th>
                <Table.Th>Área</Table.Th>
                <Table.Th>Rol</Table.Th>
                <Table.Th w={130} ta="center">
                  Acción
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {isLoading ? (
                Array.from({ length: SKELETON_ROWS }, (_, i) => (
                  <Table.Tr key={i}>
                    {Array.from({ length: 5 }, (_, j) => (
                      <Table.Td key={j}>
                        <Skeleton height={14} radius="sm" />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              ) : rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Stack align="center" gap={6} py="lg">
                      <EmptyIllustration size={90} />
                      <Text fw={600}>Sin resultados por ahora</Text>
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              ) : (
                rows.map((user) => {
                  const isCurrent = user.id === ticket.user_assigned_id;
                  return (
                    <Table.Tr key={user.id}>
                      <Table.Td>{fullName(user)}</Table.Td>
                      <Table.Td c="dimmed">@{user.username}</Table.Td>
                      <Table.Td>{user.area?.name ?? '—'}</Table.Td>
                      <Table.Td>{user.role.name}</Table.Td>
                      <Table.Td ta="center">
                        {isCurrent ? (
                          <Button size="xs" variant="light" disabled leftSection={<IconUserCheck size={14} />}>
                            Asignado
                          </Button>
                        ) : (
                          <Button
                            size="xs"
                            disabled={!mayAssign || (assigningTo !== null && assigningTo !== user.id)}
                            loading={assigningTo === user.id}
                            onClick={() => void assign(user)}
                            aria-label={`Asignar a ${fullName(user)}`}
                          >
                            Asignar
                          </Button>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>

        <Group justify="flex-end">
          <Pagination
            total={lastPage}
            value={Math.min(page, lastPage)}
            onChange={setPage}
            siblings={1}
            boundaries={1}
            size="sm"
            getItemProps={(n) => ({ 'aria-label': `Página ${n}` })}
          />
        </Group>
      </Stack>
    </Modal>
  );
}
