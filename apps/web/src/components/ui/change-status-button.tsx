import { IconRestore, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { isApiError, isSessionLost } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { IconAction } from './icon-action.tsx';

interface ChangeStatusButtonProps {
  /** 1 shows delete (deactivate), 2 shows restore. */
  statusId: number;
  /** What the action applies to, for its accessible name ('registro 3'). */
  recordLabel: string;
  /** Sends the new status; a rejection is shown as a failure. */
  onChange: (nextStatusId: 1 | 2) => Promise<unknown>;
  /** After the call, whatever its outcome (the list reloads keeping its page). */
  onDone?: () => unknown;
}

/**
 * The delete/restore button of a record: confirmation
 * '¿Estás seguro de eliminar?' / '¿Estás seguro de restaurar?', then
 * 'Eliminado' / 'Restaurado' or 'Hubo un problema al actualizar el estado.'.
 */
export function ChangeStatusButton({ statusId, recordLabel, onChange, onDone }: ChangeStatusButtonProps) {
  const [isConfirming, setConfirming] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const isDeactivating = statusId === 1;

  async function confirm() {
    setBusy(true);
    try {
      await onChange(isDeactivating ? 2 : 1);
      notifySuccess(
        isDeactivating ? 'Eliminado' : 'Restaurado',
        isDeactivating ? 'El registro fue desactivado.' : 'El registro fue restaurado.',
      );
    } catch (error) {
      if (!isSessionLost(error)) {
        notifyError('Hubo un problema al actualizar el estado.', isApiError(error) ? error.message : '');
      }
    } finally {
      setBusy(false);
      setConfirming(false);
    }
    await onDone?.();
  }

  return (
    <>
      {isDeactivating ? (
        <IconAction
          label="Eliminar"
          ariaLabel={`Eliminar ${recordLabel}`}
          icon={<IconTrash size={18} />}
          color="red"
          onClick={() => setConfirming(true)}
        />
      ) : (
        <IconAction
          label="Restaurar"
          ariaLabel={`Restaurar ${recordLabel}`}
          icon={<IconRestore size={18} />}
          color="teal"
          onClick={() => setConfirming(true)}
        />
      )}
      <ConfirmDialog
        opened={isConfirming}
        title={isDeactivating ? '¿Estás seguro de eliminar?' : '¿Estás seguro de restaurar?'}
        message={isDeactivating ? 'Este registro será desactivado' : 'Este registro será activado nuevamente'}
        confirmLabel={isDeactivating ? 'Sí, eliminar' : 'Sí, restaurar'}
        color={isDeactivating ? 'red' : undefined}
        isBusy={isBusy}
        onConfirm={() => void confirm()}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
