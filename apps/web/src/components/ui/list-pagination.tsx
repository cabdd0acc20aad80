import { Group, Pagination, Text } from '@mantine/core';

interface ListPaginationProps {
  page: number;
  lastPage: number;
  onChange: (page: number) => void;
  /**
   * With it, 'Mostrando x–y de n <noun>' (or 'Sin <noun>') beside the pages; `noun` is
   * the plural, and `singular` (by default the plural less its final s) is used for one;
   * 'de más de n' when the list counted only up to n.
   */
  count?: { total: number; perPage: number; noun: string; singular?: string; isLowerBound?: boolean };
}

const lowerBound = new Intl.NumberFormat('es');

/** 'Mostrando 1–1 de 1 ticket', 'Mostrando 1–7 de 60 tickets', 'de más de 10.000 tickets', 'Sin tickets'. */
export function countLabel(
  page: number,
  perPage: number,
  total: number,
  noun: string,
  singular?: string,
  isLowerBound = false,
) {
  if (total === 0) return `Sin ${noun}`;
  const first = (page - 1) * perPage + 1;
  const last = Math.min(page * perPage, total);
  if (isLowerBound) return `Mostrando ${first}–${last} de más de ${lowerBound.format(total)} ${noun}`;
  const word = total === 1 ? (singular ?? noun.replace(/s$/, '')) : noun;
  return `Mostrando ${first}–${last} de ${total} ${word}`;
}

const controlLabels = {
  first: 'Primera página',
  previous: 'Página anterior',
  next: 'Página siguiente',
  last: 'Última página',
};

/** Numbered pagination with ellipses under a list. */
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

  const { total, perPage, noun, singular, isLowerBound = false } = count;
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed">
        {countLabel(page, perPage, total, noun, singular, isLowerBound)}
      </Text>
      {pages}
    </Group>
  );
}
