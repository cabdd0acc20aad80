import { Button, Group, Stack, Text } from '@mantine/core';
import { SECTIONS, type SectionName, type TTicket } from '@portal/contract';
import { IconEye, IconFileImport, IconListCheck, IconPencil, IconUserPlus, IconUserEdit } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { IconAction } from '@/components/ui/icon-action.tsx';
import { ListHeader } from '@/components/ui/list-header.tsx';
import { SlaBadge } from '@/components/ui/sla-badge.tsx';
import { TicketStatusBadge } from '@/components/ui/status-badge.tsx';
import { useSectionAccess, useSectionFlags } from '@/lib/permissions.ts';
import { useSession } from '@/lib/session.ts';
import { useMedia } from '@/lib/use-media.ts';
import type { TicketListKind } from '../api/tickets-api.ts';
import { useNewTicketRequest } from '../hooks/use-new-ticket-request.ts';
import { activitiesModeOf, type ActivitiesMode } from '../activities-mode.ts';
import { currentListPageSizes } from '../ticket-list-url.ts';
import { formatDate, formatDateTime, PriorityBadge } from './ticket-badges.tsx';
import { TicketLink, TicketTable, type TicketColumn } from './ticket-table.tsx';

// The dialogs' code (forms, uploads, activities) is not needed to show the list: it loads
// once the browser is idle after the list has rendered, or when a dialog opens before that.
const loadTicketForm = () => import('./ticket-form-modal.tsx');
const loadAssign = () => import('./assign-modal.tsx');
const loadActivities = () => import('./activities-modal.tsx');
const TicketFormModal = lazy(() => loadTicketForm().then((m) => ({ default: m.TicketFormModal })));
const AssignModal = lazy(() => loadAssign().then((m) => ({ default: m.AssignModal })));
const ActivitiesModal = lazy(() => loadActivities().then((m) => ({ default: m.ActivitiesModal })));
const ImportCsvModal = lazy(() => import('./import-csv-modal.tsx').then((m) => ({ default: m.ImportCsvModal })));

function usePreloadDialogs() {
  useEffect(() => {
    const preload = () => {
      for (const load of [loadTicketForm, loadAssign, loadActivities]) void load().catch(() => undefined);
    };
    if (typeof window.requestIdleCallback !== 'function') return preload();
    const id = window.requestIdleCallback(preload, { timeout: 3000 });
    return () => window.cancelIdleCallback(id);
  }, []);
}

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; ticket: TTicket }
  | { kind: 'assign'; ticket: TTicket }
  | { kind: 'activities'; ticket: TTicket; mode: ActivitiesMode }
  | { kind: 'import' }
  | null;

/**
 * Mis Tickets and Tickets Generales: the ticket list with 'Agregar' (w), edit
 * (u), 'Asignar' (w), the assignee pencil (u) and the activities column.
 */
export function TicketsScreen({ kind, section, title }: { kind: TicketListKind; section: SectionName; title: string }) {
  const session = useSession();
  const { canCreate, canUpdate } = useSectionFlags(section);
  // 'Importar CSV' on Tickets Generales: the ti_import section's w (the Administrador role).
  const canImport = useSectionAccess().can(SECTIONS.ticketImport, 'w') && kind === 'general';
  const [dialog, setDialog] = useState<Dialog>(null);
  const newTicketRequest = useNewTicketRequest(canCreate);
  usePreloadDialogs();
  const user = session?.user;
  // From 1200 px the table shows 'Creado'; from 1408 px also 'Proyecto' and 'Actualizado' (so it fits 1366 px).
  const isWide = useMedia('(min-width: 75em)');

  const columns: TicketColumn[] = [
    {
      header: 'ID',
      width: 64,
      sortKey: 'id',
      render: (t) => (
        <Text c="dimmed" size="sm">
          <TicketLink ticket={t}>{t.id}</TicketLink>
        </Text>
      ),
    },
    {
      header: 'Ticket',
      sortKey: 'name',
      render: (t) => (
        <Stack gap={0} miw={180} maw={340}>
          <Text size="sm" fw={600} lineClamp={1} title={t.name}>
            <TicketLink ticket={t}>{t.name}</TicketLink>
          </Text>
          <Text size="xs" c="dimmed" lineClamp={2}>
            {t.description}
          </Text>
        </Stack>
      ),
    },
    { header: 'Prioridad', width: 100, sortKey: 'priority', render: (t) => <PriorityBadge name={t.priorities.name} /> },
    {
      header: 'Estado',
      width: 130,
      sortKey: 'status',
      render: (t) => <TicketStatusBadge name={t.status_tickets.name} stage={t.status_tickets.stage} />,
    },
    {
      header: 'SLA',
      width: 110,
      sortKey: 'resolution_due_at',
      render: (t) => <SlaBadge state={t.sla_state} />,
    },
    {
      header: 'Proyecto',
      width: 130,
      sortKey: 'project',
      visibleFrom: 'xl',
      render: (t) => <Text size="sm">{t.projects.name}</Text>,
    },
    {
      header: 'Grupo',
      width: 130,
      sortKey: 'group',
      visibleFrom: 'lg',
      render: (t) => (
        <Text size="sm" c={t.group ? undefined : 'dimmed'}>
          {t.group?.name ?? 'Sin grupo'}
        </Text>
      ),
    },
    {
      header: 'Creado',
      width: 130,
      sortKey: 'created',
      visibleFrom: 'lg',
      render: (t) => (
        <Stack gap={0}>
          <Text size="sm" title={formatDateTime(t.created_at)} style={{ whiteSpace: 'nowrap' }}>
            {formatDate(t.created_at)}
          </Text>
          <Text size="xs" c="dimmed">
            por {t.users.name}
          </Text>
        </Stack>
      ),
    },
    {
      header: 'Asignado a',
      width: 160,
      render: (t) =>
        t.assigned_to ? (
          <Group gap={4} wrap="nowrap">
            <Text size="sm">{t.assigned_to.name}</Text>
            {canUpdate && (
              <IconAction
                label="Cambiar usuario asignado"
                ariaLabel={`Cambiar usuario asignado del ticket ${t.id}`}
                icon={<IconUserEdit size={16} />}
                size="sm"
                onClick={() => setDialog({ kind: 'assign', ticket: t })}
              />
            )}
          </Group>
        ) : canCreate ? (
          <Button
            size="compact-xs"
            variant="light"
            leftSection={<IconUserPlus size={14} />}
            onClick={() => setDialog({ kind: 'assign', ticket: t })}
            aria-label={`Asignar ticket ${t.id}`}
          >
            Asignar
          </Button>
        ) : (
          <Text size="sm" c="dimmed">
            Sin asignar
          </Text>
        ),
    },
    {
      header: 'Actividades',
      width: 96,
      align: 'center',
      render: (t) => {
        const mode = user ? activitiesModeOf(t, user) : 'denied';
        if (mode === 'denied') return <Text c="dimmed">-</Text>;
        const isRegister = mode === 'register';
        const label = isRegister ? 'Registrar actividad' : 'Ver actividades';
        return (
          <IconAction
            label={label}
            ariaLabel={`${label} del ticket ${t.id}`}
            icon={isRegister ? <IconListCheck size={18} /> : <IconEye size={18} />}
            variant={isRegister ? 'light' : 'subtle'}
            color={isRegister ? 'brand' : 'gray'}
            onClick={() => setDialog({ kind: 'activities', ticket: t, mode })}
          />
        );
      },
    },
  ];
  columns.push({
    header: 'Actualizado',
    width: 120,
    sortKey: 'updated',
    visibleFrom: 'xl',
    render: (t) => (
      <Text size="sm" title={formatDateTime(t.updated_at)} style={{ whiteSpace: 'nowrap' }}>
        {formatDate(t.updated_at)}
      </Text>
    ),
  });
  if (canUpdate) {
    columns.push({
      header: 'Acciones',
      width: 80,
      align: 'center',
      render: (t) => (
        <IconAction
          label="Editar"
          ariaLabel={`Editar ticket ${t.id}`}
          icon={<IconPencil size={18} />}
          onClick={() => setDialog({ kind: 'edit', ticket: t })}
        />
      ),
    });
  }

  return (
    <Stack gap="md">
      <ListHeader title={title} onAdd={canCreate ? () => setDialog({ kind: 'create' }) : undefined}>
        {canImport && (
          <Button
            variant="default"
            leftSection={<IconFileImport size={18} />}
            onClick={() => setDialog({ kind: 'import' })}
            ml="auto"
          >
            Importar CSV
          </Button>
        )}
      </ListHeader>

      <TicketTable
        kind={kind}
        label={title}
        columns={columns}
        pageSizes={currentListPageSizes.sizes}
        defaultPageSize={currentListPageSizes.defaultSize}
        minWidth={isWide ? 960 : 760}
        cardActions={
          canUpdate
            ? (t) => (
                <IconAction
                  label="Editar"
                  ariaLabel={`Editar ticket ${t.id}`}
                  icon={<IconPencil size={18} />}
                  onClick={() => setDialog({ kind: 'edit', ticket: t })}
                />
              )
            : undefined
        }
      />

      <Suspense fallback={null}>
        {(dialog?.kind === 'create' || newTicketRequest.isAsked) && (
          <TicketFormModal
            onClose={() => {
              setDialog(null);
              if (newTicketRequest.isAsked) newTicketRequest.forget();
            }}
          />
        )}
        {dialog?.kind === 'edit' && (
          <TicketFormModal key={dialog.ticket.id} ticket={dialog.ticket} onClose={() => setDialog(null)} />
        )}
        {dialog?.kind === 'assign' && (
          <AssignModal
            ticket={dialog.ticket}
            canAssign={canCreate}
            canReassign={canUpdate}
            onClose={() => setDialog(null)}
          />
        )}
        {dialog?.kind === 'activities' && user && (
          <ActivitiesModal ticket={dialog.ticket} userId={user.id} mode={dialog.mode} onClose={() => setDialog(null)} />
        )}
        {dialog?.kind === 'import' && <ImportCsvModal opened onClose={() => setDialog(null)} />}
      </Suspense>
    </Stack>
  );
}
