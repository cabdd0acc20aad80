import {
  Avatar,
  Badge,
  Button,
  Card,
  ColorSwatch,
  Group,
  Modal,
  Progress,
  SimpleGrid,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { ASSIGNMENT_MODE_LABELS, type TGroupLoad, type TWorkloadItem } from '@portal/contract';
import { IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { EmptyIllustration } from '@/components/ui/illustrations.tsx';
import { ListHeader } from '@/components/ui/list-header.tsx';
import { SearchInput } from '@/components/ui/list-toolbar.tsx';
import { LoadErrorNotice } from '@/components/ui/load-error-notice.tsx';
import { ModalTitle } from '@/components/ui/modal-title.tsx';
import { TicketStatusBadge } from '@/components/ui/status-badge.tsx';
import { useSearch } from '@/lib/use-list-params.ts';
import { groupLoadsQuery, userTicketsQuery, workloadQuery } from '../api/workload-api.ts';

const initials = (u: TWorkloadItem) => `${u.name[0] ?? ''}${u.last_name[0] ?? ''}`.toUpperCase();

/**
 * /workload 'Carga de trabajo': each group's queue and its members' open tickets, then a card
 * per user with their ticket counts; a group filter narrows both to one group.
 */
export default function WorkloadPage() {
  const [search, setSearch, debouncedSearch] = useSearch();
  const [selected, setSelected] = useState<TWorkloadItem | null>(null);
  const [groupId, setGroupId] = useState<number | null>(null);
  const list = useQuery(workloadQuery(debouncedSearch, groupId));
  const users = list.isError ? [] : (list.data?.data ?? []);
  const groupLoads = useQuery(groupLoadsQuery());
  const allGroups = groupLoads.data ?? [];
  const shownGroups = groupId === null ? allGroups : allGroups.filter((g) => g.id === groupId);

  return (
    <Stack gap="md">
      <ListHeader title="Carga de trabajo">
        <Select
          label="Grupo"
          placeholder="Todos los grupos"
          data={allGroups.map((g) => ({ value: String(g.id), label: g.name }))}
          value={groupId === null ? null : String(groupId)}
          onChange={(v) => setGroupId(v === null ? null : Number(v))}
          clearable
          searchable
          w={{ base: '100%', sm: 240 }}
        />
        <SearchInput
          label="Buscar usuario"
          placeholder="Buscar usuario por nombre o apellido..."
          value={search}
          onChange={setSearch}
          w={{ base: '100%', sm: 360 }}
        />
      </ListHeader>

      <LoadErrorNotice error={list.error} />

      {shownGroups.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} aria-label="Colas por grupo" role="list">
          {shownGroups.map((g) => (
            <GroupLoadCard key={g.id} group={g} />
          ))}
        </SimpleGrid>
      )}

      {list.isPending ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} height={170} radius="md" />
          ))}
        </SimpleGrid>
      ) : users.length === 0 && !list.isError ? (
        <Stack align="center" gap="sm" py={48}>
          <EmptyIllustration />
          <Text fw={600}>No hay usuarios asignados</Text>
          {search !== '' && (
            <Button variant="light" onClick={() => setSearch('')}>
              Limpiar búsqueda
            </Button>
          )}
        </Stack>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} aria-label="Usuarios" role="list">
          {users.map((u) => (
            <WorkloadCard key={u.id} user={u} onDetails={() => setSelected(u)} />
          ))}
        </SimpleGrid>
      )}

      {selected && <DetailsModal user={selected} onClose={() => setSelected(null)} />}
    </Stack>
  );
}

/** The three parts of a user's assigned tickets: each a count, a legend swatch and a segment of the bar. */
export function workloadParts(user: Pick<TWorkloadItem, 'ticket_count' | 'started_count' | 'completed_count'>) {
  const open = Math.max(0, user.ticket_count - user.started_count - user.completed_count);
  return [
    { key: 'open', label: 'Abiertos', value: open, color: 'blue' },
    { key: 'started', label: 'En proceso', value: user.started_count, color: 'yellow' },
    { key: 'completed', label: 'Terminados', value: user.completed_count, color: 'teal' },
  ] as const;
}

/** '1 ticket asignado · 0 % terminado': what the bar shows, in words, so one open ticket never reads as 100 %. */
export function workloadSummary(user: Pick<TWorkloadItem, 'ticket_count' | 'completed_count'>) {
  const total = user.ticket_count;
  if (total === 0) return 'Sin tickets asignados';
  const done = Math.round((user.completed_count / total) * 100);
  return `${total} ${total === 1 ? 'ticket asignado' : 'tickets asignados'} · ${done} % terminado`;
}

/** '12 en cola' (or 'más de 1.000 en cola'). */
export function queueText(group: Pick<TGroupLoad, 'queue_count' | 'count_is_lower_bound'>) {
  const n = group.queue_count.toLocaleString('es-MX');
  return group.count_is_lower_bound ? `Más de ${n} en cola` : `${n} en cola`;
}

/** A group: how it hands out tickets, its queue's length, and each member's open tickets. */
function GroupLoadCard({ group }: { group: TGroupLoad }) {
  return (
    <Card withBorder radius="md" padding="md" shadow="xs" role="listitem" aria-label={`Grupo ${group.name}`}>
      <Group justify="space-between" wrap="nowrap">
        <Text fw={600} truncate>
          {group.name}
        </Text>
        <Badge variant="light">{queueText(group)}</Badge>
      </Group>
      <Text size="xs" c="dimmed">
        {ASSIGNMENT_MODE_LABELS[group.assignment_mode]}
        {group.assignment_cap === null ? '' : ` · tope ${group.assignment_cap} por agente`}
      </Text>
      {group.members.length === 0 ? (
        <Text size="sm" c="dimmed" mt="sm">
          Sin miembros
        </Text>
      ) : (
        <Table mt="sm" verticalSpacing={4} aria-label={`Miembros de ${group.name}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Miembro</Table.Th>
              <Table.Th ta="right">Abiertos</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {group.members.map((m) => (
              <Table.Tr key={m.user_id}>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Text size="sm">{m.name}</Text>
                    {m.absent && (
                      <Badge size="xs" color="orange">
                        Ausente
                      </Badge>
                    )}
                    {m.status_id !== 1 && (
                      <Badge size="xs" color="gray">
                        Inactivo
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td ta="right">{m.open_count}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

function WorkloadCard({ user, onDetails }: { user: TWorkloadItem; onDetails: () => void }) {
  const parts = workloadParts(user);
  const percent = (n: number) => (user.ticket_count === 0 ? 0 : (n / user.ticket_count) * 100);
  return (
    <Card withBorder radius="md" padding="md" shadow="xs" role="listitem" aria-label={user.user_name}>
      <Group gap="sm" wrap="nowrap">
        <Avatar color="brand" radius="xl">
          {initials(user)}
        </Avatar>
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fw={600} truncate>
            {user.user_name}
          </Text>
          {user.absent && (
            <Badge size="xs" color="orange" w="fit-content">
              Ausente
            </Badge>
          )}
          <Text size="xs" c="dimmed" truncate>
            @{user.username} · {user.role.name}
            {user.area ? ` · ${user.area.name}` : ''}
          </Text>
        </Stack>
      </Group>
      <SimpleGrid cols={3} mt="md" spacing="xs">
        {parts.map((part) => (
          <Count key={part.key} label={part.label} value={part.value} color={part.color} />
        ))}
      </SimpleGrid>
      <Progress.Root size="sm" mt="sm" aria-hidden>
        {parts.map((part) => (
          <Progress.Section key={part.key} value={percent(part.value)} color={part.color} />
        ))}
      </Progress.Root>
      <Text size="xs" c="dimmed" mt={6} data-testid="workload-summary">
        {workloadSummary(user)}
      </Text>
      <Button variant="light" size="xs" mt="md" onClick={onDetails} leftSection={<IconUsers size={14} />}>
        Ver detalles
      </Button>
    </Card>
  );
}

/** A count with its legend swatch: the swatch is the colour of its segment in the bar. */
function Count({ label, value, color }: { label: string; value: number; color: string }) {
  return (
    <Stack gap={0} align="center">
      <Text fw={700} size="xl">
        {value}
      </Text>
      <Group gap={5} wrap="nowrap">
        <ColorSwatch color={`var(--mantine-color-${color}-filled)`} size={9} withShadow={false} aria-hidden />
        <Text size="xs" c="dimmed">
          {label}
        </Text>
      </Group>
    </Stack>
  );
}

function DetailsModal({ user, onClose }: { user: TWorkloadItem; onClose: () => void }) {
  const tickets = useQuery(userTicketsQuery(user.id));
  const rows = tickets.data?.activities ?? [];
  return (
    <Modal opened onClose={onClose} size="xl" title={<ModalTitle title={`Tickets de ${user.user_name}`} />}>
      {tickets.isError ? (
        <LoadErrorNotice error={tickets.error} />
      ) : tickets.isPending ? (
        <Stack gap="xs">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} height={18} />
          ))}
        </Stack>
      ) : rows.length === 0 ? (
        <EmptyState title="No hay tickets para este usuario." isCompact />
      ) : (
        <Stack gap="xs">
          <Table.ScrollContainer minWidth={560} maxHeight={460}>
            <Table striped stickyHeader verticalSpacing="xs" aria-label="Tickets del usuario">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={70}>ID</Table.Th>
                  <Table.Th>Descripción</Table.Th>
                  <Table.Th>Prioridad</Table.Th>
                  <Table.Th>Dificultad</Table.Th>
                  <Table.Th>Estado</Table.Th>
                  <Table.Th ta="center">Actividades</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((t) => (
                  <Table.Tr key={t.id}>
                    <Table.Td c="dimmed">{t.id}</Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={600} lineClamp={1}>
                        {t.name}
                      </Text>
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {t.description}
                      </Text>
                    </Table.Td>
                    <Table.Td>{t.priority}</Table.Td>
                    <Table.Td>{t.difficulty}</Table.Td>
                    <Table.Td>
                      <TicketStatusBadge name={t.status} stage={t.stage} />
                    </Table.Td>
                    <Table.Td ta="center">{t.activity_count}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {tickets.data && tickets.data.meta.total > rows.length && (
            <Text size="xs" c="dimmed">
              Se muestran los {rows.length} más recientes de {tickets.data.meta.total}.
            </Text>
          )}
        </Stack>
      )}
    </Modal>
  );
}
