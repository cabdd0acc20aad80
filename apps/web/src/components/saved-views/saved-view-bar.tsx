import { Alert, Badge, Button, Group, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import type { TSavedViewDetail, TSavedViewQueryInput } from '@portal/contract';
import { IconAlertTriangle, IconBookmark, IconDeviceFloppy, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { ApiError, errorText } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { deleteSavedView, savedViewKeys, updateSavedView } from '@/lib/saved-views-api.ts';

interface SavedViewBarProps {
  view: TSavedViewDetail;
  /** The list's current search, filters, sort and page size ('Actualizar con los filtros actuales'). */
  query: TSavedViewQueryInput;
  /** After the view is deleted: the list leaves it (drops `?view=`). */
  onDeleted: () => void;
}

/**
 * The view a list has open: its name, the note about filter values that no longer apply,
 * and, for whoever may, rename, save the current filters into it and delete it.
 */
export function SavedViewBar({ view, query, onDeleted }: SavedViewBarProps) {
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'rename' | 'delete' | null>(null);
  const [isBusy, setBusy] = useState(false);
  const isShared = view.role_ids.length > 0;

  const refresh = (data: TSavedViewDetail) =>
    queryClient.setQueryData(savedViewKeys.one(view.id), { status: true, data });

  async function saveFilters() {
    setBusy(true);
    try {
      const answer = await updateSavedView(view.id, { query });
      refresh(answer.data);
      notifySuccess('Vista actualizada', `«${view.name}» guarda ahora los filtros actuales.`);
    } catch (error) {
      notifyError('No se pudo actualizar la vista', errorText(error, 'Inténtalo nuevamente.'));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    try {
      await deleteSavedView(view.id);
      notifySuccess('Vista eliminada', `Se eliminó la vista «${view.name}».`);
      setDialog(null);
      onDeleted();
    } catch (error) {
      notifyError('No se pudo eliminar la vista', errorText(error, 'Inténtalo nuevamente.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="xs">
      <Paper withBorder radius="md" px="sm" py={6} aria-label={`Vista guardada ${view.name}`} component="section">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="xs" wrap="nowrap" miw={0}>
            <IconBookmark size={18} aria-hidden />
            <Text fw={600} size="sm" truncate>
              Vista: {view.name}
            </Text>
            <Badge variant="light" color={isShared ? 'teal' : 'gray'} size="sm">
              {isShared ? 'Compartida' : 'Personal'}
            </Badge>
            {!view.is_owner && (
              <Text size="xs" c="dimmed" truncate>
                de {view.owner.name}
              </Text>
            )}
          </Group>
          <Group gap="xs" wrap="wrap">
            {view.can_edit && (
              <>
                <Button
                  size="compact-sm"
                  variant="light"
                  leftSection={<IconDeviceFloppy size={14} />}
                  onClick={() => void saveFilters()}
                  loading={isBusy && dialog === null}
                >
                  Actualizar con los filtros actuales
                </Button>
                <Button
                  size="compact-sm"
                  variant="default"
                  leftSection={<IconPencil size={14} />}
                  onClick={() => setDialog('rename')}
                >
                  Renombrar
                </Button>
              </>
            )}
            {view.can_delete && (
              <Button
                size="compact-sm"
                variant="default"
                color="red"
                leftSection={<IconTrash size={14} />}
                onClick={() => setDialog('delete')}
              >
                Eliminar vista
              </Button>
            )}
          </Group>
        </Group>
      </Paper>
      {view.notice && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title="Valores que ya no aplican">
          {view.notice}
        </Alert>
      )}
      {dialog === 'rename' && <RenameModal view={view} onClose={() => setDialog(null)} onRenamed={refresh} />}
      <ConfirmDialog
        opened={dialog === 'delete'}
        title="Eliminar vista"
        message={`¿Eliminar la vista «${view.name}»?${isShared ? ' Dejará de verla quien la tenga compartida.' : ''}`}
        confirmLabel="Eliminar"
        color="red"
        isBusy={isBusy}
        onConfirm={() => void remove()}
        onCancel={() => setDialog(null)}
      />
    </Stack>
  );
}

function RenameModal({
  view,
  onClose,
  onRenamed,
}: {
  view: TSavedViewDetail;
  onClose: () => void;
  onRenamed: (view: TSavedViewDetail) => void;
}) {
  const [name, setName] = useState(view.name);
  const [error, setError] = useState<string | undefined>();
  const [isSaving, setSaving] = useState(false);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (name.trim() === '') return setError('Este campo es obligatorio.');
    setSaving(true);
    try {
      const answer = await updateSavedView(view.id, { name: name.trim() });
      onRenamed(answer.data);
      notifySuccess('Vista renombrada', `La vista se llama ahora «${answer.data.name}».`);
      onClose();
    } catch (e) {
      setError(
        e instanceof ApiError && e.errors?.name ? e.errors.name.join(' ') : errorText(e, 'No se pudo renombrar.'),
      );
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title={<Text fw={650}>Renombrar vista</Text>} size="sm">
      <form onSubmit={(e) => void save(e)} noValidate>
        <Stack gap="md">
          <TextInput
            label="Nombre de la vista"
            required
            maxLength={60}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={error}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={isSaving}>
              Cancelar
            </Button>
            <Button type="submit" loading={isSaving}>
              Guardar
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
