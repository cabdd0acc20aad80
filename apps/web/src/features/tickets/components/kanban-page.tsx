import { Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { ticketStages, type TSavedViewQueryInput } from '@portal/contract';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { SaveViewButton } from '@/components/saved-views/save-view-button.tsx';
import { SavedViewBar } from '@/components/saved-views/saved-view-bar.tsx';
import { ListHeader } from '@/components/ui/list-header.tsx';
import { LoadErrorNotice } from '@/components/ui/load-error-notice.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { savedViewQuery, viewIdOf } from '@/lib/saved-views-api.ts';
import { useScreenSearchParams, withParams } from '@/lib/use-screen-search-params.ts';
import { kanbanBoardQuery } from '../api/kanban-api.ts';
import { kanbanQueryOf, kanbanUrlParams, kanbanViewFromUrl, kanbanViewToUrl, type KanbanView } from '../kanban-url.ts';
import { KanbanBoard } from './kanban-board.tsx';
import { TicketFilters } from './ticket-filters.tsx';

/**
 * The board's state (search, filters, sort, 'Mis tickets') read from and written to the URL in
 * the lists' encoding; `view` is what a saved view captures.
 */
export function useKanbanUrl() {
  const [params, setParams] = useScreenSearchParams();
  const paramsKey = params.toString();
  const view = useMemo(() => kanbanViewFromUrl(new URLSearchParams(paramsKey)), [paramsKey]);
  /** Writes part of the board's state; given a function, the part it computes from the address as it is now. */
  const setView = useCallback(
    (changes: Partial<KanbanView> | ((current: KanbanView) => Partial<KanbanView>)) =>
      setParams(
        (current) =>
          withParams(
            current,
            kanbanViewToUrl(typeof changes === 'function' ? changes(kanbanViewFromUrl(current)) : changes),
          ),
        { replace: true },
      ),
    [setParams],
  );
  const viewId = viewIdOf(new URLSearchParams(paramsKey));
  // Whether the URL holds the board's own state (then a saved view named in it is not applied over it).
  const hasBoardState = kanbanUrlParams.some((p) => new URLSearchParams(paramsKey).has(p));
  const setViewId = useCallback(
    (id: number | null) =>
      setParams((current) => withParams(current, { view: id === null ? null : String(id) }), { replace: true }),
    [setParams],
  );
  // The search box: its text reaches the URL once typing pauses. Only a new typed value is
  // written: a search the URL gained otherwise (an opened view) stays.
  const [search, setSearch] = useState(view.search);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const typed = useRef(debounced);
  useEffect(() => {
    if (debounced === typed.current) return;
    typed.current = debounced;
    if (debounced !== view.search) setView({ search: debounced });
  }, [debounced, view.search, setView]);

  /** A saved view's query as the board's URL (search, filters, sort) in one change. */
  const apply = ({ search: text = '', filters = {}, sort }: TSavedViewQueryInput) => {
    setSearch(text.trim());
    typed.current = text.trim();
    setView({ search: text.trim(), filters, ...(sort ? { sort: { by: sort.by, dir: sort.dir ?? 'desc' } } : {}) });
  };
  return { view, setView, viewId, setViewId, hasBoardState, search, setSearch, apply };
}

/**
 * /kanban 'Kanban': a column per active status with the lists' filters kept in the URL; cards
 * move live when anyone changes a ticket (the stream's ticket events refetch every 'tickets'
 * query, the board included).
 */
export default function KanbanPage() {
  const { view, setView, viewId, setViewId, hasBoardState, search, setSearch, apply } = useKanbanUrl();
  // A saved view of the board named in the URL (`?view=12`, the sidebar's link): opened with only
  // its id in the URL, its search, filters and sort become the board's URL; later changes stay there.
  const savedView = useQuery({ ...savedViewQuery(viewId ?? 0), enabled: viewId !== null });
  const openView = savedView.data?.data.list === 'kanban' ? savedView.data.data : null;
  useEffect(() => {
    if (openView && !hasBoardState) apply(openView.query);
  }, [openView, hasBoardState]); // eslint-disable-line react-hooks/exhaustive-deps
  const currentQuery = { search: view.search, filters: view.filters, sort: view.sort };
  const query = kanbanQueryOf(view);
  const board = useQuery(kanbanBoardQuery(query));

  return (
    <Stack gap="md">
      <ListHeader title="Kanban" />
      {openView && <SavedViewBar view={openView} query={currentQuery} onDeleted={() => setViewId(null)} />}
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
        <SaveViewButton list="kanban" query={currentQuery} onSaved={setViewId} />
      </Group>
      <TicketFilters
        filters={view.filters}
        onChange={(change) => setView((current) => ({ filters: change(current.filters) }))}
        stages={ticketStages}
      />
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
