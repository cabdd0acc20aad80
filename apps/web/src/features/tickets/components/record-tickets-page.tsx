import { Tabs, Text, Title } from '@mantine/core';
import { DEFAULT_HISTORY_PAGE_SIZE, SECTIONS, TICKET_PAGE_SIZES, type TicketStage } from '@portal/contract';
import { useSearchParams } from 'react-router';
import { TicketStatusBadge } from '@/components/ui/status-badge.tsx';
import { useSectionAccess } from '@/lib/permissions.ts';
import type { TicketListKind } from '../api/tickets-api.ts';
import { listUrlParams } from '../ticket-list-url.ts';
import { formatDateTime, PriorityBadge } from './ticket-badges.tsx';
import { TicketLink, TicketTable, type TicketColumn } from './ticket-table.tsx';

/** The columns of the history (TICKET, DESCRIPCION, FECHA, ESTATUS, PRIORIDAD, USUARIO, USUARIO_ASIGNADO). */
const columns: TicketColumn[] = [
  {
    header: 'TICKET',
    width: 90,
    sortKey: 'id',
    render: (t) => (
      <Text fw={600}>
        <TicketLink ticket={t}>#{t.id}</TicketLink>
      </Text>
    ),
  },
  {
    header: 'DESCRIPCION',
    sortKey: 'name',
    render: (t) => (
      <Text size="sm" lineClamp={2} maw={420}>
        <Text span fw={600} size="sm">
          <TicketLink ticket={t}>{t.name}</TicketLink>
        </Text>
        {' · '}
        {t.description}
      </Text>
    ),
  },
  {
    header: 'FECHA',
    width: 150,
    sortKey: 'created',
    visibleFrom: 'lg',
    render: (t) => <Text size="sm">{formatDateTime(t.created_at)}</Text>,
  },
  {
    header: 'ESTATUS',
    width: 130,
    sortKey: 'status',
    render: (t) => <TicketStatusBadge name={t.status_tickets.name} stage={t.status_tickets.stage} />,
  },
  {
    header: 'PRIORIDAD',
    width: 120,
    sortKey: 'priority',
    render: (t) => <PriorityBadge name={t.priorities.name} />,
  },
  { header: 'USUARIO', width: 160, visibleFrom: 'lg', render: (t) => <Text size="sm">{t.users.name}</Text> },
  {
    header: 'USUARIO_ASIGNADO',
    width: 170,
    render: (t) =>
      t.assigned_to ? (
        <Text size="sm">{t.assigned_to.name}</Text>
      ) : (
        <Text size="sm" c="dimmed">
          Sin asignar
        </Text>
      ),
  },
];

const tabs: {
  value: TicketListKind;
  label: string;
  section: (typeof SECTIONS)[keyof typeof SECTIONS];
  stages: TicketStage[];
}[] = [
  { value: 'current', label: 'Tickets Actuales', section: SECTIONS.currentTickets, stages: ['open', 'started'] },
  { value: 'old', label: 'Tickets Antiguos', section: SECTIONS.oldTickets, stages: ['closed'] },
];

/** /record-tickets: the ticket history, one tab per section the role may read. */
export default function RecordTicketsPage() {
  const { can } = useSectionAccess();
  const visible = tabs.filter((tab) => can(tab.section, 'r'));
  // The open tab is part of the URL with its search, filters and sort; another tab starts clean.
  const [params, setParams] = useSearchParams();
  const fromUrl = params.get('tab');
  const active = visible.some((tab) => tab.value === fromUrl) ? fromUrl : (visible[0]?.value ?? null);
  const setActive = (value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const key of [...listUrlParams, 'view']) next.delete(key);
        if (value) next.set('tab', value);
        return next;
      },
      { replace: true },
    );

  return (
    <>
      <Title order={2} size="h3" mb="md">
        Historial de tickets
      </Title>
      <Tabs value={active} onChange={setActive} keepMounted={false} variant="outline">
        <Tabs.List>
          {visible.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {visible.map((tab) => (
          <Tabs.Panel key={tab.value} value={tab.value} pt="md">
            <TicketTable
              kind={tab.value}
              label={tab.label}
              columns={columns}
              pageSizes={TICKET_PAGE_SIZES}
              defaultPageSize={DEFAULT_HISTORY_PAGE_SIZE}
              minWidth={760}
              stages={tab.stages}
            />
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  );
}
