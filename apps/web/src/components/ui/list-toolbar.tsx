import { Group, NativeSelect, Text, TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useId } from 'react';
import type { ListState } from '@/lib/use-list-params.ts';

interface SearchInputProps {
  /** The accessible name. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  w?: TextInputProps['w'];
  isAutoFocus?: boolean;
}

/** A list's search box ('Buscar...', at most 100 characters). */
export function SearchInput({ label, value, onChange, placeholder = 'Buscar...', w, isAutoFocus }: SearchInputProps) {
  return (
    <TextInput
      aria-label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      maxLength={100}
      w={w}
      data-autofocus={isAutoFocus || undefined}
      // The `/` shortcut focuses the list's search box.
      data-list-search
    />
  );
}

interface ListToolbarProps {
  list: ListState;
  /** The accessible name of the search box. */
  searchLabel: string;
  searchWidth?: number;
  isAutoFocus?: boolean;
}

/** Above a paged list: the search box and 'Mostrar' with the page sizes. */
export function ListToolbar({ list, searchLabel, searchWidth = 300, isAutoFocus }: ListToolbarProps) {
  const sizeId = useId();
  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <SearchInput
        label={searchLabel}
        value={list.search}
        onChange={list.setSearch}
        w={{ base: '100%', xs: searchWidth }}
        isAutoFocus={isAutoFocus}
      />
      <Group gap={8} wrap="nowrap">
        <Text size="sm" c="dimmed" component="label" htmlFor={sizeId}>
          Mostrar
        </Text>
        <NativeSelect
          id={sizeId}
          data={list.pageSizes.map(String)}
          value={String(list.perPage)}
          onChange={(e) => list.setPerPage(Number(e.currentTarget.value))}
          w={80}
        />
      </Group>
    </Group>
  );
}
