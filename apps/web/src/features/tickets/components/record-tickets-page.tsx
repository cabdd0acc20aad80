import { Tabs, Text, Title } from '@mantine/core';
import { DEFAULT_HISTORY_PAGE_SIZE, SECTIONS, TICKET_PAGE_SIZES } from '@portal/contract';
import { useState } from 'react';
import { TicketStatusBadge } from '@/components/ui/status-badge.tsx';
import { useSectionAccess } from '@/lib/permissions.ts';
import type { TicketListKind } from '../api/tickets-api.ts';
import { formatDateTime, PriorityBadge } from './ticket-badges.tsx';
import { TicketTable, type TicketColumn } from './ticket-table.tsx';

/** SPEC §2: the columns of the history (TICKET, DESCRIPCION, FECHA, ESTATUS, PRIORIDAD, USUARIO, USUARIO_ASIGNADO). */
const columns: TicketColumn[] = [
  { header: 'TICKET', width: 80, render: (t) => <Text fw={600}>#{t.id}</Text> },
  {
    header: 'DESCRIPCION',
    render: (t) => (
      <Text size="sm" lineClamp={2} maw={420}>
        <Text span fw={600} size="sm">
          {t.name}
        </Text>
        {' · '}
        {t.description}
      </Text>
    ),
  },
  { header: 'FECHA', width: 150, render: (t) => <Text size="sm">{formatDateTime(t.created_at)}</Text> },
  {
    header: 'ESTATUS',
    width: 130,
    render: (t) => <TicketStatusBadge name={t.status_tickets.name} stage={t.status_tickets.stage} />,
  },
  { header: 'PRIORIDAD', width: 110, render: (t) => <PriorityBadge name={t.priorities.name} /> },
  { header: 'USUARIO', width: 160, render: (t) => <Text size="sm">{t.users.name}</Text> },
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

const tabs: { value: TicketListKind; label: string; section: (typeof SECTIONS)[keyof typeof SECTIONS] }[] = [
  { value: 'current', label: 'Tickets Actuales', section: SECTIONS.currentTickets },
  { value: 'old', label: 'Tickets Antiguos', section: SECTIONS.oldTickets },
];

/** /record-tickets: the ticket history, one tab per section the role may read. */
export default function RecordTicketsPage() {
  const { can } = useSectionAccess();
  const visible = tabs.filter((tab) => can(tab.section, 'r'));
  const [active, setActive] = useState<string | null>(visible[0]?.value ?? null);

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
            />
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  );
}
