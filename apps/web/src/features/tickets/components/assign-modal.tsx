import { Button, Modal, Stack, Text } from '@mantine/core';
import { DEFAULT_ASSIGN_PAGE_SIZE, TICKET_PAGE_SIZES, type TAssignableUser, type TTicket } from '@portal/contract';
import { IconUserCheck } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable, type DataColumn } from '@/components/ui/data-table.tsx';
import { ListPagination } from '@/components/ui/list-pagination.tsx';
import { ListToolbar } from '@/components/ui/list-toolbar.tsx';
import { ModalTitle } from '@/components/ui/modal-title.tsx';
import { isApiError } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { isLoadingPage, useListParams } from '@/lib/use-list-params.ts';
import { assignableUsersQuery, assignTicket, ticketKeys } from '../api/tickets-api.ts';

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
 * The assign modal: users 5 per page by default, 'Asignar'
 * on each, 'Asignado' disabled for the current assignee.
 */
export function AssignModal({ ticket, canAssign, canReassign, onClose }: AssignModalProps) {
  const queryClient = useQueryClient();
  const list = useListParams('assign-users', TICKET_PAGE_SIZES, DEFAULT_ASSIGN_PAGE_SIZE);
  const [assigningTo, setAssigningTo] = useState<number | null>(null);

  const users = useQuery(assignableUsersQuery(list.params));
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

  const columns: DataColumn<TAssignableUser>[] = [
    { header: 'Nombre', render: fullName },
    {
      header: 'Usuario',
      render: (user) => (
        <Text span inherit c="dimmed">
          @{user.username}
        </Text>
      ),
    },
    { header: 'Área', render: (user) => user.area?.name ?? '—' },
    { header: 'Rol', render: (user) => user.role.name },
    {
      header: 'Acción',
      width: 130,
      align: 'center',
      render: (user) =>
        user.id === ticket.user_assigned_id ? (
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
        ),
    },
  ];

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={
        <ModalTitle
          title={`${ticket.user_assigned_id === null ? 'Asignar ticket' : 'Cambiar asignación'} #${ticket.id}`}
          subtitle={ticket.name}
        />
      }
    >
      <Stack gap="md">
        <ListToolbar list={list} searchLabel="Buscar usuario" searchWidth={280} isAutoFocus />
        <DataTable
          columns={columns}
          rows={users.isError ? [] : (users.data?.data ?? [])}
          rowKey={(user) => user.id}
          isLoading={isLoadingPage(users)}
          minWidth={560}
          label="Usuarios"
          isInModal
          error={users.error}
        />
        <ListPagination
          page={list.page}
          lastPage={Math.max(users.data?.meta.last_page ?? 1, 1)}
          onChange={list.setPage}
        />
      </Stack>
    </Modal>
  );
}
