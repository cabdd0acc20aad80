import '@mantine/spotlight/styles.css';
import { Group, Kbd, Loader, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { createSpotlightStore, Spotlight } from '@mantine/spotlight';
import { DEFAULT_TICKET_SORT, SECTIONS, type SectionName, type TTicket } from '@portal/contract';
import { IconArrowRight, IconPlus, IconSearch, IconTicket } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { TicketStatusBadge } from '@/components/ui/status-badge.tsx';
import { paths, routeNameOf, ticketPath } from '@/config/paths.ts';
import { ticketListQuery } from '@/features/tickets/api/tickets-api.ts';
import { checkPermissionQuery, sectionAccess, userPermissionsQuery } from '@/lib/permissions.ts';
import { useSession } from '@/lib/session.ts';
import classes from './command-palette.module.css';
import { isApplePlatform } from './hotkeys.ts';
import { goToNewTicket, newTicketListPath } from './new-ticket-list.ts';
import {
  matchesScreen,
  MIN_TICKET_SEARCH_LENGTH,
  parseTicketNumber,
  screenCommands,
  shortcutsFor,
  ticketSearchList,
  ticketSearchText,
} from './palette-commands.ts';

/** How many tickets the text search shows. */
const TICKET_RESULTS = 8;
const SEARCH_DEBOUNCE_MS = 250;
const noRoutes: ReadonlySet<string> = new Set();
/** Spotlight.ActionsList passes these to its ScrollArea, though its props type does not list them. */
const resultsViewport = { viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Resultados' } };
const listSections: Record<string, SectionName> = {
  [paths.tickets]: SECTIONS.tickets,
  [paths.generalTickets]: SECTIONS.generalTickets,
};

interface CommandPaletteProps {
  opened: boolean;
  onClose: () => void;
  query: string;
  onQueryChange: (query: string) => void;
}

/**
 * The command palette (Ctrl+K, Mantine Spotlight): the screens the user may open, a ticket by
 * its number, the ticket search and 'Crear ticket', with the keyboard shortcuts at its foot.
 * Loaded on first use by `useCommandPalette`.
 */
export default function CommandPalette({ opened, onClose, query, onQueryChange }: CommandPaletteProps) {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [store] = useState(createSpotlightStore);
  const listId = `palette-${useId().replace(/[^\w-]/g, '')}`;
  const allowed = useQuery({ ...userPermissionsQuery(session!), enabled: session !== null }).data ?? noRoutes;

  useEffect(() => {
    store.setState((state) => ({ ...state, opened, selected: opened ? -1 : state.selected }));
  }, [store, opened]);

  const newTicketList = newTicketListPath(location.pathname, allowed);
  const newTicketAccess = useQuery({
    ...checkPermissionQuery(session!, routeNameOf(newTicketList ?? '')),
    enabled: session !== null && newTicketList !== null && opened,
  });
  const canCreateTicket =
    newTicketList !== null &&
    !!newTicketAccess.data &&
    sectionAccess(newTicketAccess.data.sections).can(listSections[newTicketList]!, 'w');

  const ticketNumber = parseTicketNumber(query);
  const screens = screenCommands(allowed).filter((s) => matchesScreen(s, query));
  const showCreate = canCreateTicket && (query.trim() === '' || matchesScreen(createCommand, query));
  const tickets = useTicketSearch(query, ticketSearchList(allowed), opened);

  const numbered = tickets.items.find((t) => t.id === ticketNumber);
  const otherTickets = tickets.items.filter((t) => t.id !== ticketNumber);
  // For a number, other tickets that mention it; the number's own ticket is the first action.
  const showTickets = ticketNumber === null ? tickets.status !== 'none' : otherTickets.length > 0;
  const hasResults = ticketNumber !== null || screens.length > 0 || showCreate || showTickets;
  // Until the user moves with the arrows, the first action stays selected as results arrive.
  const hasMovedRef = useRef(false);
  const resultsKey = [ticketNumber, screens.length, showCreate, tickets.status, otherTickets.length].join();

  const openTicket = (id: number) => void navigate(ticketPath(id));

  return (
    <Spotlight.Root
      store={store}
      query={query}
      onQueryChange={(next) => {
        hasMovedRef.current = false;
        onQueryChange(next);
      }}
      shortcut={null}
      onSpotlightClose={onClose}
      title="Paleta de comandos"
      size={620}
      // Anchored near the top (the theme centres modals), so it does not jump as results change.
      centered={false}
      yOffset="12vh"
      radius="md"
      overlayProps={{ backgroundOpacity: 0.35, blur: 2 }}
      classNames={{ header: classes.hiddenHeader, action: classes.action, actionsList: classes.actionsList }}
    >
      <Spotlight.Search
        data-palette-search
        data-autofocus
        aria-label="Buscar pantallas y tickets, o escribir un número de ticket"
        aria-controls={listId}
        placeholder="Busca una pantalla, un ticket o escribe su número…"
        leftSection={<IconSearch size={18} stroke={1.6} />}
        maxLength={100}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') hasMovedRef.current = true;
        }}
        onFocus={(e) => {
          const end = e.currentTarget.value.length;
          e.currentTarget.setSelectionRange(end, end);
        }}
      />
      {/* The list is a ScrollArea; its viewport takes Tab so a keyboard can scroll it (the actions themselves are reached with the arrows). */}
      <Spotlight.ActionsList id={listId} {...(resultsViewport as object)}>
        {ticketNumber !== null && (
          <PaletteGroup label="Ir al ticket">
            <Spotlight.Action
              label={`Abrir ticket #${ticketNumber}`}
              description={numbered?.name}
              leftSection={<IconTicket size={18} stroke={1.6} />}
              rightSection={<IconArrowRight size={16} stroke={1.6} />}
              onClick={() => openTicket(ticketNumber)}
            />
          </PaletteGroup>
        )}
        {showCreate && (
          <PaletteGroup label="Acciones">
            <Spotlight.Action
              label={createCommand.label}
              leftSection={<IconPlus size={18} stroke={1.6} />}
              rightSection={<Kbd size="xs">n</Kbd>}
              onClick={() => goToNewTicket(navigate, location, allowed)}
            />
          </PaletteGroup>
        )}
        {screens.length > 0 && (
          <PaletteGroup label="Ir a">
            {screens.map(({ path, label, group, icon: Icon }) => (
              <Spotlight.Action
                key={path}
                label={label}
                description={group}
                leftSection={<Icon size={18} stroke={1.6} />}
                onClick={() => void navigate(path)}
              />
            ))}
          </PaletteGroup>
        )}
        {showTickets && (
          <PaletteGroup label="Tickets">
            {otherTickets.map((t) => (
              <Spotlight.Action
                key={t.id}
                label={`#${t.id} · ${t.name}`}
                description={t.projects.name}
                leftSection={<IconTicket size={18} stroke={1.6} />}
                rightSection={<TicketStatusBadge name={t.status_tickets.name} stage={t.status_tickets.stage} />}
                dimmedSections={false}
                onClick={() => openTicket(t.id)}
              />
            ))}
            <TicketSearchState status={tickets.status} />
          </PaletteGroup>
        )}
        {!hasResults && <Spotlight.Empty>Sin resultados</Spotlight.Empty>}
        <SelectFirstAction listId={listId} store={store} resultsKey={resultsKey} hasMovedRef={hasMovedRef} />
      </Spotlight.ActionsList>
      <Spotlight.Footer>
        <ShortcutsFooter shortcuts={shortcutsFor(allowed, { isMac: isApplePlatform(), canCreateTicket })} />
      </Spotlight.Footer>
    </Spotlight.Root>
  );
}

const createCommand = { path: '', label: 'Crear ticket', group: 'Nuevo ticket', icon: IconPlus };

type SearchStatus = 'none' | 'waiting' | 'loading' | 'done' | 'empty' | 'error';

/** The ticket search of the palette: debounced, on the list the user may open, at most 8 tickets. */
function useTicketSearch(query: string, list: 'general' | 'mine' | null, isOpen: boolean) {
  const text = ticketSearchText(query);
  const [debounced] = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const isSearchable = list !== null && isOpen && text.length >= MIN_TICKET_SEARCH_LENGTH;
  const search = useQuery({
    ...ticketListQuery(list ?? 'mine', {
      page: 1,
      per_page: TICKET_RESULTS,
      search: debounced,
      filters: {},
      sort: DEFAULT_TICKET_SORT,
    }),
    placeholderData: undefined,
    retry: false,
    enabled: isSearchable && debounced === text,
  });
  const items: TTicket[] = isSearchable && debounced === text ? (search.data?.data ?? []) : [];
  let status: SearchStatus;
  if (!isSearchable) status = 'none';
  else if (debounced !== text) status = 'waiting';
  else if (search.isError) status = 'error';
  else if (search.isPending) status = 'loading';
  else status = items.length > 0 ? 'done' : 'empty';
  return { status, items };
}

function TicketSearchState({ status }: { status: SearchStatus }) {
  let content: ReactNode = null;
  if (status === 'waiting' || status === 'loading') {
    content = (
      <Group gap={8}>
        <Loader size={14} type="dots" aria-hidden />
        Buscando tickets…
      </Group>
    );
  } else if (status === 'empty') content = 'Sin resultados';
  else if (status === 'error') content = 'No se pudo buscar tickets. Inténtalo de nuevo.';
  return (
    <Text component="div" size="sm" c="dimmed" className={classes.searchState} role="status" aria-live="polite">
      {content}
    </Text>
  );
}

function PaletteGroup({ label, children }: { label: string; children: ReactNode }) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id} className={classes.group}>
      <Text id={id} size="xs" fw={600} c="dimmed" className={classes.groupLabel}>
        {label}
      </Text>
      {children}
    </div>
  );
}

function ShortcutsFooter({ shortcuts }: { shortcuts: { keys: string[]; label: string }[] }) {
  return (
    <div role="group" aria-label="Atajos de teclado" className={classes.shortcuts}>
      <Text size="xs" fw={600} c="dimmed">
        Atajos de teclado
      </Text>
      {shortcuts.map(({ keys, label }) => (
        <span key={label} className={classes.shortcut}>
          {keys.map((key, i) => (
            <Kbd key={i} size="xs">
              {key}
            </Kbd>
          ))}
          <Text span size="xs" c="dimmed">
            {label}
          </Text>
        </span>
      ))}
    </div>
  );
}

type SpotlightStore = ReturnType<typeof createSpotlightStore>;

interface SelectFirstActionProps {
  listId: string;
  store: SpotlightStore;
  resultsKey: string;
  hasMovedRef: RefObject<boolean>;
}

/**
 * Spotlight selects its first action when the query changes; results that arrive later
 * (the ticket search, 'Crear ticket' once its permission is known) or a query typed before
 * the palette loaded get the same, unless the user has moved the selection. Rendered inside
 * the list, so its effect runs once the list is on the page.
 */
function SelectFirstAction({ listId, store, resultsKey, hasMovedRef }: SelectFirstActionProps) {
  useEffect(() => {
    const list = document.getElementById(listId);
    const selected = list?.querySelector('[data-selected]');
    const first = list?.querySelector('[data-action]');
    if (!first || selected === first || (selected && hasMovedRef.current)) return;
    selected?.removeAttribute('data-selected');
    first.setAttribute('data-selected', 'true');
    store.updateState((state) => ({ ...state, selected: 0 }));
  }, [listId, store, resultsKey, hasMovedRef]);
  return null;
}
