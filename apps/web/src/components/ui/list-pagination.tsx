import { Group, Pagination, Text } from '@mantine/core';

interface ListPaginationProps {
  page: number;
  lastPage: number;
  onChange: (page: number) => void;
  /**
   * With it, 'Mostrando x–y de n <noun>' (or 'Sin <noun>') beside the pages;
   * 'de más de n' when the list counted only up to n.
   */
  count?: { total: number; perPage: number; noun: string; isLowerBound?: boolean };
}

const controlLabels = {
  first: 'Primera página',
  previous: 'Página anterior',
  next: 'Página siguiente',
  last: 'Última página',
};

const lowerBound = new Intl.NumberFormat('es');

/** Numbered pagination with ellipses under a list (SPEC §9). */
export function ListPagination({ page, lastPage, onChange, count }: ListPaginationProps) {
  const pages = (
    <Pagination
      total={lastPage}
      value={Math.min(page, lastPage)}
      onChange={onChange}
      siblings={1}
      boundaries={1}
      size="sm"
      getControlProps={(control) => ({ 'aria-label': controlLabels[control] })}
      getItemProps={(n) => ({ 'aria-label': `Página ${n}` })}
    />
  );
  if (!count) return <Group justify="flex-end">{pages}</Group>;

  const { total, perPage, noun, isLowerBound = false } = count;
  const first = total === 0 ? 0 : (page - 1) * perPage + 1;
  const last = Math.min(page * perPage, total);
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed">
        {total === 0
          ? `Sin ${noun}`
          : `Mostrando ${first}–${last} de ${isLowerBound ? `más de ${lowerBound.format(total)}` : total} ${noun}`}
      </Text>
      {pages}
    </Group>
  );
}
