import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Progress,
  Select,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  DEFAULT_TICKET_SORT,
  TICKET_RELATION_LABELS,
  type TicketRelation,
  type TTicketLink,
  type TTicketLinkCreate,
} from '@portal/contract';
import { IconArrowMerge, IconCopy, IconLink, IconUnlink } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { TicketStatusBadge } from '@/components/ui/status-badge.tsx';
import { errorText, isSessionLost } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { userPermissionsQuery } from '@/lib/permissions.ts';
import { useSession } from '@/lib/session.ts';
import { addTicketLink, mergeTicket, removeTicketLink, ticketLinksQuery } from '../api/links-api.ts';
import { ticketKeys, ticketListQuery } from '../api/tickets-api.ts';

/** The order of the panel's groups, and each group's heading. */
const groups: { relation: TicketRelation; heading: string }[] = [
  { relation: 'parent', heading: 'Ticket padre' },
  { relation: 'child', heading: 'Tickets hijos' },
  { relation: 'duplicate_of', heading: 'Duplicado de' },
  { relation: 'duplicated_by', heading: 'Sus duplicados' },
  { relation: 'related', heading: 'Relacionados con' },
];

const addable: TTicketLinkCreate['relation'][] = ['parent', 'child', 'duplicate_of', 'related'];

/** A search box text as the ticket lists search it: a bare number is that ticket. */
const searchOf = (text: string) => (/^#?\d+$/.test(text.trim()) ? `#${text.trim().replace('#', '')}` : text.trim());

function LinkRow({ link, canEdit, onRemove }: { link: TTicketLink; canEdit: boolean; onRemove: () => void }) {
  const { ticket } = link;
  return (
    <Group gap="xs" wrap="nowrap" justify="space-between" data-testid="relation-row">
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        {ticket.visible ? (
          <Anchor component={Link} to={`/tickets/${ticket.id}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
            #{ticket.id} · {ticket.name}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            #{ticket.id} (sin acceso)
          </Text>
        )}
        <TicketStatusBadge name={ticket.status_tickets.name} stage={ticket.status_tickets.stage} />
      </Group>
      {canEdit && (
        <Tooltip label="Quitar relación">
          <ActionIcon variant="subtle" color="red" aria-label={`Quitar relación con #${ticket.id}`} onClick={onRemove}>
            <IconUnlink size={16} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

/** Adds a relation: its kind and the other ticket, found by number or words. */
function AddLinkForm({ ticketId, onAdded }: { ticketId: number; onAdded: () => Promise<void> }) {
  const session = useSession();
  const allowed = useQuery({ ...userPermissionsQuery(session!), enabled: session !== null }).data;
  const list = allowed?.has('general-tickets') ? 'general' : 'mine';
  const [relation, setRelation] = useState<TTicketLinkCreate['relation']>('related');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [other, setOther] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const [isConfirmingMerge, setConfirmingMerge] = useState(false);
  const isMerge = relation === 'duplicate_of';
  const results = useQuery({
    ...ticketListQuery(list, {
      page: 1,
      per_page: 8,
      search: searchOf(debounced),
      filters: {},
      sort: DEFAULT_TICKET_SORT,
    }),
    placeholderData: undefined,
    enabled: debounced.trim().length >= 1 && other === null,
  });
  const options = (results.data?.data ?? [])
    .filter((t) => t.id !== ticketId)
    .map((t) => ({ value: String(t.id), label: `#${t.id} · ${t.name}` }));

  async function add() {
    if (!other) return;
    setSaving(true);
    try {
      if (isMerge) {
        await mergeTicket(ticketId, Number(other));
        notifySuccess('Duplicado', `El ticket se marcó como duplicado de #${other}.`);
      } else {
        await addTicketLink(ticketId, { relation, ticket_id: Number(other) });
        notifySuccess('Relación agregada', `El ticket #${other} quedó relacionado.`);
      }
      setConfirmingMerge(false);
      setOther(null);
      setSearch('');
      await onAdded();
    } catch (error) {
      setConfirmingMerge(false);
      if (!isSessionLost(error)) notifyError('No se pudo agregar la relación', errorText(error, 'Inténtalo de nuevo.'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack gap="xs">
      <Select
        label="Tipo de relación"
        data={addable.map((r) => ({ value: r, label: TICKET_RELATION_LABELS[r] }))}
        value={relation}
        onChange={(v) => v && setRelation(v as TTicketLinkCreate['relation'])}
        allowDeselect={false}
      />
      <Select
        label="Ticket"
        placeholder="Buscar por número o palabras"
        searchable
        data={other ? [{ value: other, label: search }, ...options.filter((o) => o.value !== other)] : options}
        value={other}
        searchValue={search}
        onSearchChange={(value) => {
          setSearch(value);
          if (other && value !== search) setOther(null);
        }}
        onChange={setOther}
        filter={({ options: all }) => all}
        nothingFoundMessage={debounced.trim() ? 'No se encontraron tickets.' : undefined}
      />
      <Button
        leftSection={isMerge ? <IconArrowMerge size={16} /> : <IconLink size={16} />}
        onClick={() => (isMerge ? setConfirmingMerge(true) : void add())}
        disabled={!other}
        loading={isSaving}
        w="fit-content"
      >
        {isMerge ? `Marcar como duplicado de #${other ?? 'N'}` : 'Agregar relación'}
      </Button>
      <ConfirmDialog
        opened={isConfirmingMerge}
        title={`¿Marcar como duplicado de #${other ?? ''}?`}
        message={`Sus actividades y adjuntos pasarán al ticket #${other ?? ''} y este ticket quedará Cancelado.`}
        confirmLabel="Sí, marcar como duplicado"
        isBusy={isSaving}
        onConfirm={() => void add()}
        onCancel={() => setConfirmingMerge(false)}
      />
    </Stack>
  );
}

/** The Relacionados panel of a ticket's page: its parent, children (with their progress), duplicates and related tickets. */
export function RelationsPanel({ ticketId }: { ticketId: number }) {
  const queryClient = useQueryClient();
  const query = useQuery(ticketLinksQuery(ticketId));
  const refresh = () => queryClient.invalidateQueries({ queryKey: ticketKeys.all });

  async function remove(link: TTicketLink) {
    try {
      await removeTicketLink(ticketId, link.id);
      notifySuccess('Relación eliminada', `El ticket #${link.ticket.id} ya no está relacionado.`);
      await refresh();
    } catch (error) {
      if (!isSessionLost(error)) notifyError('No se pudo quitar la relación', errorText(error, 'Inténtalo de nuevo.'));
    }
  }

  const links = query.data;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="ticket-relations-title">
      <Title order={3} size="h5" mb="sm" id="ticket-relations-title">
        Relacionados
      </Title>
      {query.isError && (
        <Text size="sm" c="red">
          {errorText(query.error, 'No se pudieron cargar los tickets relacionados.')}
        </Text>
      )}
      {links && (
        <Stack gap="sm">
          {links.data.length === 0 && (
            <Text size="sm" c="dimmed">
              Este ticket no tiene relaciones.
            </Text>
          )}
          {groups.map(({ relation, heading }) => {
            const rows = links.data.filter((l) => l.relation === relation);
            if (rows.length === 0) return null;
            return (
              <Stack gap={6} key={relation} data-testid={`relations-${relation}`}>
                <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                  {heading}
                </Text>
                {relation === 'child' && (
                  <Stack gap={4}>
                    <Text size="sm" data-testid="children-progress">
                      {links.children.resolved} de {links.children.total} resueltos
                    </Text>
                    <Progress
                      value={(links.children.resolved / links.children.total) * 100}
                      aria-label={`${links.children.resolved} de ${links.children.total} resueltos`}
                    />
                  </Stack>
                )}
                {rows.map((l) => (
                  <LinkRow key={l.id} link={l} canEdit={links.can_edit} onRemove={() => void remove(l)} />
                ))}
              </Stack>
            );
          })}
          {links.can_edit && <AddLinkForm ticketId={ticketId} onAdded={refresh} />}
        </Stack>
      )}
    </Paper>
  );
}

/** On a duplicate's page: the ticket it duplicates, one click away. */
export function DuplicateBanner({ ticketId }: { ticketId: number }) {
  const links = useQuery(ticketLinksQuery(ticketId)).data;
  const original = links?.data.find((l) => l.relation === 'duplicate_of');
  if (!original) return null;
  return (
    <Alert color="orange" icon={<IconCopy size={18} />} title="Ticket duplicado" role="status">
      Este ticket es un duplicado de #{original.ticket.id}.{' '}
      <Anchor component={Link} to={`/tickets/${original.ticket.id}`} fw={600}>
        Ir al ticket #{original.ticket.id}
      </Anchor>
    </Alert>
  );
}
