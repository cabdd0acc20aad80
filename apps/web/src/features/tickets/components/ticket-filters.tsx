import { Badge, Button, CloseButton, Collapse, Group, MultiSelect, SimpleGrid, TextInput } from '@mantine/core';
import type { TicketStage, TOption, TTicketFiltersInput } from '@portal/contract';
import { IconFilter, IconFilterOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { optionsQuery } from '@/lib/resource-api.ts';
import { peopleOptionsQuery } from '../api/tickets-api.ts';
import { activeFilterCount, catalogFilters } from '../ticket-list-url.ts';

export const stageLabels: Record<TicketStage, string> = { open: 'Abierto', started: 'En progreso', closed: 'Cerrado' };

const UNASSIGNED = 'none';

interface TicketFiltersProps {
  filters: TTicketFiltersInput;
  onChange: (filters: TTicketFiltersInput) => void;
  /** The stages this list can show (a history tab shows some only); one or none hides the stage filter. */
  stages: readonly TicketStage[];
}

const asData = (options: TOption[]) => options.map((o) => ({ value: String(o.id), label: o.name }));

/**
 * The filters of a ticket list: a 'Filtros' panel (stage, status, priority, project,
 * area, category, difficulty, assignee with 'Sin asignar', creator, created between),
 * the active ones as removable chips, and 'Limpiar filtros'.
 */
export function TicketFilters({ filters, onChange, stages }: TicketFiltersProps) {
  const [isOpen, setOpen] = useState(false);
  const catalogs = {
    status_id: useQuery(optionsQuery('ticket-statuses')).data ?? [],
    priority_type_id: useQuery(optionsQuery('priority-types')).data ?? [],
    project_id: useQuery(optionsQuery('projects')).data ?? [],
    area_id: useQuery(optionsQuery('areas')).data ?? [],
    category_id: useQuery(optionsQuery('categories')).data ?? [],
    difficulty_id: useQuery(optionsQuery('difficulties')).data ?? [],
  };
  const people = useQuery(peopleOptionsQuery()).data ?? [];
  const count = activeFilterCount(filters);

  const set = (patch: Partial<TTicketFiltersInput>) => {
    const next = { ...filters, ...patch } as Record<string, unknown>;
    for (const [k, v] of Object.entries(next)) {
      if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) delete next[k];
    }
    onChange(next as TTicketFiltersInput);
  };
  const idsOf = (values: string[]) => values.map(Number);
  const assignees = Array.isArray(filters.user_assigned_id)
    ? filters.user_assigned_id
    : filters.user_assigned_id === null
      ? [null]
      : [];

  const nameIn = (options: TOption[], id: number) => options.find((o) => o.id === id)?.name ?? `#${id}`;
  const chips: { key: string; label: string; remove: () => void }[] = [];
  for (const stage of filters.stage ?? []) {
    chips.push({
      key: `stage-${stage}`,
      label: `Etapa: ${stageLabels[stage]}`,
      remove: () => set({ stage: filters.stage!.filter((s) => s !== stage) }),
    });
  }
  for (const { key, label } of catalogFilters) {
    for (const id of (filters[key] ?? []) as number[]) {
      chips.push({
        key: `${key}-${id}`,
        label: `${label}: ${nameIn(catalogs[key], id)}`,
        remove: () => set({ [key]: (filters[key] as number[]).filter((v) => v !== id) }),
      });
    }
  }
  for (const id of assignees) {
    chips.push({
      key: `assignee-${id ?? UNASSIGNED}`,
      label: id === null ? 'Sin asignar' : `Asignado a: ${nameIn(people, id as number)}`,
      remove: () => set({ user_assigned_id: assignees.filter((v) => v !== id) }),
    });
  }
  for (const id of (filters.created_by ?? []) as number[]) {
    chips.push({
      key: `creator-${id}`,
      label: `Creado por: ${nameIn(people, id)}`,
      remove: () => set({ created_by: (filters.created_by as number[]).filter((v) => v !== id) }),
    });
  }
  if (filters.created_from) {
    chips.push({
      key: 'from',
      label: `Desde: ${filters.created_from}`,
      remove: () => set({ created_from: undefined }),
    });
  }
  if (filters.created_to) {
    chips.push({ key: 'to', label: `Hasta: ${filters.created_to}`, remove: () => set({ created_to: undefined }) });
  }

  return (
    <>
      <Group gap="xs" wrap="wrap">
        <Button
          variant={isOpen ? 'light' : 'default'}
          size="sm"
          leftSection={<IconFilter size={16} />}
          rightSection={
            count > 0 ? (
              <Badge size="sm" circle>
                {count}
              </Badge>
            ) : undefined
          }
          onClick={() => setOpen((o) => !o)}
          aria-expanded={isOpen}
        >
          Filtros
        </Button>
        {chips.length > 0 && (
          <Group gap={6} wrap="wrap" role="list" aria-label="Filtros activos">
            {chips.map((chip) => (
              <Badge
                key={chip.key}
                role="listitem"
                variant="light"
                color="gray"
                size="lg"
                radius="xl"
                tt="none"
                fw={500}
                c="dark"
                rightSection={
                  <CloseButton size="xs" aria-label={`Quitar filtro ${chip.label}`} onClick={chip.remove} />
                }
              >
                {chip.label}
              </Badge>
            ))}
            <Button
              size="compact-sm"
              variant="subtle"
              color="gray"
              leftSection={<IconFilterOff size={14} />}
              onClick={() => onChange({})}
            >
              Limpiar filtros
            </Button>
          </Group>
        )}
      </Group>
      <Collapse expanded={isOpen}>
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
            data={[{ value: UNASSIGNED, label: 'Sin asignar' }, ...asData(people)]}
            value={assignees.map((v) => (v === null ? UNASSIGNED : String(v)))}
            onChange={(v) => set({ user_assigned_id: v.map((x) => (x === UNASSIGNED ? null : Number(x))) })}
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
      </Collapse>
    </>
  );
}
