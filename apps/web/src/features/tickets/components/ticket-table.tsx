import { Paper, Stack } from '@mantine/core';
import type { TTicket } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { DataTable, type DataColumn } from '@/components/ui/data-table.tsx';
import { ListPagination } from '@/components/ui/list-pagination.tsx';
import { ListToolbar } from '@/components/ui/list-toolbar.tsx';
import { isLoadingPage, useListParams } from '@/lib/use-list-params.ts';
import { ticketListQuery, type TicketListKind } from '../api/tickets-api.ts';

export type TicketColumn = DataColumn<TTicket>;

interface TicketTableProps {
  kind: TicketListKind;
  /** Names the list for its accessible label. */
  label: string;
  columns: TicketColumn[];
  pageSizes: readonly number[];
  defaultPageSize: number;
  minWidth?: number;
}

/**
 * A ticket list (SPEC §2, §9): search on name and description, page size,
 * numbered pagination with ellipses, skeleton while loading, the §8 empty
 * states and the fixed notice when loading fails.
 */
export function TicketTable({ kind, label, columns, pageSizes, defaultPageSize, minWidth = 900 }: TicketTableProps) {
  const list = useListParams(`tickets-${kind}`, pageSizes, defaultPageSize);
  const { page, setPage, debouncedSearch } = list;

  const tickets = useQuery(ticketListQuery(kind, list.params));
  const meta = tickets.isError ? undefined : tickets.data?.meta;
  const lastPage = Math.max(meta?.last_page ?? 1, 1);

  // A page beyond the last (after the list shrank) falls back to the last one.
  if (meta && !tickets.isPlaceholderData && page > lastPage) setPage(lastPage);

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} shadow="xs">
      <Stack gap="md">
        <ListToolbar list={list} searchLabel={`Buscar en ${label}`} searchWidth={320} />
        <DataTable
          columns={columns}
          rows={tickets.isError ? [] : (tickets.data?.data ?? [])}
          rowKey={(ticket) => ticket.id}
          isLoading={isLoadingPage(tickets)}
          minWidth={minWidth}
          label={label}
          emptyTitle={debouncedSearch ? 'No se encontraron tickets.' : 'No hay tickets registrados.'}
          emptyHint={debouncedSearch ? 'Prueba con otra búsqueda.' : undefined}
          error={tickets.error}
          onRetry={() => void tickets.refetch()}
        />
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
