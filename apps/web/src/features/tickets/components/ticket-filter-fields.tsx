import { MultiSelect, SimpleGrid, TextInput } from '@mantine/core';
import type { TicketStage, TOption, TTicketFiltersInput } from '@portal/contract';
import { catalogFilters, stageLabels, type CatalogFilterKey } from '../ticket-list-url.ts';

export type CatalogOptions = Record<CatalogFilterKey, TOption[]>;

const NONE = 'none';

const asData = (options: TOption[]) => options.map((o) => ({ value: String(o.id), label: o.name }));
const idsOf = (values: string[]) => values.map(Number);

interface TicketFilterFieldsProps {
  filters: TTicketFiltersInput;
  onPatch: (patch: Partial<TTicketFiltersInput>) => void;
  stages: readonly TicketStage[];
  catalogs: CatalogOptions;
  people: TOption[];
  /** The assignees filtered by, `null` for 'Sin asignar'. */
  assignees: readonly (string | number | null)[];
  groups: TOption[];
  /** The groups filtered by, `null` for 'Sin grupo'. */
  groupIds: readonly (string | number | null)[];
}

/** The fields of the 'Filtros' panel (TicketFilters). */
export default function TicketFilterFields({
  filters,
  onPatch: set,
  stages,
  catalogs,
  people,
  assignees,
  groups,
  groupIds,
}: TicketFilterFieldsProps) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="sm" verticalSpacing="xs">
      {stages.length > 1 && (
        <MultiSelect
          label="Etapa"
          placeholder="Todas"
          data={stages.map((s) => ({ value: s, label: stageLabels[s] }))}
          value={filters.stage ?? []}
          onChange={(v) => set({ stage: v as TicketStage[] })}
          clearable
        />
      )}
      {catalogFilters.map(({ key, label }) => (
        <MultiSelect
          key={key}
          label={label}
          placeholder="Todos"
          data={asData(catalogs[key])}
          value={((filters[key] ?? []) as number[]).map(String)}
          onChange={(v) => set({ [key]: idsOf(v) })}
          searchable
          clearable
        />
      ))}
      <MultiSelect
        label="Asignado a"
        placeholder="Cualquiera"
        data={[{ value: NONE, label: 'Sin asignar' }, ...asData(people)]}
        value={assignees.map((v) => (v === null ? NONE : String(v)))}
        onChange={(v) => set({ user_assigned_id: v.map((x) => (x === NONE ? null : Number(x))) })}
        searchable
        clearable
      />
      <MultiSelect
        label="Grupo"
        placeholder="Cualquiera"
        data={[{ value: NONE, label: 'Sin grupo' }, ...asData(groups)]}
        value={groupIds.map((v) => (v === null ? NONE : String(v)))}
        onChange={(v) => set({ group_id: v.map((x) => (x === NONE ? null : Number(x))) })}
        searchable
        clearable
      />
      <MultiSelect
        label="Creado por"
        placeholder="Cualquiera"
        data={asData(people)}
        value={((filters.created_by ?? []) as number[]).map(String)}
        onChange={(v) => set({ created_by: idsOf(v) })}
        searchable
        clearable
      />
      <TextInput
        type="date"
        label="Creado desde"
        value={filters.created_from ?? ''}
        max={filters.created_to}
        onChange={(e) => set({ created_from: e.currentTarget.value || undefined })}
      />
      <TextInput
        type="date"
        label="Creado hasta"
        value={filters.created_to ?? ''}
        min={filters.created_from}
        onChange={(e) => set({ created_to: e.currentTarget.value || undefined })}
      />
    </SimpleGrid>
  );
}
