import { Badge, Button, Group, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  MAIL_IN_OUTCOME_LABELS,
  MAIL_STATUS_LABELS,
  SECTIONS,
  mailInOutcomes,
  mailStatuses,
  type MailStatus,
  type TMailOutboxItem,
} from '@portal/contract';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable, type DataColumn } from '@/components/ui/data-table.tsx';
import { ListHeader } from '@/components/ui/list-header.tsx';
import { ListPagination } from '@/components/ui/list-pagination.tsx';
import { readableBadgeText } from '@/components/ui/status-badge.tsx';
import { errorText, isSessionLost } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { useSectionFlags } from '@/lib/permissions.ts';
import { isLoadingPage, useListParams } from '@/lib/use-list-params.ts';
import { mailInStatusQuery, mailOutboxQuery, retryMail } from '../api/mail-outbox-api.ts';

const dateTime = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeStyle: 'short' });
const formatDate = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : '—');

/** Red text that keeps a 4.5:1 contrast in both schemes. */
const errorColor = readableBadgeText('red');
const statusColor: Record<MailStatus, string> = { pending: 'yellow', sending: 'blue', sent: 'green', failed: 'red' };
const ALL = 'all';
const statusOptions = [
  { value: ALL, label: 'Todos' },
  ...mailStatuses.map((s) => ({ value: s, label: MAIL_STATUS_LABELS[s] })),
];

/** Correo entrante: the last read of the mailbox, how many messages per outcome, the last error. */
function InboundStatus() {
  const status = useQuery(mailInStatusQuery());
  const data = status.data;
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      shadow="xs"
      aria-label="Correo entrante"
      component="section"
    >
      <Stack gap="xs">
        <Text fw={600}>Correo entrante</Text>
        {status.isError ? (
          <Text size="sm" c={errorColor}>
            {errorText(status.error, 'No se pudo leer el estado del correo entrante.')}
          </Text>
        ) : !data ? (
          <Text size="sm" c="dimmed">
            Cargando…
          </Text>
        ) : (
          <>
            <Text size="sm" c={data.enabled ? undefined : 'dimmed'}>
              {data.enabled
                ? `Última lectura del buzón: ${formatDate(data.last_poll_at)}`
                : 'Sin buzón configurado (MAIL_IN_URL): no se lee correo entrante.'}
            </Text>
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
              {mailInOutcomes.map((outcome) => (
                <Group key={outcome} gap={6}>
                  <Text size="sm">{MAIL_IN_OUTCOME_LABELS[outcome]}:</Text>
                  <Text size="sm" fw={600} data-testid={`mail-in-${outcome}`}>
                    {data.counts[outcome]}
                  </Text>
                </Group>
              ))}
            </SimpleGrid>
            <Text size="sm" c={data.last_error ? errorColor : 'dimmed'} style={{ overflowWrap: 'anywhere' }}>
              {data.last_error
                ? `Último error (${formatDate(data.last_error_at)}): ${data.last_error}`
                : 'Sin errores.'}
            </Text>
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** /mail-outbox 'Correo': the mail queue (pending, sent, failed with its last error), a retry, and mail in. */
export default function MailOutboxPage() {
  const queryClient = useQueryClient();
  const { canCreate: canRetry } = useSectionFlags(SECTIONS.mailOutbox);
  const list = useListParams('mail-outbox');
  const { page, setPage, perPage } = list;
  const [status, setStatus] = useState<MailStatus | undefined>(undefined);
  const [retryingId, setRetryingId] = useState<number | null>(null);
  const mails = useQuery(mailOutboxQuery({ page, per_page: perPage, status }));
  const meta = mails.isError ? undefined : mails.data?.meta;

  async function retry(mail: TMailOutboxItem) {
    setRetryingId(mail.id);
    try {
      const answer = await retryMail(mail.id);
      notifySuccess('Correo en cola', answer.message);
    } catch (error) {
      if (!isSessionLost(error)) notifyError('No se pudo reintentar', errorText(error, 'Inténtalo de nuevo.'));
    } finally {
      setRetryingId(null);
      await queryClient.invalidateQueries({ queryKey: ['mail-outbox'] });
    }
  }

  const columns: DataColumn<TMailOutboxItem>[] = [
    { header: 'Fecha', width: 170, render: (m) => <Text size="sm">{formatDate(m.created_at)}</Text> },
    {
      header: 'Para',
      width: 220,
      render: (m) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {m.to_address}
        </Text>
      ),
    },
    { header: 'Asunto', render: (m) => <Text size="sm">{m.subject}</Text> },
    {
      header: 'Estado',
      width: 120,
      render: (m) => (
        <Badge
          variant="light"
          color={statusColor[m.status]}
          c={readableBadgeText(statusColor[m.status])}
          radius="sm"
          tt="none"
        >
          {MAIL_STATUS_LABELS[m.status]}
        </Badge>
      ),
    },
    { header: 'Intentos', width: 90, align: 'center', render: (m) => <Text size="sm">{m.attempts}</Text> },
    {
      header: 'Último error',
      width: 240,
      visibleFrom: 'md',
      render: (m) => (
        <Text size="xs" c={m.last_error ? errorColor : 'dimmed'} style={{ overflowWrap: 'anywhere' }}>
          {m.last_error ?? (m.sent_at ? `Enviado: ${formatDate(m.sent_at)}` : '—')}
        </Text>
      ),
    },
  ];
  if (canRetry) {
    columns.push({
      header: 'Acción',
      width: 130,
      align: 'center',
      render: (m) =>
        m.status === 'failed' ? (
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconRefresh size={14} />}
            loading={retryingId === m.id}
            disabled={retryingId !== null}
            onClick={() => void retry(m)}
            aria-label={`Reintentar el correo a ${m.to_address}`}
          >
            Reintentar
          </Button>
        ) : null,
    });
  }

  return (
    <Stack gap="md">
      <ListHeader title="Correo" />
      <InboundStatus />
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} shadow="xs">
        <Stack gap="md">
          <Group justify="space-between" align="flex-end">
            <Select
              label="Estado"
              data={statusOptions}
              value={status ?? ALL}
              onChange={(value) => {
                setStatus(value && value !== ALL ? (value as MailStatus) : undefined);
                setPage(1);
              }}
              allowDeselect={false}
              w={200}
            />
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={() => void queryClient.invalidateQueries({ queryKey: ['mail-outbox'] })}
            >
              Actualizar
            </Button>
          </Group>
          <DataTable
            columns={columns}
            rows={mails.isError ? [] : (mails.data?.data ?? [])}
            rowKey={(m) => m.id}
            isLoading={isLoadingPage(mails)}
            minWidth={900}
            label="Cola de correo"
            emptyTitle={status ? 'No hay correos en ese estado.' : 'No hay correos en la cola.'}
            error={mails.error}
            onRetry={() => void mails.refetch()}
          />
          <ListPagination
            page={page}
            lastPage={Math.max(meta?.last_page ?? 1, 1)}
            onChange={setPage}
            count={{ total: meta?.total ?? 0, perPage, noun: 'correos' }}
          />
        </Stack>
      </Paper>
    </Stack>
  );
}
