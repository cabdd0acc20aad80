import { Button, Group, Modal, Text } from '@mantine/core';

export interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  color?: string;
  isBusy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A yes/no question before an action ('¿Estás seguro de eliminar?'). */
export function ConfirmDialog({
  opened,
  title,
  message,
  confirmLabel,
  color,
  isBusy,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title={<Text fw={650}>{title}</Text>} size="sm">
      <Text size="sm">{message}</Text>
      <Group justify="flex-end" gap="sm" mt="lg">
        <Button variant="default" onClick={onCancel} disabled={isBusy}>
          Cancelar
        </Button>
        <Button color={color} onClick={onConfirm} loading={isBusy} data-autofocus>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
