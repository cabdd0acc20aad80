import { Badge, Paper, Stack, Text } from '@mantine/core';
import type { TAuditEntry, TAuditFilters } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable, type DataColumn } from '@/components/ui/data-table.tsx';
import { ListHeader } from '@/components/ui/list-header.tsx';
import { ListPagination } from '@/components/ui/list-pagination.tsx';
import { ListToolbar } from '@/components/ui/list-toolbar.tsx';
import { isLoadingPage, useListParams } from '@/lib/use-list-params.ts';
import { auditLogQuery, browserTimeZone } from '../api/audit-log-api.ts';
import { AuditFilters, hasFilters } from './audit-filters.tsx';
import { ExportCsvButton } from './export-csv-button.tsx';

const dateTime = new Intl.DateTimeFormat('es-MX', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** Failures and refusals stand out from the everyday sign-ins. */
const isRefusal = (event: string) =>
  /(failure|refused|denied|throttled|invalid|revoked|missing|unknown|mail_failed)/.test(event);

const columns: DataColumn<TAuditEntry>[] = [
  {
    header: 'Fecha',
    width: 200,
    render: (e) => (
      <Text size="sm" component="time" dateTime={e.created_at}>
        {dateTime.format(new Date(e.created_at))}
      </Text>
    ),
  },
  {
    header: 'Usuario',
    width: 210,
    render: (e) =>
      e.user ? (
        <Stack gap={0}>
          <Text size="sm">{e.user.name}</Text>
          <Text size="xs" c="dimmed">
            @{e.user.username}
          </Text>
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          Anónimo
        </Text>
      ),
  },
  {
    header: 'Acción',
    width: 230,
    render: (e) => (
      <Badge
        variant="light"
        color={isRefusal(e.event) ? 'red' : 'brand'}
        radius="sm"
        tt="none"
        fw={600}
        styles={{ label: { whiteSpace: 'normal' } }}
        h="auto"
        py={2}
        title={e.event}
      >
        {e.action}
      </Badge>
    ),
  },
  {
    header: 'Dirección',
    width: 130,
    render: (e) => (
      <Text size="sm" ff="monospace">
        {e.ip ?? '—'}
      </Text>
    ),
  },
  {
    header: 'Detalles',
    render: (e) => (
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {e.details || '—'}
      </Text>
    ),
  },
];

/** /audit-log 'Auditoría': who did what and when, newest first, filtered, searchable, exportable. */
export default function AuditLogPage() {
  const list = useListParams('audit-log');
  const { page, setPage, debouncedSearch } = list;
  const [filters, setFilters] = useState<TAuditFilters>({});
  const [timeZone] = useState(browserTimeZone);

  const changeFilters = (next: TAuditFilters) => {
    setFilters(next);
    setPage(1);
  };

  const entries = useQuery(auditLogQuery({ ...list.params, filters, time_zone: timeZone }));
  const meta = entries.isError ? undefined : entries.data?.meta;
  const lastPage = Math.max(meta?.last_page ?? 1, 1);
  const isFiltered = debouncedSearch !== '' || hasFilters(filters);

  return (
    <Stack gap="md">
      <ListHeader title="Auditoría">
        <ExportCsvButton request={{ search: debouncedSearch, filters, time_zone: timeZone }} />
      </ListHeader>
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} shadow="xs">
        <Stack gap="md">
          <AuditFilters value={filters} onChange={changeFilters} />
          <ListToolbar list={list} searchLabel="Buscar en la auditoría" searchWidth={320} />
          <DataTable
            columns={columns}
            rows={entries.isError ? [] : (entries.data?.data ?? [])}
            rowKey={(e) => e.id}
            isLoading={isLoadingPage(entries)}
            minWidth={980}
            label="Auditoría"
            emptyTitle={isFiltered ? 'No se encontraron eventos.' : undefined}
            emptyHint={isFiltered ? 'Prueba con otra búsqueda u otros filtros.' : undefined}
            error={entries.error}
            onRetry={() => void entries.refetch()}
          />
          <ListPagination
            page={page}
            lastPage={lastPage}
            onChange={setPage}
            count={{
              total: meta?.total ?? 0,
              perPage: list.perPage,
              noun: 'eventos',
              isLowerBound: meta?.total_is_lower_bound,
            }}
          />
        </Stack>
      </Paper>
    </Stack>
  );
}
