import {
  Alert,
  Button,
  Group,
  NativeSelect,
  Pagination,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { TTicket } from '@portal/contract';
import { IconAlertTriangle, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { LOAD_FAILED, SKELETON_ROWS, TABLE_MAX_HEIGHT } from './list-texts.ts';
import { EmptyIllustration } from '@/components/ui/illustrations.tsx';
import { isApiError } from '@/lib/api-client.ts';
import { usePageSize } from '@/lib/use-page-size.ts';
import { ticketListQuery, type TicketListKind } from '../api/tickets-api.ts';
import { useSearchPage } from './use-search-page.ts';

export interface TicketColumn {
  header: string;
  render: (ticket: TTicket) => ReactNode;
  width?: number;
  align?: 'center';
}

interface TicketTableProps {
  kind: TicketListKind;
  /** Names the list for its accessible label and its remembered page size. */
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
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useSearchPage(debouncedSearch);
  const [perPage, setPerPage] = usePageSize(`tickets-${kind}`, pageSizes, defaultPageSize);

  const list = useQuery(ticketListQuery(kind, { page, per_page: perPage, search: debouncedSearch }));
  const rows = list.isError ? [] : (list.data?.data ?? []);
  const meta = list.isError ? undefined : list.data?.meta;
  const lastPage = Math.max(meta?.last_page ?? 1, 1);
  const total = meta?.total ?? 0;
  const isLoading = list.isPending || (list.isFetching && list.isPlaceholderData);

  // A page beyond the last (after the list shrank) falls back to the last one.
  if (meta && !list.isPlaceholderData && page > lastPage) setPage(lastPage);

  const first = total === 0 ? 0 : (page - 1) * perPage + 1;
  const last = Math.min(page * perPage, total);
  const sizeId = `per-page-tickets-${kind}`;

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} shadow="xs">
      <Stack gap="md">
        <Group justify="space-between" gap="sm" wrap="wrap">
          <TextInput
            aria-label={`Buscar en ${label}`}
            placeholder="Buscar..."
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            maxLength={100}
            w={{ base: '100%', xs: 320 }}
          />
          <Group gap={8} wrap="nowrap">
            <Text size="sm" c="dimmed" component="label" htmlFor={sizeId}>
              Mostrar
            </Text>
            <NativeSelect
              id={sizeId}
              data={pageSizes.map(String)}
              value={String(perPage)}
              onChange={(e) => {
                setPerPage(Number(e.currentTarget.value));
                setPage(1);
              }}
              w={80}
            />
          </Group>
        </Group>

        {list.isError && !(isApiError(list.error) && list.error.details.isSessionLost) && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle />} title={LOAD_FAILED} role="alert">
            <Group justify="space-between" gap="xs">
              <Text size="sm">{list.error.message}</Text>
              <Button size="xs" variant="white" color="red" onClick={() => void list.refetch()}>
                Reintentar
              </Button>
            </Group>
          </Alert>
        )}

        <Table.ScrollContainer minWidth={minWidth} maxHeight={TABLE_MAX_HEIGHT}>
          <Table striped highlightOnHover stickyHeader verticalSpacing="xs" aria-label={label} aria-busy={isLoading}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.header} w={c.width} ta={c.align}>
                    {c.header}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {isLoading ? (
                Array.from({ length: SKELETON_ROWS }, (_, i) => (
                  <Table.Tr key={i} data-testid="skeleton-row">
                    {columns.map((c) => (
                      <Table.Td key={c.header}>
                        <Skeleton height={14} radius="sm" />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              ) : rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={columns.length}>
                    <Stack align="center" gap={6} py="xl">
                      <EmptyIllustration />
                      <Text fw={600}>
                        {debouncedSearch ? 'No se encontraron tickets.' : 'No hay tickets registrados.'}
                      </Text>
                      {debouncedSearch && (
                        <Text size="sm" c="dimmed">
                          Prueba con otra búsqueda.
                        </Text>
                      )}
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              ) : (
                rows.map((ticket) => (
                  <Table.Tr key={ticket.id}>
                    {columns.map((c) => (
                      <Table.Td key={c.header} ta={c.align}>
                        {c.render(ticket)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>

        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed">
            {total === 0 ? 'Sin tickets' : `Mostrando ${first}–${last} de ${total} tickets`}
          </Text>
          <Pagination
            total={lastPage}
            value={Math.min(page, lastPage)}
            onChange={setPage}
            siblings={1}
            boundaries={1}
            size="sm"
            getControlProps={(control) => ({
              'aria-label': {
                first: 'Primera página',
                previous: 'Página anterior',
                next: 'Página siguiente',
                last: 'Última página',
              }[control],
            })}
            getItemProps={(n) => ({ 'aria-label': `Página ${n}` })}
          />
        </Group>
      </Stack>
    </Paper>
  );
}
