import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
  type ScreenReaderInstructions,
} from '@dnd-kit/core';
import { Badge, Box, Button, Group, Paper, ScrollArea, Select, Stack, Text, UnstyledButton } from '@mantine/core';
import type { TKanbanBoard, TKanbanCard, TKanbanColumn, TKanbanQuery } from '@portal/contract';
import { IconGripVertical } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type CSSProperties, type KeyboardEventHandler, type PointerEventHandler } from 'react';
import { SlaBadge } from '@/components/ui/sla-badge.tsx';
import { UserAvatar } from '@/components/ui/user-avatar.tsx';
import { errorText, isApiError, isSessionLost } from '@/lib/api-client.ts';
import { ERROR_MS, notifyError } from '@/lib/notify.ts';
import { useMedia } from '@/lib/use-media.ts';
import { fetchKanbanColumn, moveTicketStatus } from '../api/kanban-api.ts';
import { PriorityBadge } from './ticket-badges.tsx';
import { TicketLink } from './ticket-table.tsx';

/** `1.234`, `10.000`: grouped from the thousands, as the counts read elsewhere. */
const countFormat = new Intl.NumberFormat('es', { useGrouping: 'always' });

/** A column's count: `1.234`, `más de 10.000`, or `7/5` against its WIP limit. */
export function columnCountText(column: Pick<TKanbanColumn, 'count' | 'count_is_lower_bound' | 'status'>): string {
  const count = column.count_is_lower_bound
    ? `más de ${countFormat.format(column.count)}`
    : countFormat.format(column.count);
  return column.status.wip_limit === null ? count : `${count}/${countFormat.format(column.status.wip_limit)}`;
}

export const isOverWip = (column: Pick<TKanbanColumn, 'count' | 'count_is_lower_bound' | 'status'>) =>
  column.status.wip_limit !== null && (column.count_is_lower_bound || column.count > column.status.wip_limit);

const columnId = (statusId: number) => `estado-${statusId}`;
const cardId = (ticketId: number) => `ticket-${ticketId}`;
const idOf = (id: string | number) => Number(String(id).split('-').at(-1));

/**
 * Arrows move a lifted card from column to column (left and right; up and down stay put):
 * the card jumps to the next column's centre instead of moving a few pixels per key.
 */
const columnKeyboardCoordinates: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  const step = event.code === 'ArrowRight' ? 1 : event.code === 'ArrowLeft' ? -1 : 0;
  if (event.code === 'ArrowUp' || event.code === 'ArrowDown') {
    event.preventDefault();
    return currentCoordinates;
  }
  if (step === 0) return undefined;
  event.preventDefault();
  const rects = [...context.droppableRects.values()].sort((a, b) => a.left - b.left);
  const card = context.collisionRect;
  if (!card || rects.length === 0) return currentCoordinates;
  const x = card.left + card.width / 2;
  let at = rects.findIndex((r) => x >= r.left && x < r.left + r.width);
  if (at < 0) at = rects.findIndex((r) => x < r.left) - 1;
  const target = rects[at + step];
  if (!target) return currentCoordinates;
  return { x: currentCoordinates.x + (target.left + target.width / 2 - x), y: currentCoordinates.y };
};

/**
 * The column under the pointer; with the keyboard (no pointer), or over a gap, the column whose
 * width holds the card's centre, however far down the card is.
 */
const collision: CollisionDetection = (args) => {
  if (args.pointerCoordinates) {
    const under = pointerWithin(args);
    if (under.length > 0) return under;
  }
  const x = args.collisionRect.left + args.collisionRect.width / 2;
  const hit = args.droppableContainers.find((c) => {
    const r = args.droppableRects.get(c.id);
    return r !== undefined && x >= r.left && x < r.left + r.width;
  });
  return hit ? [{ id: hit.id }] : [];
};

const screenReaderInstructions: ScreenReaderInstructions = {
  draggable:
    'Para mover el ticket a otro estado, pulsa Espacio o Intro. Usa las flechas izquierda y derecha para elegir la columna, Espacio o Intro para soltarlo y Escape para cancelar.',
};

interface KanbanBoardProps {
  board: TKanbanBoard;
  query: TKanbanQuery;
}

/** Cards of a column loaded with 'Cargar más', and where the next page starts. */
type MorePages = Record<number, { cards: TKanbanCard[]; cursor: string | null }>;

/**
 * The board: a column per status with its cards, `Cargar más`, and moving a card to another
 * column with the mouse or the keyboard (Space lifts, arrows move, Space drops, Escape
 * cancels; every step announced in Spanish). A move shows at once and goes back, with the
 * server's reason, when it is refused: whether the user may move a ticket is the server's call
 * (u on it, as the edit form), so every card can be lifted. On a phone one column shows at a
 * time, chosen above.
 */
export function KanbanBoard({ board, query }: KanbanBoardProps) {
  const queryClient = useQueryClient();
  const isPhone = useMedia('(max-width: 48em)');
  const [more, setMore] = useState<MorePages>({});
  const [loadingMore, setLoadingMore] = useState<number | null>(null);
  /** Moves sent and not yet on the refetched board: ticket → the status it goes to. */
  const [moving, setMoving] = useState<Record<number, number>>({});
  const [phoneColumn, setPhoneColumn] = useState<string | null>(null);

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    // Instant scrolls: a smooth one would still be moving when the next column is measured.
    useSensor(KeyboardSensor, { coordinateGetter: columnKeyboardCoordinates, scrollBehavior: 'auto' }),
  );

  const statusName = (statusId: number) => board.columns.find((c) => c.status.id === statusId)?.status.name ?? '';
  const allCards = new Map<number, TKanbanCard>();
  for (const col of board.columns) {
    for (const card of [...col.cards, ...(more[col.status.id]?.cards ?? [])]) {
      if (!allCards.has(card.id)) allCards.set(card.id, card);
    }
  }
  const columnOf = (card: TKanbanCard) => moving[card.id] ?? card.status_id;

  // Each column: its cards (a card moving meanwhile shows first in the column it goes to), its count.
  const columns = board.columns.map((col) => {
    const id = col.status.id;
    const movedIn = Object.entries(moving)
      .filter(([ticketId, to]) => to === id && allCards.get(Number(ticketId))?.status_id !== id)
      .flatMap(([ticketId]) => allCards.get(Number(ticketId)) ?? []);
    const own = [...col.cards, ...(more[id]?.cards ?? [])].filter(
      (card, i, list) => columnOf(card) === id && list.findIndex((c) => c.id === card.id) === i,
    );
    const movedOut = [...allCards.values()].filter((c) => c.status_id === id && columnOf(c) !== id).length;
    const count = col.count_is_lower_bound ? col.count : col.count - movedOut + movedIn.length;
    const cursor = id in more ? more[id]!.cursor : col.next_cursor;
    return { ...col, count, cards: [...movedIn, ...own], next_cursor: cursor };
  });

  async function loadMore(statusId: number, cursor: string) {
    setLoadingMore(statusId);
    try {
      const page = await fetchKanbanColumn(query, statusId, cursor);
      setMore((m) => ({
        ...m,
        [statusId]: { cards: [...(m[statusId]?.cards ?? []), ...page.cards], cursor: page.next_cursor },
      }));
    } catch (error) {
      if (!isSessionLost(error))
        notifyError('No se pudieron cargar más tickets', errorText(error, 'Inténtalo de nuevo.'));
    } finally {
      setLoadingMore(null);
    }
  }

  async function move(ticket: TKanbanCard, to: number) {
    if (columnOf(ticket) === to) return;
    setMoving((m) => ({ ...m, [ticket.id]: to }));
    try {
      await moveTicketStatus(ticket.id, { status_id: to });
      // The card stays where it was dropped until the board is read again with it there.
      await queryClient.invalidateQueries({ queryKey: ['tickets'] });
      setMore((m) => {
        const next: MorePages = {};
        for (const [k, v] of Object.entries(m))
          next[Number(k)] = { ...v, cards: v.cards.filter((c) => c.id !== ticket.id) };
        return next;
      });
    } catch (error) {
      if (!isSessionLost(error)) {
        // The reason and its details (a parent's open children), not only the details.
        const reason = isApiError(error)
          ? [error.message, ...Object.values(error.errors ?? {}).flat()].filter(Boolean).join('\n')
          : errorText(error, 'El ticket volvió a su estado. Inténtalo de nuevo.');
        notifyError(
          `No se pudo mover el ticket #${ticket.id}`,
          reason,
          // Long enough to read why the card went back.
          ERROR_MS * 4,
        );
      }
    } finally {
      setMoving((m) => {
        const { [ticket.id]: _done, ...rest } = m;
        return rest;
      });
    }
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    const ticket = allCards.get(idOf(active.id));
    if (!ticket || !over) return;
    void move(ticket, idOf(over.id));
  }

  // Lifting a card also puts it over its own column: that is not announced over 'levantado'.
  const lastOver = useRef<string | number | null>(null);
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      lastOver.current = null;
      return `Ticket ${idOf(active.id)} levantado en ${statusName(columnOf(allCards.get(idOf(active.id))!))}.`;
    },
    onDragOver: ({ active, over }) => {
      const isFirst = lastOver.current === null;
      lastOver.current = over?.id ?? 'fuera';
      if (isFirst && over && idOf(over.id) === columnOf(allCards.get(idOf(active.id))!)) return undefined;
      return over
        ? `Ticket ${idOf(active.id)} sobre la columna ${statusName(idOf(over.id))}.`
        : `Ticket ${idOf(active.id)} fuera de las columnas.`;
    },
    onDragEnd: ({ active, over }) =>
      over
        ? `Ticket ${idOf(active.id)} soltado en ${statusName(idOf(over.id))}.`
        : `Ticket ${idOf(active.id)} soltado fuera de las columnas; no cambió.`,
    onDragCancel: ({ active }) => `Movimiento del ticket ${idOf(active.id)} cancelado; no cambió.`,
  };

  const shown = isPhone
    ? columns.filter((c) => String(c.status.id) === (phoneColumn ?? String(columns[0]?.status.id)))
    : columns;

  return (
    <Stack gap="sm">
      {isPhone && (
        <Select
          label="Columna"
          data={columns.map((c) => ({ value: String(c.status.id), label: `${c.status.name} (${columnCountText(c)})` }))}
          value={phoneColumn ?? String(columns[0]?.status.id ?? '')}
          onChange={setPhoneColumn}
          allowDeselect={false}
        />
      )}
      <DndContext
        sensors={sensors}
        collisionDetection={collision}
        onDragEnd={onDragEnd}
        accessibility={{ announcements, screenReaderInstructions }}
      >
        <ScrollArea type="auto" offsetScrollbars>
          <Group align="flex-start" gap="sm" wrap="nowrap" pb="xs">
            {shown.map((col) => (
              <KanbanColumn
                key={col.status.id}
                column={col}
                isPhone={isPhone}
                canMove={!isPhone}
                isLoadingMore={loadingMore === col.status.id}
                onLoadMore={() => col.next_cursor && void loadMore(col.status.id, col.next_cursor)}
              />
            ))}
          </Group>
        </ScrollArea>
      </DndContext>
    </Stack>
  );
}

interface KanbanColumnProps {
  column: TKanbanColumn;
  isPhone: boolean;
  canMove: boolean;
  isLoadingMore: boolean;
  onLoadMore: () => void;
}

function KanbanColumn({ column, isPhone, canMove, isLoadingMore, onLoadMore }: KanbanColumnProps) {
  const { setNodeRef, isOver } = useDroppable({ id: columnId(column.status.id) });
  const isOverLimit = isOverWip(column);
  const headingId = `kanban-columna-${column.status.id}`;
  return (
    <Paper
      ref={setNodeRef}
      component="section"
      aria-labelledby={headingId}
      withBorder
      radius="md"
      p="xs"
      w={isPhone ? '100%' : 280}
      miw={isPhone ? undefined : 280}
      bg={isOver ? 'var(--mantine-color-default-hover)' : 'var(--mantine-color-body)'}
      data-testid={`kanban-column-${column.status.id}`}
    >
      <Group justify="space-between" wrap="nowrap" mb="xs" px={4}>
        <Text id={headingId} component="h3" fw={700} size="sm">
          {column.status.name}
        </Text>
        <Badge
          variant={isOverLimit ? 'filled' : 'light'}
          color={isOverLimit ? 'red' : 'gray'}
          c={isOverLimit ? undefined : 'var(--mantine-color-text)'}
          tt="none"
          title={isOverLimit ? 'Supera el límite WIP' : undefined}
          aria-label={`${columnCountText(column)} tickets${isOverLimit ? ', supera el límite WIP' : ''}`}
          data-testid="kanban-count"
        >
          {columnCountText(column)}
        </Badge>
      </Group>
      {column.cards.length > 0 ? (
        <Stack gap={6} role="list" aria-label={`Tickets en ${column.status.name}`} mih={60}>
          {column.cards.map((ticket) => (
            <KanbanCard key={ticket.id} ticket={ticket} canMove={canMove} />
          ))}
        </Stack>
      ) : (
        <Text size="xs" c="dimmed" ta="center" py="md" mih={60}>
          Sin tickets
        </Text>
      )}
      {column.next_cursor && (
        <Button variant="subtle" size="compact-sm" fullWidth mt="xs" loading={isLoadingMore} onClick={onLoadMore}>
          Cargar más
        </Button>
      )}
    </Paper>
  );
}

function KanbanCard({ ticket, canMove }: { ticket: TKanbanCard; canMove: boolean }) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({
    id: cardId(ticket.id),
    disabled: !canMove,
    attributes: { roleDescription: 'tarjeta movible' },
  });
  // The pointer drags the whole card (a click still opens its link); keys act on the handle only.
  const onPointerDown = listeners?.onPointerDown as PointerEventHandler | undefined;
  const onKeyDown = listeners?.onKeyDown as KeyboardEventHandler | undefined;
  const style: CSSProperties = {
    transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
    zIndex: isDragging ? 10 : undefined,
    position: 'relative',
    touchAction: canMove ? 'none' : undefined,
  };
  return (
    <Paper
      ref={setNodeRef}
      role="listitem"
      withBorder
      radius="sm"
      p={8}
      shadow={isDragging ? 'md' : 'xs'}
      style={style}
      onPointerDown={canMove ? onPointerDown : undefined}
      data-testid={`kanban-card-${ticket.id}`}
    >
      <Group gap={6} wrap="nowrap" align="flex-start">
        {canMove && (
          <UnstyledButton
            {...attributes}
            onKeyDown={onKeyDown}
            aria-label={`Mover ticket #${ticket.id} ${ticket.name}`}
            c="dimmed"
            style={{ cursor: 'grab', lineHeight: 0 }}
            data-testid={`kanban-handle-${ticket.id}`}
          >
            <IconGripVertical size={16} aria-hidden />
          </UnstyledButton>
        )}
        <Box style={{ flex: 1, minWidth: 0 }}>
          <Text size="sm" fw={600} lineClamp={2}>
            <TicketLink ticket={ticket}>
              #{ticket.id} {ticket.name}
            </TicketLink>
          </Text>
          <Group gap={6} mt={6} justify="space-between" wrap="nowrap">
            <Group gap={4} wrap="wrap">
              <PriorityBadge name={ticket.priorities.name} />
              <SlaBadge state={ticket.sla_state} />
            </Group>
            {ticket.assigned_to ? (
              <UserAvatar name={ticket.assigned_to.name} size={24} alt={`Asignado a ${ticket.assigned_to.name}`} />
            ) : (
              <Text size="xs" c="dimmed">
                Sin asignar
              </Text>
            )}
          </Group>
        </Box>
      </Group>
    </Paper>
  );
}
