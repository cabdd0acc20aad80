import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { ACTIVITY_MSG, sanitize, type TActivity, type TTicket } from '@portal/contract';
import { IconEye, IconLock, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { DataTable, type DataColumn } from '@/components/ui/data-table.tsx';
import { IconAction } from '@/components/ui/icon-action.tsx';
import { ListPagination } from '@/components/ui/list-pagination.tsx';
import { LoadErrorNotice } from '@/components/ui/load-error-notice.tsx';
import { ModalTitle } from '@/components/ui/modal-title.tsx';
import { StatusBadge } from '@/components/ui/status-badge.tsx';
import { isApiError, isSessionLost } from '@/lib/api-client.ts';
import { notifyError, notifySuccess, notifyWarning } from '@/lib/notify.ts';
import { activitiesQuery, activityKeys, createActivity, deleteActivity } from '../api/activities-api.ts';
import type { ActivitiesMode } from '../activities-mode.ts';
import { formatDateTime } from './ticket-badges.tsx';

const PER_PAGE = 5;
const PERMISSION_DENIED = 'Permiso denegado';

export function ActivitiesModal({
  ticket,
  userId,
  mode,
  onClose,
}: {
  ticket: TTicket;
  userId: number;
  mode: ActivitiesMode;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [isAdding, setAdding] = useState(false);
  const [toDelete, setToDelete] = useState<TActivity | null>(null);
  const [isDeleting, setDeleting] = useState(false);

  const list = useQuery({
    ...activitiesQuery(ticket.id, { page, per_page: PER_PAGE, search: '' }),
    enabled: mode !== 'denied',
  });
  // The server has the last word: a stale screen may still think the user is the assignee.
  const canWrite = mode === 'register' && list.data?.can_write !== false;
  const isReadOnly = mode === 'read-only' || (mode === 'register' && list.data?.can_write === false);
  const isRefused = mode === 'denied' || (isApiError(list.error) && list.error.status === 403);
  const lastPage = Math.max(list.data?.data.last_page ?? 1, 1);
  const reload = () => queryClient.invalidateQueries({ queryKey: activityKeys.ofTicket(ticket.id) });

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!canWrite) return notifyWarning(PERMISSION_DENIED, ACTIVITY_MSG.onlyAssignee);
    const clean = name.trim();
    if (clean === '') return setNameError(ACTIVITY_MSG.nameRequired);
    setAdding(true);
    try {
      await createActivity(ticket.id, userId, clean);
      notifySuccess('Actividad agregada', 'La actividad se registró en el ticket.');
      setName('');
      setNameError(null);
      setPage(1);
      await reload();
    } catch (error) {
      if (isSessionLost(error)) return;
      if (isApiError(error) && error.status === 403) notifyWarning(PERMISSION_DENIED, error.message);
      else notifyError('No se pudo agregar la actividad.', isApiError(error) ? error.message : '');
    } finally {
      setAdding(false);
    }
  }

  async function remove() {
    if (!toDelete) return;
    if (!canWrite) {
      setToDelete(null);
      return notifyWarning(PERMISSION_DENIED, ACTIVITY_MSG.onlyAssignee);
    }
    setDeleting(true);
    try {
      await deleteActivity(toDelete.id);
      notifySuccess('Actividad eliminada', 'La actividad ya no aparece en el ticket.');
      await reload();
    } catch (error) {
      if (isSessionLost(error)) return;
      if (isApiError(error) && error.status === 403) notifyWarning(PERMISSION_DENIED, error.message);
      else notifyError('No se pudo eliminar la actividad', isApiError(error) ? error.message : '');
    } finally {
      setDeleting(false);
      setToDelete(null);
    }
  }

  const columns: DataColumn<TActivity>[] = [
    {
      header: 'Actividad',
      render: (activity) => (
        <Group gap="xs" wrap="nowrap">
          <Text size="sm">{activity.name}</Text>
          {activity.merged_from_ticket_id !== null && (
            <Text size="xs" c="dimmed">
              Del ticket #{activity.merged_from_ticket_id}
            </Text>
          )}
          {activity.status_id !== 1 && <StatusBadge statusId={activity.status_id} />}
        </Group>
      ),
    },
    { header: 'Fecha', width: 170, render: (activity) => formatDateTime(activity.created_at) },
    { header: 'Usuario', width: 150, render: (activity) => activity.user.name },
  ];
  if (canWrite) {
    columns.push({
      header: 'Eliminar',
      width: 70,
      align: 'center',
      render: (activity) => (
        <IconAction
          label="Eliminar"
          ariaLabel={`Eliminar actividad ${activity.name}`}
          icon={<IconTrash size={18} />}
          color="red"
          onClick={() => setToDelete(activity)}
        />
      ),
    });
  }

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={<ModalTitle title={`Actividades del ticket #${ticket.id}`} subtitle={ticket.name} />}
    >
      {isRefused ? (
        <Alert color="yellow" variant="light" icon={<IconLock />} title={PERMISSION_DENIED} role="alert">
          {ACTIVITY_MSG.cannotRead}
        </Alert>
      ) : (
        <Stack gap="md">
          {isReadOnly && (
            <Alert color="blue" variant="light" icon={<IconEye />} role="note">
              {ACTIVITY_MSG.readOnly}
            </Alert>
          )}
          {canWrite && (
            <form onSubmit={add} noValidate>
              <Group align="flex-start" gap="sm" wrap="nowrap">
                <TextInput
                  label="Nueva actividad"
                  placeholder="Describe lo que se hizo"
                  value={name}
                  maxLength={255}
                  error={nameError}
                  onChange={(e) => {
                    setName(sanitize('textWithSymbols', e.currentTarget.value));
                    setNameError(null);
                  }}
                  style={{ flex: 1 }}
                  data-autofocus
                />
                <Button type="submit" mt={25} loading={isAdding} leftSection={<IconPlus size={16} />}>
                  Agregar
                </Button>
              </Group>
            </form>
          )}

          <LoadErrorNotice error={list.error} title={null}>
            No se pudieron cargar las actividades del ticket
          </LoadErrorNotice>
          <DataTable
            columns={columns}
            rows={list.data?.data.data ?? []}
            rowKey={(activity) => activity.id}
            isLoading={list.isPending}
            minWidth={480}
            label="Actividades"
            isInModal
            skeletonRows={3}
            emptyHint="Este ticket todavía no tiene actividades."
          />
          {lastPage > 1 && <ListPagination page={page} lastPage={lastPage} onChange={setPage} />}
        </Stack>
      )}

      <ConfirmDialog
        opened={toDelete !== null}
        title="¿Estás seguro de eliminar?"
        message={`La actividad "${toDelete?.name ?? ''}" será eliminada del ticket.`}
        confirmLabel="Sí, eliminar"
        color="red"
        isBusy={isDeleting}
        onConfirm={() => void remove()}
        onCancel={() => setToDelete(null)}
      />
    </Modal>
  );
}
