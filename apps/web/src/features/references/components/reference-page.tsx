import { Alert, Button, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { TReferenceBulk, TReferenceBulkResponse, TReferencePage } from '@portal/contract';
import { IconArrowLeft, IconProgressCheck, IconUserPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { DataTable, type DataColumn } from '@/components/ui/data-table.tsx';
import { LoadErrorNotice } from '@/components/ui/load-error-notice.tsx';
import { OptionSelect } from '@/components/ui/option-select.tsx';
import { TicketStatusBadge } from '@/components/ui/status-badge.tsx';
import { ticketPath } from '@/config/paths.ts';
import { errorText, isSessionLost } from '@/lib/api-client.ts';
import { notifyError, notifySuccess, notifyWarning } from '@/lib/notify.ts';
import { referenceBulk, referencePageQuery } from '../api/references-api.ts';

type ReferenceTicket = TReferencePage['data']['tickets'][number];

const dateFormat = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string | null) => (iso ? dateFormat.format(new Date(iso)) : '—');

/**
 * /references/{type}/{value}: every ticket carrying a logistics reference (EMB-004512…) that the
 * user may see, open and closed, with a summary; a user with `u` on a ticket list may assign all
 * the open ones or move them to a status, and reads what happened to each one.
 */
export default function ReferencePage() {
  const { typeId, value = '' } = useParams();
  const query = useQuery(referencePageQuery(Number(typeId), value));
  const data = query.data?.data;

  const columns: DataColumn<ReferenceTicket>[] = [
    {
      header: 'Ticket',
      render: (t) => (
        <Text size="sm" fw={600} component={Link} to={ticketPath(t.id)} c="inherit" td="none">
          #{t.id} {t.name}
        </Text>
      ),
    },
    {
      header: 'Estado',
      width: 140,
      render: (t) => <TicketStatusBadge name={t.status_tickets.name} stage={t.status_tickets.stage} />,
    },
    { header: 'Asignado a', width: 180, render: (t) => <Text size="sm">{t.assignee || 'Sin asignar'}</Text> },
    { header: 'Creado', width: 170, render: (t) => <Text size="sm">{when(t.created_at)}</Text> },
    { header: 'Actualizado', width: 170, render: (t) => <Text size="sm">{when(t.updated_at)}</Text> },
  ];

  return (
    <Stack gap="md">
      <Button
        component={Link}
        to="/general-tickets"
        variant="subtle"
        leftSection={<IconArrowLeft size={16} />}
        w="fit-content"
      >
        Volver a los tickets
      </Button>
      <Title order={2} size="h3">
        {data ? `${data.type.name} ${data.value}` : `Referencia ${value}`}
      </Title>
      <LoadErrorNotice error={query.error} onRetry={() => void query.refetch()} />
      {data && (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" component="dl" aria-label="Resumen de la referencia" m={0}>
          <Summary label="Abiertos" value={String(data.summary.open)} />
          <Summary label="Cerrados" value={String(data.summary.closed)} />
          <Summary label="Primera vez" value={when(data.summary.first_seen)} />
          <Summary label="Última actividad" value={when(data.summary.last_activity)} />
        </SimpleGrid>
      )}
      {data?.can_update && data.summary.open > 0 && (
        <BulkActions typeId={data.type.id} value={data.value} open={data.summary.open} />
      )}
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} shadow="xs">
        <DataTable
          label={`Tickets con la referencia ${data?.value ?? value}`}
          columns={columns}
          rows={data?.tickets ?? []}
          rowKey={(t) => t.id}
          isLoading={query.isPending}
          minWidth={760}
          emptyTitle="Ningún ticket que puedas ver tiene esta referencia."
        />
      </Paper>
    </Stack>
  );
}

function Summary({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text component="dt" size="xs" c="dimmed">
        {label}
      </Text>
      <Text component="dd" fw={650} m={0}>
        {value}
      </Text>
    </Paper>
  );
}

/** Assign every open ticket, or move them all to a status: each is checked on its own, and the report says how each went. */
function BulkActions({ typeId, value, open }: { typeId: number; value: string; open: number }) {
  const queryClient = useQueryClient();
  const [userId, setUserId] = useState('');
  const [statusId, setStatusId] = useState('');
  const [busy, setBusy] = useState<TReferenceBulk['action'] | null>(null);
  const [report, setReport] = useState<TReferenceBulkResponse | null>(null);

  async function run(body: TReferenceBulk) {
    setBusy(body.action);
    try {
      const result = await referenceBulk(typeId, value, body);
      setReport(result);
      const failed = result.results.some((r) => !r.ok);
      (failed ? notifyWarning : notifySuccess)('Acción masiva', result.message);
      await queryClient.invalidateQueries({ queryKey: ['tickets'] });
    } catch (error) {
      if (!isSessionLost(error)) notifyError('No se pudo aplicar la acción', errorText(error, 'Inténtalo de nuevo.'));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="reference-bulk-title">
      <Title order={3} size="h5" mb="sm" id="reference-bulk-title">
        Acciones sobre los {open} tickets abiertos
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <div style={{ flex: 1 }}>
            <OptionSelect label="Asignar a" source="users" value={userId} onChange={setUserId} />
          </div>
          <Button
            leftSection={<IconUserPlus size={16} />}
            disabled={!userId || busy !== null}
            loading={busy === 'assign'}
            onClick={() => void run({ action: 'assign', user_id: Number(userId) })}
          >
            Asignar abiertos
          </Button>
        </Group>
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <div style={{ flex: 1 }}>
            <OptionSelect label="Cambiar estado a" source="ticket-statuses" value={statusId} onChange={setStatusId} />
          </div>
          <Button
            leftSection={<IconProgressCheck size={16} />}
            disabled={!statusId || busy !== null}
            loading={busy === 'status'}
            onClick={() => void run({ action: 'status', status_id: Number(statusId) })}
          >
            Cambiar estado
          </Button>
        </Group>
      </SimpleGrid>
      {report && report.results.length > 0 && (
        <Alert
          mt="md"
          color={report.results.some((r) => !r.ok) ? 'yellow' : 'teal'}
          title={report.message}
          role="status"
        >
          <List size="sm" aria-label="Resultado por ticket">
            {report.results.map((r) => (
              <List.Item key={r.ticket_id}>
                #{r.ticket_id}: {r.ok ? 'actualizado' : r.message}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Paper>
  );
}
