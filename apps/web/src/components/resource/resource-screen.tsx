import { Group, Paper, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPencil } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ChangeStatusButton } from '@/components/ui/change-status-button.tsx';
import { DataTable, type DataColumn } from '@/components/ui/data-table.tsx';
import { IconAction } from '@/components/ui/icon-action.tsx';
import { ListHeader } from '@/components/ui/list-header.tsx';
import { ListPagination } from '@/components/ui/list-pagination.tsx';
import { ListToolbar } from '@/components/ui/list-toolbar.tsx';
import { StatusBadge } from '@/components/ui/status-badge.tsx';
import { useSectionFlags } from '@/lib/permissions.ts';
import { notifyError } from '@/lib/notify.ts';
import { errorText, isSessionLost } from '@/lib/api-client.ts';
import { changeRecordStatus, moveRecord, resourceKeys, resourceListQuery } from '@/lib/resource-api.ts';
import { isLoadingPage, useListParams } from '@/lib/use-list-params.ts';
import { ResourceFormModal } from './resource-form-modal.tsx';
import type { ResourceConfig } from './types.ts';

type Row = Record<string, unknown> & { id: number; status_id: number };
type FormState = { mode: 'create' } | { mode: 'edit'; record: Row } | null;

/**
 * The generic list screen: paged table with search and page
 * size, create/edit modal and deactivate/restore, each action shown only with
 * its section flag (w, u, d).
 */
export function ResourceScreen({ config, isEmbedded = false }: { config: ResourceConfig; isEmbedded?: boolean }) {
  const { canCreate, canUpdate, canChangeStatus, hasActions } = useSectionFlags(config.section);
  const queryClient = useQueryClient();
  const list = useListParams(config.resource);
  const [form, setForm] = useState<FormState>(null);

  const records = useQuery({
    ...resourceListQuery(config.resource, list.params),
    // A background job shown in the list (a re-extraction's progress) is followed until it ends.
    refetchInterval: (query) =>
      config.isRunning && (query.state.data?.data ?? []).some((r) => config.isRunning!(r as never)) ? 2_000 : false,
  });
  const rows = (records.isError ? [] : (records.data?.data ?? [])) as Row[];
  const lastPage = records.isError ? 1 : Math.max(records.data?.last_page ?? 1, 1);
  const total = records.isError ? 0 : (records.data?.total ?? 0);

  // The list reloads keeping its page.
  const reload = async () => {
    await queryClient.invalidateQueries({ queryKey: resourceKeys.all(config.resource) });
    await queryClient.invalidateQueries({ queryKey: resourceKeys.options(config.resource) });
  };

  /** Moves a record of an ordered catalogue one place up or down. */
  const move = async (row: Row, by: -1 | 1) => {
    try {
      await moveRecord(config.resource, row.id, Math.max(1, Number(row.position) + by));
      await reload();
    } catch (error) {
      if (!isSessionLost(error)) notifyError('No se pudo mover', errorText(error, 'Inténtalo de nuevo.'));
    }
  };

  const orderColumn: DataColumn<Row> = {
    header: 'Orden',
    width: canUpdate ? 120 : 70,
    render: (row) => (
      <Group gap={4} wrap="nowrap">
        <Text span inherit w={24}>
          {String(row.position)}
        </Text>
        {canUpdate && (
          <>
            <IconAction
              label="Subir"
              ariaLabel={`Subir registro ${row.id}`}
              icon={<IconArrowUp size={16} />}
              onClick={() => void move(row, -1)}
            />
            <IconAction
              label="Bajar"
              ariaLabel={`Bajar registro ${row.id}`}
              icon={<IconArrowDown size={16} />}
              onClick={() => void move(row, 1)}
            />
          </>
        )}
      </Group>
    ),
  };

  const columns: DataColumn<Row>[] = [
    ...(config.isOrdered ? [orderColumn] : []),
    {
      header: 'ID',
      width: 70,
      render: (row) => (
        <Text span inherit c="dimmed">
          {row.id}
        </Text>
      ),
    },
    ...config.columns.map((column) => ({
      header: column.header,
      width: column.isCompact ? 56 : undefined,
      align: column.isCompact ? ('center' as const) : undefined,
      render: (row: Row) => column.render(row as never),
    })),
    { header: 'Estado', width: 110, render: (row) => <StatusBadge statusId={row.status_id} /> },
  ];
  if (hasActions) {
    columns.push({
      header: 'Acciones',
      width: 110,
      align: 'center',
      render: (row) => (
        <Group gap={4} justify="center" wrap="nowrap">
          {canUpdate && row.status_id === 1 && (
            <IconAction
              label="Editar"
              ariaLabel={`Editar registro ${row.id}`}
              icon={<IconPencil size={18} />}
              onClick={() => setForm({ mode: 'edit', record: row })}
            />
          )}
          {canChangeStatus && (
            <ChangeStatusButton
              statusId={row.status_id}
              recordLabel={`registro ${row.id}`}
              onChange={(next) => changeRecordStatus(config.resource, row.id, next)}
              onDone={reload}
            />
          )}
        </Group>
      ),
    });
  }

  return (
    <Stack gap="md">
      <ListHeader
        title={isEmbedded ? undefined : config.title}
        onAdd={canCreate ? () => setForm({ mode: 'create' }) : undefined}
      />

      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} shadow="xs">
        <Stack gap="md">
          <ListToolbar list={list} searchLabel={`Buscar en ${config.title}`} />
          <DataTable
            columns={columns}
            rows={rows}
            rowKey={(row) => row.id}
            isLoading={isLoadingPage(records)}
            minWidth={520}
            emptyHint={list.debouncedSearch ? 'Prueba con otra búsqueda.' : undefined}
            error={records.error}
            onRetry={() => void records.refetch()}
          />
          <ListPagination
            page={list.page}
            lastPage={lastPage}
            onChange={list.setPage}
            count={{ total, perPage: list.perPage, noun: 'registros' }}
          />
        </Stack>
      </Paper>

      {form && (
        <ResourceFormModal
          key={form.mode === 'edit' ? form.record.id : 'new'}
          config={config}
          mode={form.mode}
          record={form.mode === 'edit' ? form.record : undefined}
          onClose={() => setForm(null)}
        />
      )}
    </Stack>
  );
}
