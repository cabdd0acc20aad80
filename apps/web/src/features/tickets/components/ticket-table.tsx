import { ActionIcon, Button, Card, Group, NativeSelect, Paper, Skeleton, Stack, Text } from '@mantine/core';
import {
  ticketSortColumns,
  ticketStages,
  type TicketSortColumn,
  type TicketStage,
  type TTicket,
  type TTicketSort,
} from '@portal/contract';
import { IconDownload, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { SaveViewButton } from '@/components/saved-views/save-view-button.tsx';
import { SavedViewBar } from '@/components/saved-views/saved-view-bar.tsx';
import { DataTable, type DataColumn } from '@/components/ui/data-table.tsx';
import { ticketPath } from '@/config/paths.ts';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { ListPagination } from '@/components/ui/list-pagination.tsx';
import { ListToolbar } from '@/components/ui/list-toolbar.tsx';
import { LoadErrorNotice } from '@/components/ui/load-error-notice.tsx';
import { SlaBadge } from '@/components/ui/sla-badge.tsx';
import { TicketStatusBadge } from '@/components/ui/status-badge.tsx';
import { errorText } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { savedViewQuery } from '@/lib/saved-views-api.ts';
import { useMedia } from '@/lib/use-media.ts';
import { useRevealed } from '@/lib/use-revealed.ts';
import { exportTicketsCsv, ticketListQuery, type TicketListKind } from '../api/tickets-api.ts';
import { useTicketListUrl } from '../hooks/use-ticket-list-url.ts';
import { nextSort, pageSizeListName } from '../ticket-list-url.ts';
import { formatDate, PriorityBadge } from './ticket-badges.tsx';
import { TicketFilters } from './ticket-filters.tsx';

export type TicketColumn = DataColumn<TTicket> & { sortKey?: TicketSortColumn };

interface TicketTableProps {
  kind: TicketListKind;
  /** Names the list for its accessible label. */
  label: string;
  columns: TicketColumn[];
  pageSizes: readonly number[];
  defaultPageSize: number;
  minWidth?: number;
  /** The stages the list can show (for the stage filter). */
  stages?: readonly TicketStage[];
  /** Under 768 px each ticket is a card; these actions go at its foot. */
  cardActions?: (ticket: TTicket) => ReactNode;
}

const numberFormat = new Intl.NumberFormat('es-MX');

/** About a phone's screenful of cards (or a laptop's of rows): the rest of the page follows in a second render. */
const FIRST_ROWS = 4;

const sortLabels: Record<TicketSortColumn, string> = {
  id: 'ID',
  name: 'Nombre',
  priority: 'Prioridad',
  status: 'Estado',
  project: 'Proyecto',
  group: 'Grupo',
  created: 'Creación',
  updated: 'Última actualización',
  first_response_due_at: 'Vence primera respuesta',
  resolution_due_at: 'Vence resolución',
};

/** The order as a control of its own: cards have no headers, and narrow tables hide some columns. */
function SortControl({ sort, onChange }: { sort: TTicketSort; onChange: (sort: TTicketSort) => void }) {
  const isAsc = sort.dir === 'asc';
  return (
    <Group gap={4} wrap="nowrap">
      <NativeSelect
        aria-label="Ordenar por"
        size="sm"
        data={ticketSortColumns.map((c) => ({ value: c, label: sortLabels[c] }))}
        value={sort.by}
        onChange={(e) => onChange({ by: e.currentTarget.value as TicketSortColumn, dir: sort.dir })}
        w={{ base: 130, sm: 180 }}
      />
      <ActionIcon
        variant="default"
        size="lg"
        aria-label={isAsc ? 'Orden ascendente (cambiar a descendente)' : 'Orden descendente (cambiar a ascendente)'}
        onClick={() => onChange({ by: sort.by, dir: isAsc ? 'desc' : 'asc' })}
      >
        {isAsc ? <IconSortAscending size={18} /> : <IconSortDescending size={18} />}
      </ActionIcon>
    </Group>
  );
}

/** The ticket's number and name, linking to its page. */
export function TicketLink({ ticket, children }: { ticket: Pick<TTicket, 'id'>; children: ReactNode }) {
  return (
    <Text component={Link} to={ticketPath(ticket.id)} inherit c="inherit" td="none" className="ticket-link">
      {children}
    </Text>
  );
}

function TicketCard({ ticket, actions }: { ticket: TTicket; actions?: ReactNode }) {
  return (
    <Card withBorder padding="sm" radius="md" component="article" aria-label={`Ticket ${ticket.id}`}>
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Text fw={600} size="sm">
          <TicketLink ticket={ticket}>
            #{ticket.id} {ticket.name}
          </TicketLink>
        </Text>
        <PriorityBadge name={ticket.priorities.name} />
      </Group>
      <Text size="xs" c="dimmed" lineClamp={2} mt={4}>
        {ticket.description}
      </Text>
      <Group gap="xs" mt="xs" wrap="wrap">
        <TicketStatusBadge name={ticket.status_tickets.name} stage={ticket.status_tickets.stage} />
        <SlaBadge state={ticket.sla_state} />
        <Text size="xs" c="dimmed">
          {ticket.projects.name}
          {ticket.group ? ` · ${ticket.group.name}` : ''} · {formatDate(ticket.created_at)}
        </Text>
      </Group>
      <Group justify="space-between" mt="xs" gap="xs">
        <Text size="xs">{ticket.assigned_to ? `Asignado a ${ticket.assigned_to.name}` : 'Sin asignar'}</Text>
        {actions}
      </Group>
    </Card>
  );
}

/**
 * A ticket list: search, filters and sort kept in the URL,
 * sortable headers, page size, numbered pagination, 'Exportar CSV', the empty
 * states and load-failure notice; cards instead of the table under 768 px.
 */
export function TicketTable({
  kind,
  label,
  columns,
  pageSizes,
  defaultPageSize,
  minWidth = 900,
  stages = ticketStages,
  cardActions,
}: TicketTableProps) {
  const list = useTicketListUrl(pageSizeListName(kind), pageSizes, defaultPageSize);
  const { page, setPage, debouncedSearch, filters } = list;
  const isNarrow = useMedia('(max-width: 47.99em)');
  const [exported, setExported] = useState<number | null>(null);

  // A saved view named in the URL (`?view=12`) of this list: opened with only its id in the
  // URL (the sidebar's link), its query becomes the list's URL; later changes stay in the URL.
  const viewId = list.viewId;
  const savedView = useQuery({ ...savedViewQuery(viewId ?? 0), enabled: viewId !== null });
  const openView = savedView.data?.data.list === kind ? savedView.data.data : null;
  const { hasListState, apply } = list;
  useEffect(() => {
    if (openView && !hasListState) apply(openView.query);
  }, [openView, hasListState]); // eslint-disable-line react-hooks/exhaustive-deps
  const currentQuery = { search: debouncedSearch, filters, sort: list.sort, per_page: list.perPage };

  const tickets = useQuery(ticketListQuery(kind, list.params));
  // A page's answer comes in a synchronous render (the query cache's subscription); its rows
  // render in a deferred one, which React slices, so a slow phone is not blocked meanwhile.
  const shownPage = useDeferredValue(tickets.data);
  const isRendering = tickets.data !== undefined && shownPage === undefined;
  const meta = tickets.isError ? undefined : tickets.data?.meta;
  const lastPage = Math.max(meta?.last_page ?? 1, 1);
  const isFiltered = debouncedSearch !== '' || Object.keys(filters).length > 0;
  const rows = useRevealed(tickets.isError ? [] : (shownPage?.data ?? []), FIRST_ROWS);
  // Skeletons only while there is nothing to show. A new search, filter or page keeps the
  // previous rows in place (dimmed) until its answer: rows swapped for skeletons meanwhile
  // would take away the link a click or a key was landing on.
  const isLoading = tickets.isPending || isRendering;
  const isRefreshing = tickets.isFetching && tickets.isPlaceholderData;

  // A page beyond the last (after the list shrank) falls back to the last one.
  if (meta && !tickets.isPlaceholderData && page > lastPage) setPage(lastPage);

  async function exportCsv() {
    setExported(0);
    try {
      const { blob, fileName } = await exportTicketsCsv(
        { list: kind, search: debouncedSearch, filters, sort: list.sort },
        setExported,
      );
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = fileName;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      notifySuccess('Exportación lista', `Se descargó ${fileName}.`);
    } catch (error) {
      notifyError('No se pudo exportar', errorText(error, 'No se pudo exportar la lista.'));
    } finally {
      setExported(null);
    }
  }

  const emptyTitle = isFiltered ? 'No se encontraron tickets.' : 'No hay tickets registrados.';
  const emptyHint = isFiltered ? 'Prueba con otra búsqueda o quita filtros.' : undefined;

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} shadow="xs">
      <Stack gap="sm">
        {openView && <SavedViewBar view={openView} query={currentQuery} onDeleted={() => list.setViewId(null)} />}
        {savedView.isError && <LoadErrorNotice error={savedView.error} title="No se pudo abrir la vista" />}
        <ListToolbar list={list} searchLabel={`Buscar en ${label}`} searchWidth={320} />
        <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
          <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
            <TicketFilters filters={filters} onChange={list.setFilters} stages={stages} />
          </Stack>
          <Group gap="xs" wrap="wrap" justify="flex-end">
            <SortControl sort={list.sort} onChange={list.setSort} />
            <SaveViewButton list={kind} query={currentQuery} onSaved={list.setViewId} />
            <Button
              variant="default"
              size="sm"
              leftSection={<IconDownload size={16} />}
              disabled={exported !== null}
              onClick={() => void exportCsv()}
              aria-live="polite"
            >
              {exported === null ? 'Exportar CSV' : `Exportando… ${numberFormat.format(exported)} filas`}
            </Button>
          </Group>
        </Group>
        {isNarrow ? (
          <Stack
            gap="xs"
            aria-label={label}
            aria-busy={isLoading || isRefreshing}
            style={{ opacity: isRefreshing ? 0.6 : 1, transition: 'opacity 120ms' }}
          >
            <LoadErrorNotice error={tickets.error} onRetry={() => void tickets.refetch()} />
            {isLoading ? (
              Array.from({ length: 3 }, (_, i) => <Skeleton key={i} height={110} radius="md" />)
            ) : rows.length === 0 ? (
              <EmptyState title={emptyTitle} hint={emptyHint} />
            ) : (
              rows.map((t) => <TicketCard key={t.id} ticket={t} actions={cardActions?.(t)} />)
            )}
          </Stack>
        ) : (
          <DataTable
            columns={columns}
            rows={rows}
            rowKey={(ticket) => ticket.id}
            isLoading={isLoading}
            isRefreshing={isRefreshing}
            minWidth={minWidth}
            label={label}
            emptyTitle={emptyTitle}
            emptyHint={emptyHint}
            error={tickets.error}
            onRetry={() => void tickets.refetch()}
            sort={list.sort}
            onSort={(by) => list.setSort(nextSort(list.sort, by as TicketSortColumn))}
          />
        )}
        <ListPagination
          page={page}
          lastPage={lastPage}
          onChange={setPage}
          count={{
            total: meta?.total ?? 0,
            perPage: list.perPage,
            noun: 'tickets',
            isLowerBound: meta?.total_is_lower_bound ?? false,
          }}
        />
      </Stack>
    </Paper>
  );
}
