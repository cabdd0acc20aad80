import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { TPossibleDuplicate, TTicketReference } from '@portal/contract';
import { IconArrowMerge, IconCopy, IconEye } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { errorText, isSessionLost } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { mergeTicket } from '../api/links-api.ts';
import { ticketKeys } from '../api/tickets-api.ts';

/** A reference's page: every ticket carrying it. */
export const referencePath = (r: Pick<TTicketReference, 'type_id' | 'value'>) =>
  `/references/${r.type_id}/${encodeURIComponent(r.value)}`;

/** The logistics references of a ticket as chips; each opens the reference's page. */
export function ReferenceChips({ references }: { references: TTicketReference[] }) {
  if (references.length === 0) return null;
  return (
    <Group gap="xs" component="ul" aria-label="Referencias" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {references.map((r) => (
        <li key={`${r.type_id}-${r.value}`}>
          <Badge
            component={Link}
            to={referencePath(r)}
            variant="light"
            color="teal"
            tt="none"
            style={{ cursor: 'pointer' }}
            aria-label={`${r.type_name} ${r.value}: ver sus tickets`}
          >
            {r.type_name} {r.value}
          </Badge>
        </li>
      ))}
    </Group>
  );
}

/**
 * `Posible duplicado: #812 y #1044 (mismo embarque EMB-004512)`: a suggestion only. `Ver` opens
 * the other ticket; `Marcar como duplicado` merges this one into it, after a confirmation.
 */
export function PossibleDuplicateAlert({
  ticketId,
  suggestion,
  canMerge,
}: {
  ticketId: number;
  suggestion: TPossibleDuplicate;
  canMerge: boolean;
}) {
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<number | null>(null);
  const [isBusy, setBusy] = useState(false);
  const isSingle = suggestion.ticket_ids.length === 1;

  async function merge() {
    if (target === null) return;
    setBusy(true);
    try {
      await mergeTicket(ticketId, target);
      notifySuccess('Duplicado', `El ticket se marcó como duplicado de #${target}.`);
      setTarget(null);
      await queryClient.invalidateQueries({ queryKey: ticketKeys.all });
    } catch (error) {
      setTarget(null);
      if (!isSessionLost(error))
        notifyError('No se pudo marcar como duplicado', errorText(error, 'Inténtalo de nuevo.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Alert color="yellow" icon={<IconCopy size={18} />} title="Posible duplicado" role="status">
      <Stack gap="xs">
        <Text size="sm">{suggestion.message}</Text>
        {suggestion.ticket_ids.map((id) => (
          <Group key={id} gap="xs">
            <Button
              component={Link}
              to={`/tickets/${id}`}
              size="xs"
              variant="light"
              leftSection={<IconEye size={14} />}
            >
              {isSingle ? 'Ver' : `Ver #${id}`}
            </Button>
            {canMerge && (
              <Button
                size="xs"
                variant="default"
                leftSection={<IconArrowMerge size={14} />}
                onClick={() => setTarget(id)}
              >
                {isSingle ? 'Marcar como duplicado' : `Marcar como duplicado de #${id}`}
              </Button>
            )}
          </Group>
        ))}
      </Stack>
      <ConfirmDialog
        opened={target !== null}
        title={`¿Marcar como duplicado de #${target ?? ''}?`}
        message={`Sus actividades y adjuntos pasarán al ticket #${target ?? ''} y este ticket quedará Cancelado.`}
        confirmLabel="Sí, marcar como duplicado"
        isBusy={isBusy}
        onConfirm={() => void merge()}
        onCancel={() => setTarget(null)}
      />
    </Alert>
  );
}
