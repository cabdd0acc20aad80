import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import {
  TICKET_FIELD_LABELS,
  TICKET_RELATION_LABELS,
  type TicketRelation,
  type TTicketDetail,
  type TTicketEvent,
} from '@portal/contract';
import {
  IconArrowLeft,
  IconArrowMerge,
  IconCirclePlus,
  IconClockHour4,
  IconEye,
  IconLink,
  IconListCheck,
  IconPencil,
  IconProgressCheck,
  IconTrash,
  IconUnlink,
  IconUserEdit,
  IconUserPlus,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { SlaBadge } from '@/components/ui/sla-badge.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { TicketStatusBadge } from '@/components/ui/status-badge.tsx';
import { errorText, isApiError } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { optionsQuery } from '@/lib/resource-api.ts';
import { useSession } from '@/lib/session.ts';
import { ticketDetailQuery, ticketKeys, updateTicket } from '../api/tickets-api.ts';
import { ActivitiesModal } from './activities-modal.tsx';
import { AssignModal } from './assign-modal.tsx';
import { DuplicateBanner, RelationsPanel } from './relations-panel.tsx';
import { formatDateTime, PriorityBadge } from './ticket-badges.tsx';
import { TicketFormModal } from './ticket-form-modal.tsx';
import { PossibleDuplicateAlert, ReferenceChips } from './ticket-references.tsx';

type Dialog = 'edit' | 'assign' | 'activities' | null;

const quote = (text: string | null) => `«${text ?? ''}»`;

/** What one timeline entry says, in Spanish. */
export function describeEvent(e: TTicketEvent): { title: string; detail?: string } {
  switch (e.kind) {
    case 'created':
      return { title: 'Creó el ticket' };
    case 'edited': {
      const label = TICKET_FIELD_LABELS[e.field as keyof typeof TICKET_FIELD_LABELS] ?? e.field ?? 'un campo';
      return { title: `Cambió ${label.toLowerCase()}`, detail: `${e.from_value ?? '—'} → ${e.to_value ?? '—'}` };
    }
    case 'status_changed':
      return { title: 'Cambió el estado', detail: `${e.from_value ?? '—'} → ${e.to_value ?? '—'}` };
    case 'assigned':
      return e.from_value === null
        ? { title: `Asignó el ticket a ${e.to_value ?? '—'}` }
        : { title: 'Reasignó el ticket', detail: `${e.from_value} → ${e.to_value ?? '—'}` };
    case 'auto_assigned':
      // The reason, as the portal wrote it: 'Asignado automáticamente (menor carga: 3 abiertos)'.
      return { title: e.from_value ?? 'Asignado automáticamente', detail: `Asignado a ${e.to_value ?? '—'}` };
    case 'activity_added':
      return { title: 'Registró una actividad', detail: quote(e.to_value) };
    case 'activity_removed':
      return { title: 'Eliminó una actividad', detail: quote(e.from_value) };
    case 'activity_restored':
      return { title: 'Restauró una actividad', detail: quote(e.from_value) };
    case 'sla_assigned':
    case 'sla_paused':
    case 'sla_resumed':
    case 'sla_recalculated':
    case 'sla_breached':
    case 'sla_met':
      return { title: slaEventTitles[e.kind], detail: `Vence: ${dueDate(e.from_value)} → ${dueDate(e.to_value)}` };
    case 'linked': {
      const label = TICKET_RELATION_LABELS[e.field as TicketRelation] ?? 'Relacionado con';
      return { title: `Agregó una relación: ${label.toLowerCase()}`, detail: e.to_value ?? undefined };
    }
    case 'unlinked':
      return { title: `Quitó la relación con ${e.from_value ?? '—'}` };
    case 'merged':
      return e.field === 'into'
        ? { title: 'Marcó el ticket como duplicado', detail: `Fusionado en ${e.to_value ?? '—'}` }
        : { title: 'Recibió un ticket duplicado', detail: `Actividades y adjuntos de ${e.from_value ?? '—'}` };
  }
}

const slaEventTitles = {
  sla_assigned: 'SLA asignado',
  sla_paused: 'SLA pausado',
  sla_resumed: 'SLA reanudado',
  sla_recalculated: 'SLA recalculado',
  sla_breached: 'SLA vencido',
  sla_met: 'SLA cumplido',
} as const;

const dueDate = (iso: string | null) =>
  iso === null ? '—' : new Date(iso).toLocaleString('es-MX', { dateStyle: 'medium', timeStyle: 'short' });

const eventIcons = {
  created: IconCirclePlus,
  edited: IconPencil,
  status_changed: IconProgressCheck,
  assigned: IconUserEdit,
  auto_assigned: IconUserEdit,
  activity_added: IconListCheck,
  activity_removed: IconTrash,
  activity_restored: IconListCheck,
  sla_assigned: IconClockHour4,
  sla_paused: IconClockHour4,
  sla_resumed: IconClockHour4,
  sla_recalculated: IconClockHour4,
  sla_breached: IconClockHour4,
  sla_met: IconClockHour4,
  linked: IconLink,
  unlinked: IconUnlink,
  merged: IconArrowMerge,
} as const;

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

/**
 * Status change on the page: the same update as the edit form, with only the status changed.
 * Closing a parent whose children are still open asks first, listing them (the API's 409).
 */
function StatusSelect({ ticket }: { ticket: TTicketDetail }) {
  const queryClient = useQueryClient();
  const statuses = useQuery(optionsQuery('ticket-statuses')).data ?? [];
  const [isSaving, setSaving] = useState(false);
  const [pending, setPending] = useState<{ statusId: number; children: string[] } | null>(null);
  const data = statuses.some((s) => s.id === ticket.status_id)
    ? statuses
    : [{ id: ticket.status_id, name: ticket.status_tickets.name }, ...statuses];

  async function change(statusId: number, closeWithOpenChildren = false) {
    setSaving(true);
    try {
      await updateTicket(ticket.id, {
        name: ticket.name,
        description: ticket.description,
        area_id: ticket.area_id,
        project_id: ticket.project_id,
        category_id: ticket.category_id,
        priority_type_id: ticket.priority_type_id,
        difficulty_id: ticket.difficulty_id,
        status_id: statusId,
        ...(closeWithOpenChildren ? { close_with_open_children: true } : {}),
      });
      setPending(null);
      notifySuccess('Actualizado', 'Estado del ticket actualizado.');
      await queryClient.invalidateQueries({ queryKey: ticketKeys.all });
    } catch (error) {
      if (isApiError(error) && error.details.exception === 'OpenChildren') {
        setPending({ statusId, children: error.details.errors?.open_children ?? [] });
      } else {
        setPending(null);
        notifyError('No se pudo cambiar el estado', errorText(error, 'Inténtalo de nuevo.'));
      }
    } finally {
      setSaving(false);
    }
  }

  return (
    <>
      <Select
        label="Cambiar estado"
        data={data.map((s) => ({ value: String(s.id), label: s.name }))}
        value={String(ticket.status_id)}
        onChange={(v) => {
          if (v && Number(v) !== ticket.status_id) void change(Number(v));
        }}
        disabled={isSaving}
        allowDeselect={false}
        w={{ base: '100%', xs: 220 }}
      />
      <ConfirmDialog
        opened={pending !== null}
        title="¿Cerrar el ticket con hijos abiertos?"
        message={`Estos tickets hijos siguen abiertos: ${pending?.children.join(', ') ?? ''}.`}
        confirmLabel="Sí, cerrar"
        isBusy={isSaving}
        onConfirm={() => pending && void change(pending.statusId, true)}
        onCancel={() => setPending(null)}
      />
    </>
  );
}

/** /tickets/:id — one ticket in full with its timeline. */
export default function TicketPage() {
  const { id: rawId } = useParams();
  const id = Number(rawId);
  const isValidId = Number.isSafeInteger(id) && id > 0;
  const session = useSession();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const query = useQuery({ ...ticketDetailQuery(id), enabled: isValidId });

  const back = (
    <Anchor component="button" type="button" size="sm" onClick={() => navigate(-1)}>
      <Group gap={4}>
        <IconArrowLeft size={16} /> Volver
      </Group>
    </Anchor>
  );

  if (!isValidId || query.isError) {
    const status = isApiError(query.error) ? query.error.status : 404;
    const message =
      status === 403
        ? 'No tienes permiso para ver este ticket.'
        : status === 404 || !isValidId
          ? 'El ticket no existe.'
          : errorText(query.error, 'No se pudo cargar el ticket.');
    return (
      <Stack gap="md" maw={640}>
        {back}
        <Alert color={status === 403 ? 'orange' : 'red'} title={`Ticket #${rawId ?? ''}`} role="alert">
          {message}
        </Alert>
        <Button component={Link} to="/tickets" variant="light" w="fit-content">
          Ir a Mis Tickets
        </Button>
      </Stack>
    );
  }

  if (query.isPending) {
    return (
      <Stack gap="md" aria-busy>
        <Skeleton height={28} width="50%" />
        <Skeleton height={160} />
        <Skeleton height={220} />
      </Stack>
    );
  }

  const ticket = query.data.data;
  const { can } = ticket;
  const activitiesMode = can.activities === 'register' ? 'register' : can.activities === 'view' ? 'read-only' : null;

  return (
    <Stack gap="md">
      {back}
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
            #{ticket.id} · {ticket.name}
          </Title>
          <Group gap="xs">
            <TicketStatusBadge name={ticket.status_tickets.name} stage={ticket.status_tickets.stage} />
            <SlaBadge state={ticket.sla.state} minutesLeft={ticket.sla.business_minutes_left} />
            <PriorityBadge name={ticket.priorities.name} />
          </Group>
          <ReferenceChips references={ticket.references} />
        </Stack>
        <Group gap="xs">
          {can.update && (
            <Button leftSection={<IconPencil size={16} />} onClick={() => setDialog('edit')}>
              Editar
            </Button>
          )}
          {(can.assign || can.reassign) && (
            <Button
              variant="light"
              leftSection={can.assign ? <IconUserPlus size={16} /> : <IconUserEdit size={16} />}
              onClick={() => setDialog('assign')}
            >
              {can.assign ? 'Asignar' : 'Cambiar asignado'}
            </Button>
          )}
          {activitiesMode && (
            <Button
              variant="default"
              leftSection={activitiesMode === 'register' ? <IconListCheck size={16} /> : <IconEye size={16} />}
              onClick={() => setDialog('activities')}
            >
              {activitiesMode === 'register' ? 'Registrar actividad' : 'Ver actividades'}
            </Button>
          )}
        </Group>
      </Group>

      <DuplicateBanner ticketId={ticket.id} />
      {ticket.possible_duplicate && (
        <PossibleDuplicateAlert ticketId={ticket.id} suggestion={ticket.possible_duplicate} canMerge={can.update} />
      )}
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        <Stack gap="md" style={{ gridColumn: 'span 2' }} className="ticket-main">
          <Paper withBorder radius="md" p="md">
            <Stack gap="md">
              <Field label="Descripción">
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {ticket.description}
                </Text>
              </Field>
              <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="md">
                <Field label="Área">
                  <Text size="sm">{ticket.areas.name}</Text>
                </Field>
                <Field label="Proyecto">
                  <Text size="sm">{ticket.projects.name}</Text>
                </Field>
                <Field label="Categoría">
                  <Text size="sm">{ticket.categories.name}</Text>
                </Field>
                <Field label="Grupo">
                  <Text size="sm" c={ticket.group ? undefined : 'dimmed'}>
                    {ticket.group?.name ?? 'Sin grupo'}
                  </Text>
                </Field>
                <Field label="Dificultad">
                  <Text size="sm">{ticket.difficulties.name}</Text>
                </Field>
                <Field label="Prioridad">
                  <PriorityBadge name={ticket.priorities.name} />
                </Field>
                <Field label="Estado">
                  <TicketStatusBadge name={ticket.status_tickets.name} stage={ticket.status_tickets.stage} />
                </Field>
                {ticket.sla.resolution_due_at && (
                  <Field label="Resolver antes de">
                    <Text size="sm">{dueDate(ticket.sla.resolution_due_at)}</Text>
                  </Field>
                )}
                <Field label="Creado por">
                  <Text size="sm">{ticket.users.name}</Text>
                </Field>
                <Field label="Asignado a">
                  {ticket.assigned_to ? (
                    <Text size="sm">{ticket.assigned_to.name}</Text>
                  ) : (
                    <Badge variant="light" color="gray" tt="none">
                      Sin asignar
                    </Badge>
                  )}
                </Field>
                <Field label="Creado">
                  <Text size="sm">{formatDateTime(ticket.created_at)}</Text>
                </Field>
                <Field label="Actualizado">
                  <Text size="sm">{formatDateTime(ticket.updated_at)}</Text>
                </Field>
              </SimpleGrid>
              {can.update && <StatusSelect ticket={ticket} />}
            </Stack>
          </Paper>
          {/*
           * ATTACHMENTS SLOT: the attachments panel of this
           * ticket goes here, e.g. <TicketAttachments ticketId={ticket.id} canUpload={can.update} />,
           * once the attachments feature is merged. Nothing is rendered until then.
           */}
          <RelationsPanel ticketId={ticket.id} />
        </Stack>

        <Paper withBorder radius="md" p="md" component="section" aria-labelledby="ticket-timeline-title">
          <Title order={3} size="h5" mb="sm" id="ticket-timeline-title">
            Historial del ticket
          </Title>
          <Timeline bulletSize={24} lineWidth={2} active={ticket.events.length - 1} aria-label="Línea de tiempo">
            {ticket.events.map((e) => {
              const { title, detail } = describeEvent(e);
              const Icon = eventIcons[e.kind];
              return (
                <Timeline.Item key={e.id} bullet={<Icon size={13} />} title={title} data-testid="timeline-item">
                  {detail && (
                    <Text size="sm" lineClamp={4} style={{ overflowWrap: 'anywhere' }}>
                      {detail}
                    </Text>
                  )}
                  <Text size="xs" c="dimmed" mt={2}>
                    {e.user?.name ?? 'Sistema'} · {formatDateTime(e.created_at)}
                  </Text>
                </Timeline.Item>
              );
            })}
          </Timeline>
        </Paper>
      </SimpleGrid>

      {dialog === 'edit' && <TicketFormModal ticket={ticket} onClose={() => setDialog(null)} />}
      {dialog === 'assign' && (
        <AssignModal
          ticket={ticket}
          canAssign={can.assign}
          canReassign={can.reassign}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'activities' && activitiesMode && session && (
        <ActivitiesModal
          ticket={ticket}
          userId={session.user.id}
          mode={activitiesMode}
          onClose={() => {
            setDialog(null);
            void query.refetch();
          }}
        />
      )}
    </Stack>
  );
}
