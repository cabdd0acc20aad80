import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';
import type { FormProblem } from '@/lib/use-record-form.ts';

/** Why the last save failed, above the fields. */
export function FormProblemAlert({ problem }: { problem: FormProblem | null }) {
  if (!problem) return null;
  return (
    <Alert color="red" variant="light" title={problem.title} icon={<IconAlertCircle />} role="alert">
      <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
        {problem.text}
      </Text>
    </Alert>
  );
}

/** The right section of a field: a check once its value is valid, else none (so the input keeps its padding). */
export const validMark = (isValid: boolean) =>
  isValid ? <IconCheck size={16} color="var(--mantine-color-teal-7)" aria-hidden /> : null;

/** 'Cancelar' and 'Guardar' at the foot of a create/edit form. */
export function FormActions({ onCancel, isSaving }: { onCancel: () => void; isSaving: boolean }) {
  return (
    <Group justify="flex-end" gap="sm" mt="xs">
      <Button variant="default" onClick={onCancel} disabled={isSaving}>
        Cancelar
      </Button>
      <Button type="submit" loading={isSaving}>
        Guardar
      </Button>
    </Group>
  );
}
