import { Combobox, Input, InputBase, ScrollArea, useCombobox } from '@mantine/core';
import { useId, useState } from 'react';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps {
  label: string;
  /** The selected id as a string, '' for none. */
  value: string;
  onChange: (value: string) => void;
  options: SelectOption[];
  name?: string;
  error?: React.ReactNode;
  required?: boolean;
  disabled?: boolean;
  isLoading?: boolean;
  description?: string;
}

/** Items `{ id, name }` as options whose value is the id as a string. */
export const toSelectOptions = (items: { id: number | string; name: string }[]): SelectOption[] =>
  items.map((item) => ({ value: String(item.id), label: item.name }));

const normalize = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();

/**
 * The select control: placeholder 'Seleccione una opción', a
 * search box 'Buscar...' in the dropdown, 'No se encontraron resultados' when
 * nothing matches.
 */
export function SelectField({
  label,
  value,
  onChange,
  options,
  name,
  error,
  required,
  disabled,
  isLoading,
  description,
}: SelectFieldProps) {
  const [search, setSearch] = useState('');
  const searchId = useId();
  const combobox = useCombobox({
    onDropdownClose: () => {
      combobox.resetSelectedOption();
      setSearch('');
    },
    onDropdownOpen: () => combobox.focusSearchInput(),
  });
  const selected = options.find((option) => option.value === value);
  const query = normalize(search);
  const visible = query === '' ? options : options.filter((o) => normalize(o.label).includes(query));

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(next) => {
        onChange(next);
        combobox.closeDropdown();
        combobox.focusTarget();
      }}
      disabled={disabled}
    >
      <Combobox.Target targetType="button">
        <InputBase
          component="button"
          type="button"
          name={name}
          value={value}
          pointer
          label={label}
          description={description}
          error={error}
          required={required}
          disabled={disabled}
          rightSection={<Combobox.Chevron />}
          rightSectionPointerEvents="none"
          onClick={() => combobox.toggleDropdown()}
          aria-haspopup="listbox"
        >
          {selected ? (
            selected.label
          ) : (
            <Input.Placeholder>{isLoading ? 'Cargando...' : 'Seleccione una opción'}</Input.Placeholder>
          )}
        </InputBase>
      </Combobox.Target>

      <Combobox.Dropdown>
        <Combobox.Search
          id={searchId}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          placeholder="Buscar..."
          aria-label="Buscar..."
        />
        <Combobox.Options>
          <ScrollArea.Autosize mah={220} type="scroll">
            {visible.length > 0 ? (
              visible.map((option) => (
                <Combobox.Option value={option.value} key={option.value} active={option.value === value}>
                  {option.label}
                </Combobox.Option>
              ))
            ) : (
              <Combobox.Empty>No se encontraron resultados</Combobox.Empty>
            )}
          </ScrollArea.Autosize>
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
