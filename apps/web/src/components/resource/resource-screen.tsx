import {
  ActionIcon,
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
  Title,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { PAGE_SIZES } from '@portal/contract';
import { IconAlertTriangle, IconPencil, IconPlus, IconRestore, IconSearch, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { EmptyIllustration } from '@/components/ui/illustrations.tsx';
import { StatusBadge } from '@/components/ui/status-badge.tsx';
import { isApiError } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { useSectionFlags } from '@/lib/permissions.ts';
import { changeRecordStatus, resourceKeys, resourceListQuery } from '@/lib/resource-api.ts';
import { usePageSize } from '@/lib/use-page-size.ts';
import { ResourceFormModal } from './resource-form-modal.tsx';
import type { ResourceConfig } from './types.ts';

/** SPEC §9. */
export const TABLE_MAX_HEIGHT = 630;
export const SKELETON_ROWS = 5;
export const LOAD_FAILED = 'Error al cargar los datos. Inténtalo nuevamente.';

type Row = Record<string, unknown> & { id: number; status_id: number };
type FormState = { mode: 'create' } | { mode: 'edit'; record: Row } | null;

/**
 * The generic list screen (SPEC §2, §8, §9): paged table with search and page
 * size, create/edit modal and deactivate/restore, each action shown only with
 * its section flag (w, u, d).
 */
export function ResourceScreen({ config, isEmbedded = false }: { config: ResourceConfig; isEmbedded?: boolean }) {
  const { canCreate, canUpdate, canChangeStatus, hasActions } = useSectionFlags(config.section);
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  // The page belongs to a search: a new search starts again at page 1 (SPEC §9).
  const [paging, setPaging] = useState({ search: '', page: 1 });
  const page = paging.search === debouncedSearch ? paging.page : 1;
  const setPage = (next: number) => setPaging({ search: debouncedSearch, page: next });
  const [perPage, setPerPage] = usePageSize(config.resource);
  const [form, setForm] = useState<FormState>(null);

  const params = { page, per_page: perPage, search: debouncedSearch };
  const list = useQuery(resourceListQuery(config.resource, params));
  const rows = (list.isError ? [] : (list.data?.data ?? [])) as Row[];
  const lastPage = list.isError ? 1 : Math.max(list.data?.last_page ?? 1, 1);
  const total = list.isError ? 0 : (list.data?.total ?? 0);
  const isLoading = list.isPending || (list.isFetching && list.isPlaceholderData);

  const [statusTarget, setStatusTarget] = useState<Row | null>(null);
  const [isChangingStatus, setChangingStatus] = useState(false);
  const isDeactivating = statusTarget?.status_id === 1;

  async function changeStatus() {
    if (!statusTarget) return;
    setChangingStatus(true);
    try {
      await changeRecordStatus(config.resource, statusTarget.id, isDeactivating ? 2 : 1);
      notifySuccess(
        isDeactivating ? 'Eliminado' : 'Restaurado',
        isDeactivating ? 'El registro fue desactivado.' : 'El registro fue restaurado.',
      );
    } catch (error) {
      if (!(isApiError(error) && error.details.isSessionLost)) {
        notifyError('Hubo un problema al actualizar el estado.', isApiError(error) ? error.message : '');
      }
    } finally {
      setChangingStatus(false);
      setStatusTarget(null);
    }
    // The list reloads keeping its page (SPEC §4).
    await queryClient.invalidateQueries({ queryKey: resourceKeys.all(config.resource) });
    await queryClient.invalidateQueries({ queryKey: resourceKeys.options(config.resource) });
  }

  const columnCount = 2 + config.columns.length + (hasActions ? 1 : 0);
  const first = total === 0 ? 0 : (page - 1) * perPage + 1;
  const last = Math.min(page * perPage, total);

  return (
    <Stack gap="md">
      <Group justify={isEmbedded ? 'flex-end' : 'space-between'} align="flex-end" gap="sm" mih={isEmbedded ? 0 : 36}>
        {!isEmbedded && (
          <Title order={2} size="h3">
            {config.title}
          </Title>
        )}
        {canCreate && (
          <Button leftSection={<IconPlus size={18} />} onClick={() => setForm({ mode: 'create' })}>
            Agregar
          </Button>
        )}
      </Group>

      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} shadow="xs">
        <Stack gap="md">
          <Group justify="space-between" gap="sm" wrap="wrap">
            <TextInput
              aria-label={`Buscar en ${config.title}`}
              placeholder="Buscar..."
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              maxLength={100}
              w={{ base: '100%', xs: 300 }}
            />
            <Group gap={8} wrap="nowrap">
              <Text size="sm" c="dimmed" component="label" htmlFor={`per-page-${config.resource}`}>
                Mostrar
              </Text>
              <NativeSelect
                id={`per-page-${config.resource}`}
                data={PAGE_SIZES.map(String)}
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
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertTriangle />}
              title={LOAD_FAILED}
              role="alert"
              withCloseButton={false}
            >
              <Group justify="space-between" gap="xs">
                <Text size="sm">{list.error.message}</Text>
                <Button size="xs" variant="white" color="red" onClick={() => void list.refetch()}>
                  Reintentar
                </Button>
              </Group>
            </Alert>
          )}

          <Table.ScrollContainer minWidth={520} maxHeight={TABLE_MAX_HEIGHT}>
            <Table striped highlightOnHover stickyHeader verticalSpacing="xs" aria-busy={isLoading}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={70}>ID</Table.Th>
                  {config.columns.map((column) => (
                    <Table.Th
                      key={column.header}
                      w={column.isCompact ? 56 : undefined}
                      ta={column.isCompact ? 'center' : undefined}
                    >
                      {column.header}
                    </Table.Th>
                  ))}
                  <Table.Th w={110}>Estado</Table.Th>
                  {hasActions && (
                    <Table.Th w={110} ta="center">
                      Acciones
                    </Table.Th>
                  )}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {isLoading ? (
                  Array.from({ length: SKELETON_ROWS }, (_, i) => (
                    <Table.Tr key={i} data-testid="skeleton-row">
                      {Array.from({ length: columnCount }, (_, j) => (
                        <Table.Td key={j}>
                          <Skeleton height={14} radius="sm" />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                ) : rows.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={columnCount}>
                      <Stack align="center" gap={6} py="xl">
                        <EmptyIllustration />
                        <Text fw={600}>Sin resultados por ahora</Text>
                        {debouncedSearch && (
                          <Text size="sm" c="dimmed">
                            Prueba con otra búsqueda.
                          </Text>
                        )}
                      </Stack>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  rows.map((row) => (
                    <Table.Tr key={row.id}>
                      <Table.Td c="dimmed">{row.id}</Table.Td>
                      {config.columns.map((column) => (
                        <Table.Td key={column.header} ta={column.isCompact ? 'center' : undefined}>
                          {column.render(row as never)}
                        </Table.Td>
                      ))}
                      <Table.Td>
                        <StatusBadge statusId={row.status_id} />
                      </Table.Td>
                      {hasActions && (
                        <Table.Td>
                          <Group gap={4} justify="center" wrap="nowrap">
                            {canUpdate && row.status_id === 1 && (
                              <Tooltip label="Editar">
                                <ActionIcon
                                  variant="subtle"
                                  aria-label={`Editar registro ${row.id}`}
                                  onClick={() => setForm({ mode: 'edit', record: row })}
                                >
                                  <IconPencil size={18} />
                                </ActionIcon>
                              </Tooltip>
                            )}
                            {canChangeStatus &&
                              (row.status_id === 1 ? (
                                <Tooltip label="Eliminar">
                                  <ActionIcon
                                    variant="subtle"
                                    color="red"
                                    aria-label={`Eliminar registro ${row.id}`}
                                    onClick={() => setStatusTarget(row)}
                                  >
                                    <IconTrash size={18} />
                                  </ActionIcon>
                                </Tooltip>
                              ) : (
                                <Tooltip label="Restaurar">
                                  <ActionIcon
                                    variant="subtle"
                                    color="teal"
                                    aria-label={`Restaurar registro ${row.id}`}
                                    onClick={() => setStatusTarget(row)}
                                  >
                                    <IconRestore size={18} />
                                  </ActionIcon>
                                </Tooltip>
                              ))}
                          </Group>
                        </Table.Td>
                      )}
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>

          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed">
              {total === 0 ? 'Sin registros' : `Mostrando ${first}–${last} de ${total} registros`}
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

      <ConfirmDialog
        opened={statusTarget !== null}
        title={isDeactivating ? '¿Estás seguro de eliminar?' : '¿Estás seguro de restaurar?'}
        message={isDeactivating ? 'Este registro será desactivado' : 'Este registro será activado nuevamente'}
        confirmLabel={isDeactivating ? 'Sí, eliminar' : 'Sí, restaurar'}
        color={isDeactivating ? 'red' : undefined}
        isBusy={isChangingStatus}
        onConfirm={() => void changeStatus()}
        onCancel={() => setStatusTarget(null)}
      />

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
