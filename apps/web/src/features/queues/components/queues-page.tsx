import { Badge, Button, Group, Paper, Stack, Tabs, Text } from '@mantine/core';
import { SECTIONS, type TTicket } from '@portal/contract';
import { IconHandGrab } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataColumn } from '@/components/ui/data-table.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { ListHeader } from '@/components/ui/list-header.tsx';
import { ListPagination } from '@/components/ui/list-pagination.tsx';
import { LoadErrorNotice } from '@/components/ui/load-error-notice.tsx';
import { TicketStatusBadge } from '@/components/ui/status-badge.tsx';
import { ticketPath } from '@/config/paths.ts';
import { errorText, isSessionLost } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { useSectionFlags } from '@/lib/permissions.ts';
import { QUEUE_PAGE_SIZE, queuePageQuery, queueTabsQuery, takeTicket } from '../api/queues-api.ts';

const dateFormat = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeStyle: 'short' });
const numberFormat = new Intl.NumberFormat('es-MX');

/**
 * /queues 'Colas': a tab per group the user belongs to (a supervisor sees every group) with the
 * group's unassigned open tickets, most urgent and oldest first, and 'Tomar' to assign one to
 * oneself. A ticket taken by anyone leaves every open queue live (the stream's ticket events).
 */
export default function QueuesPage() {
  const tabs = useQuery(queueTabsQuery());
  const groups = tabs.data?.data ?? [];
  const [active, setActive] = useState<string | null>(null);
  const current = active ?? (groups[0] ? String(groups[0].id) : null);

  return (
    <Stack gap="md">
      <ListHeader title="Colas" />
      <LoadErrorNotice error={tabs.error} onRetry={() => void tabs.refetch()} />
      {!tabs.isPending && groups.length === 0 && !tabs.isError ? (
        <EmptyState title="No perteneces a ningún grupo" hint="Pide a un administrador que te agregue a un grupo." />
      ) : (
        <Tabs value={current} onChange={setActive} keepMounted={false}>
          <Tabs.List>
            {groups.map((g) => (
              <Tabs.Tab
                key={g.id}
                value={String(g.id)}
                rightSection={
                  <Badge size="sm" variant="light" circle={g.count < 10}>
                    {numberFormat.format(g.count)}
                    {g.count_is_lower_bound ? '+' : ''}
                  </Badge>
                }
              >
                {g.name}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {groups.map((g) => (
            <Tabs.Panel key={g.id} value={String(g.id)} pt="md">
              <QueueTable groupId={g.id} groupName={g.name} />
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </Stack>
  );
}

function QueueTable({ groupId, groupName }: { groupId: number; groupName: string }) {
  const queryClient = useQueryClient();
  const { canCreate: canTake } = useSectionFlags(SECTIONS.queues);
  const [page, setPage] = useState(1);
  const [takingId, setTakingId] = useState<number | null>(null);
  const queue = useQuery(queuePageQuery(groupId, page));
  const rows = queue.data?.data ?? [];
  const total = queue.data?.meta.total ?? 0;

  async function take(ticket: TTicket) {
    setTakingId(ticket.id);
    try {
      await takeTicket(ticket.id);
      notifySuccess('Ticket asignado', `Tomaste el ticket #${ticket.id}.`);
    } catch (error) {
      if (!isSessionLost(error)) notifyError('No se pudo tomar el ticket', errorText(error, 'Inténtalo de nuevo.'));
    } finally {
      setTakingId(null);
      await queryClient.invalidateQueries({ queryKey: ['tickets'] });
    }
  }

  const columns: DataColumn<TTicket>[] = [
    {
      header: 'Ticket',
      render: (t) => (
        <Text size="sm" fw={600} component={Link} to={ticketPath(t.id)} c="inherit" td="none">
          #{t.id} {t.name}
        </Text>
      ),
    },
    { header: 'Prioridad', width: 110, render: (t) => <Text size="sm">{t.priorities.name}</Text> },
    {
      header: 'Estado',
      width: 130,
      render: (t) => <TicketStatusBadge name={t.status_tickets.name} stage={t.status_tickets.stage} />,
    },
    { header: 'Creado', width: 170, render: (t) => <Text size="sm">{dateFormat.format(new Date(t.created_at))}</Text> },
    { header: 'Creado por', width: 170, render: (t) => <Text size="sm">{t.users.name}</Text> },
  ];
  if (canTake) {
    columns.push({
      header: 'Acción',
      width: 110,
      align: 'center',
      render: (t) => (
        <Button
          size="compact-sm"
          leftSection={<IconHandGrab size={14} />}
          loading={takingId === t.id}
          disabled={takingId !== null}
          onClick={() => void take(t)}
          aria-label={`Tomar ticket ${t.id}`}
        >
          Tomar
        </Button>
      ),
    });
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} shadow="xs">
      <Stack gap="md">
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            Tickets sin asignar de {groupName}, lo más urgente y antiguo primero.
          </Text>
        </Group>
        <DataTable
          label={`Cola de ${groupName}`}
          columns={columns}
          rows={rows}
          rowKey={(t) => t.id}
          isLoading={queue.isPending}
          minWidth={720}
          emptyTitle="No hay tickets en esta cola."
          error={queue.error}
          onRetry={() => void queue.refetch()}
        />
        <ListPagination
          page={page}
          lastPage={Math.max(queue.data?.meta.last_page ?? 1, 1)}
          onChange={setPage}
          count={{ total, perPage: QUEUE_PAGE_SIZE, noun: 'tickets' }}
        />
      </Stack>
    </Paper>
  );
}
