import { Group, Skeleton, Table, UnstyledButton, type MantineBreakpoint } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import type { Key, ReactNode } from 'react';
import { EmptyState } from './empty-state.tsx';
import { LoadErrorNotice } from './load-error-notice.tsx';

/** A page's table scrolls under a sticky header beyond this height. */
export const TABLE_MAX_HEIGHT = 630;
/** The skeleton table while a list loads. */
export const SKELETON_ROWS = 5;

export interface DataColumn<R> {
  header: string;
  render: (row: R) => ReactNode;
  width?: number;
  align?: 'center';
  /** The column sorts the list by this key when its header is clicked (see `sort`, `onSort`). */
  sortKey?: string;
  /** Shown only from this breakpoint up: less important columns collapse on narrow screens. */
  visibleFrom?: MantineBreakpoint;
}

/** The list's current order, for sortable headers. */
export interface TableSort {
  by: string;
  dir: 'asc' | 'desc';
}

function SortableHeader({
  column,
  sort,
  onSort,
}: {
  column: DataColumn<unknown>;
  sort: TableSort;
  onSort: (key: string) => void;
}) {
  const isActive = sort.by === column.sortKey;
  const Icon = !isActive ? IconArrowsSort : sort.dir === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <UnstyledButton
      onClick={() => onSort(column.sortKey!)}
      title={`Ordenar por ${column.header}`}
      style={{ font: 'inherit', fontWeight: 'inherit' }}
    >
      <Group gap={4} wrap="nowrap">
        {column.header}
        <Icon size={14} stroke={1.8} opacity={isActive ? 1 : 0.45} aria-hidden />
      </Group>
    </UnstyledButton>
  );
}

interface DataTableProps<R> {
  columns: DataColumn<R>[];
  rows: R[];
  rowKey: (row: R) => Key;
  /** Nothing to show yet: skeleton rows instead. */
  isLoading: boolean;
  /**
   * The rows shown are a previous answer while the next one is asked for (a new search or page):
   * they stay in place, dimmed and still working, so a click or a key on one of them is not lost.
   */
  isRefreshing?: boolean;
  minWidth: number;
  /** The table's accessible name. */
  label?: string;
  /** Inside a modal: the table grows with it, rows do not highlight on hover, the empty state is smaller. */
  isInModal?: boolean;
  skeletonRows?: number;
  emptyTitle?: string;
  emptyHint?: string;
  /** A load failure, shown above the table as a fixed notice. */
  error?: Error | null;
  onRetry?: () => void;
  /** The current order and what a click on a sortable header does. */
  sort?: TableSort;
  onSort?: (key: string) => void;
}

/**
 * A list's table: a skeleton while loading, the previous rows while refreshing, the illustrated
 * empty state when there is nothing to show, and the notice of a failed load.
 */
export function DataTable<R>({
  columns,
  rows,
  rowKey,
  isLoading,
  isRefreshing = false,
  minWidth,
  label,
  isInModal = false,
  skeletonRows = SKELETON_ROWS,
  emptyTitle,
  emptyHint,
  error = null,
  onRetry,
  sort,
  onSort,
}: DataTableProps<R>) {
  return (
    <>
      <LoadErrorNotice error={error} onRetry={onRetry} />
      <Table.ScrollContainer
        minWidth={minWidth}
        maxHeight={isInModal ? undefined : TABLE_MAX_HEIGHT}
        // The box scrolls (630 px high, or narrower than the table): a keyboard can reach and scroll it (WCAG 2.1.1).
        scrollAreaProps={{ viewportProps: { tabIndex: 0, ...(label ? { role: 'region', 'aria-label': label } : {}) } }}
      >
        <Table
          striped
          highlightOnHover={!isInModal}
          stickyHeader={!isInModal}
          verticalSpacing="xs"
          aria-label={label}
          aria-busy={isLoading || isRefreshing}
        >
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th
                  key={column.header}
                  w={column.width}
                  ta={column.align}
                  visibleFrom={column.visibleFrom}
                  aria-sort={
                    column.sortKey && sort?.by === column.sortKey
                      ? sort.dir === 'asc'
                        ? 'ascending'
                        : 'descending'
                      : undefined
                  }
                >
                  {column.sortKey && sort && onSort ? (
                    <SortableHeader column={column as DataColumn<unknown>} sort={sort} onSort={onSort} />
                  ) : (
                    column.header
                  )}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody style={{ opacity: isRefreshing ? 0.6 : 1, transition: 'opacity 120ms' }}>
            {isLoading ? (
              Array.from({ length: skeletonRows }, (_, i) => (
                <Table.Tr key={i} data-testid="skeleton-row">
                  {columns.map((column) => (
                    <Table.Td key={column.header} visibleFrom={column.visibleFrom}>
                      <Skeleton height={14} radius="sm" />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))
            ) : rows.length === 0 && error ? null : rows.length === 0 ? (
              // A failed load shows only its notice above: an empty illustration would say there is nothing.
              <Table.Tr>
                <Table.Td colSpan={columns.length}>
                  <EmptyState title={emptyTitle} hint={emptyHint} isCompact={isInModal} />
                </Table.Td>
              </Table.Tr>
            ) : (
              rows.map((row) => (
                <Table.Tr key={rowKey(row)}>
                  {columns.map((column) => (
                    <Table.Td key={column.header} ta={column.align} visibleFrom={column.visibleFrom}>
                      {column.render(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
