import { Button, Card, Group, SegmentedControl, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { IconArrowsSort, IconDownload, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import { downloadCsv, toCsv, type CsvValue } from '../csv.ts';

/** One column of a figure's table: its CSV value, how it reads on screen, whether it sorts. */
export interface FigureColumn<R> {
  header: string;
  /** The CSV file's header, when it differs (e.g. the unit of a value shown in words). */
  csvHeader?: string;
  value: (row: R) => CsvValue;
  /** What the cell shows; the value unless given. */
  render?: (row: R) => ReactNode;
  numeric?: boolean;
}

interface FigureTableProps<R> {
  caption: string;
  columns: FigureColumn<R>[];
  rows: R[];
  /** Headers become sort buttons. */
  sortable?: boolean;
  sort?: SortState;
  onSort?: (sort: SortState) => void;
}

export interface SortState {
  column: number;
  direction: 'ascending' | 'descending';
}

/** Rows in the order of a column (numbers as numbers, text in Spanish order). */
export function sortRows<R>(rows: R[], columns: FigureColumn<R>[], sort: SortState | undefined): R[] {
  if (!sort) return rows;
  const column = columns[sort.column];
  if (!column) return rows;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = column.value(a);
    const y = column.value(b);
    if (x === y) return 0;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'es'));
  });
}

/** The figures of a chart as a table (its accessible alternative). */
export function FigureTable<R>({ caption, columns, rows, sortable, sort, onSort }: FigureTableProps<R>) {
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table striped highlightOnHover verticalSpacing={6} fz="sm">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c, i) => {
              const active = sort?.column === i ? sort.direction : undefined;
              return (
                <Table.Th
                  key={c.header}
                  ta={c.numeric ? 'right' : 'left'}
                  aria-sort={sortable ? (active ?? 'none') : undefined}
                >
                  {sortable && onSort ? (
                    <UnstyledButton
                      fw={600}
                      fz="sm"
                      onClick={() =>
                        onSort({
                          column: i,
                          direction:
                            active === 'descending'
                              ? 'ascending'
                              : active === 'ascending'
                                ? 'descending'
                                : c.numeric
                                  ? 'descending'
                                  : 'ascending',
                        })
                      }
                    >
                      <Group gap={4} wrap="nowrap" justify={c.numeric ? 'flex-end' : 'flex-start'}>
                        {c.header}
                        {active === 'ascending' ? (
                          <IconSortAscending size={14} aria-hidden />
                        ) : active === 'descending' ? (
                          <IconSortDescending size={14} aria-hidden />
                        ) : (
                          <IconArrowsSort size={14} aria-hidden opacity={0.5} />
                        )}
                      </Group>
                    </UnstyledButton>
                  ) : (
                    c.header
                  )}
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>
                <Text size="sm" c="dimmed">
                  Sin datos en este periodo.
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            rows.map((row, r) => (
              <Table.Tr key={r}>
                {columns.map((c) => (
                  <Table.Td
                    key={c.header}
                    ta={c.numeric ? 'right' : 'left'}
                    style={{ fontVariantNumeric: 'tabular-nums' }}
                  >
                    {c.render ? c.render(row) : c.value(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** 'Exportar CSV' of a figure's rows. */
export function ExportCsvButton<R>({
  fileName,
  columns,
  rows,
  label,
}: {
  fileName: string;
  columns: FigureColumn<R>[];
  rows: R[];
  label: string;
}) {
  return (
    <Button
      variant="default"
      size="xs"
      leftSection={<IconDownload size={14} />}
      aria-label={`Exportar CSV: ${label}`}
      onClick={() =>
        downloadCsv(
          fileName,
          toCsv(
            columns.map((c) => c.csvHeader ?? c.header),
            rows.map((row) => columns.map((c) => c.value(row))),
          ),
        )
      }
    >
      Exportar CSV
    </Button>
  );
}

interface ChartCardProps<R> {
  title: string;
  description?: string;
  /** The CSV file's name, without extension. */
  fileName: string;
  columns: FigureColumn<R>[];
  rows: R[];
  /** The chart; its figures are also a table, shown with 'Tabla'. */
  chart: ReactNode;
}

/** A chart with its title, a chart/table switch (the accessible alternative) and 'Exportar CSV'. */
export function ChartCard<R>({ title, description, fileName, columns, rows, chart }: ChartCardProps<R>) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const titleId = useId();
  const data = rows;
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" align="flex-start" gap="xs" mb="sm">
        <Stack gap={0}>
          <Title order={3} size="h5" id={titleId}>
            {title}
          </Title>
          {description && (
            <Text size="xs" c="dimmed">
              {description}
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          <SegmentedControl
            size="xs"
            value={view}
            onChange={(v) => setView(v as 'chart' | 'table')}
            aria-label={`Vista de ${title}`}
            data={[
              { label: 'Gráfica', value: 'chart' },
              { label: 'Tabla', value: 'table' },
            ]}
          />
          <ExportCsvButton fileName={`${fileName}.csv`} columns={columns} rows={data} label={title} />
        </Group>
      </Group>
      {view === 'chart' ? (
        data.length === 0 ? (
          <Text size="sm" c="dimmed" py="xl" ta="center">
            Sin datos en este periodo.
          </Text>
        ) : (
          <div role="img" aria-label={`${title}. Elige 'Tabla' para leer las cifras.`}>
            {chart}
          </div>
        )
      ) : (
        <FigureTable caption={title} columns={columns} rows={data} />
      )}
    </Card>
  );
}
