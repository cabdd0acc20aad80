import { Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { ticketStages } from '@portal/contract';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ListHeader } from '@/components/ui/list-header.tsx';
import { LoadErrorNotice } from '@/components/ui/load-error-notice.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { kanbanBoardQuery } from '../api/kanban-api.ts';
import { kanbanQueryOf, kanbanViewFromUrl, kanbanViewToUrl, type KanbanView } from '../kanban-url.ts';
import { KanbanBoard } from './kanban-board.tsx';
import { TicketFilters } from './ticket-filters.tsx';

/**
 * The board's state (search, filters, sort, 'Mis tickets') read from and written to the URL in
 * the lists' encoding; `view` is what a saved view captures.
 */
export function useKanbanUrl() {
  const [params, setParams] = useSearchParams();
  const paramsKey = params.toString();
  const view = useMemo(() => kanbanViewFromUrl(new URLSearchParams(paramsKey)), [paramsKey]);
  const setView = useCallback(
    (changes: Partial<KanbanView>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(kanbanViewToUrl(changes))) {
            if (value === null || value === '') next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { view, setView };
}

/**
 * /kanban 'Kanban': a column per active status with the lists' filters kept in the URL; cards
 * move live when anyone changes a ticket (the stream's ticket events refetch every 'tickets'
 * query, the board included).
 */
export default function KanbanPage() {
  const { view, setView } = useKanbanUrl();
  const [search, setSearch] = useState(view.search);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  useEffect(() => {
    if (debounced !== view.search) setView({ search: debounced });
  }, [debounced, view.search, setView]);
  const query = kanbanQueryOf(view);
  const board = useQuery(kanbanBoardQuery(query));

  return (
    <Stack gap="md">
      <ListHeader title="Kanban" />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          aria-label="Buscar tickets"
          placeholder="Buscar tickets"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={{ base: '100%', sm: 260 }}
        />
        <Switch label="Mis tickets" checked={view.mine} onChange={(e) => setView({ mine: e.currentTarget.checked })} />
      </Group>
      <TicketFilters filters={view.filters} onChange={(filters) => setView({ filters })} stages={ticketStages} />
      <LoadErrorNotice error={board.error} onRetry={() => void board.refetch()} />
      {board.data ? (
        <>
          <Text size="xs" c="dimmed">
            Los estados cerrados muestran los tickets de los últimos 7 días.
          </Text>
          {/* A new search, filter or sort starts the columns over (their loaded pages belong to the old one). */}
          <KanbanBoard key={JSON.stringify(query)} board={board.data} query={query} />
        </>
      ) : (
        !board.error && <PageLoader />
      )}
    </Stack>
  );
}
