import { Badge, Button, CloseButton, Collapse, Group } from '@mantine/core';
import { SLA_STATE_LABELS, type TicketStage, type TOption, type TTicketFiltersInput } from '@portal/contract';
import { IconAlarm, IconFilter, IconFilterOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { optionsQuery } from '@/lib/resource-api.ts';
import { peopleOptionsQuery } from '../api/tickets-api.ts';
import { activeFilterCount, catalogFilters, optionalIdsOf, stageLabels } from '../ticket-list-url.ts';
import type { CatalogOptions } from './ticket-filter-fields.tsx';

// The panel's ten fields (multi-selects and their option lists) load when it first opens, not with the list.
const loadFields = () => import('./ticket-filter-fields.tsx');
const TicketFilterFields = lazy(loadFields);

/** A change of the filters, applied to them as they are when it is written. */
export type TicketFiltersChange = (current: TTicketFiltersInput) => TTicketFiltersInput;

interface TicketFiltersProps {
  filters: TTicketFiltersInput;
  /**
   * Writes a change. The list's address may be ahead of the `filters` rendered (a pick written,
   * not rendered yet): the change applies to the address's, so two picks close together keep both.
   */
  onChange: (change: TicketFiltersChange) => void;
  /** The stages this list can show (a history tab shows some only); one or none hides the stage filter. */
  stages: readonly TicketStage[];
}

/**
 * The filters of a ticket list: a 'Filtros' panel (stage, status, priority, project,
 * area, category, difficulty, assignee with 'Sin asignar', group with 'Sin grupo', creator, created between),
 * the active ones as removable chips, and 'Limpiar filtros'.
 */
/** The quick filter 'Por vencer o vencidos'. */
const DUE_STATES = ['at_risk', 'breached'] as const;

export function TicketFilters({ filters, onChange, stages }: TicketFiltersProps) {
  const [isOpen, setOpen] = useState(false);
  const [hasOpened, setHasOpened] = useState(false);
  const catalogs: CatalogOptions = {
    status_id: useQuery(optionsQuery('ticket-statuses')).data ?? [],
    priority_type_id: useQuery(optionsQuery('priority-types')).data ?? [],
    project_id: useQuery(optionsQuery('projects')).data ?? [],
    area_id: useQuery(optionsQuery('areas')).data ?? [],
    category_id: useQuery(optionsQuery('categories')).data ?? [],
    difficulty_id: useQuery(optionsQuery('difficulties')).data ?? [],
  };
  const people = useQuery(peopleOptionsQuery()).data ?? [];
  const groups = useQuery(optionsQuery('groups')).data ?? [];
  const count = activeFilterCount(filters);

  const set = (patch: Partial<TTicketFiltersInput>) =>
    onChange((current) => {
      const next = { ...current, ...patch } as Record<string, unknown>;
      for (const [k, v] of Object.entries(next)) {
        if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) delete next[k];
      }
      return next as TTicketFiltersInput;
    });
  const assignees = optionalIdsOf(filters.user_assigned_id);
  const groupIds = optionalIdsOf(filters.group_id);

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
      key: `assignee-${id ?? 'none'}`,
      label: id === null ? 'Sin asignar' : `Asignado a: ${nameIn(people, id as number)}`,
      remove: () => set({ user_assigned_id: assignees.filter((v) => v !== id) }),
    });
  }
  for (const id of groupIds) {
    chips.push({
      key: `group-${id ?? 'none'}`,
      label: id === null ? 'Sin grupo' : `Grupo: ${nameIn(groups, id as number)}`,
      remove: () => set({ group_id: groupIds.filter((v) => v !== id) }),
    });
  }
  for (const id of (filters.created_by ?? []) as number[]) {
    chips.push({
      key: `creator-${id}`,
      label: `Creado por: ${nameIn(people, id)}`,
      remove: () => set({ created_by: (filters.created_by as number[]).filter((v) => v !== id) }),
    });
  }
  for (const state of filters.sla_state ?? []) {
    chips.push({
      key: `sla-${state}`,
      label: `SLA: ${SLA_STATE_LABELS[state]}`,
      remove: () => set({ sla_state: filters.sla_state!.filter((s) => s !== state) }),
    });
  }
  const isDueQuick =
    filters.sla_state?.length === DUE_STATES.length && DUE_STATES.every((s) => filters.sla_state!.includes(s));
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
          onPointerEnter={() => void loadFields().catch(() => undefined)}
          onClick={() => {
            setHasOpened(true);
            setOpen((o) => !o);
          }}
          aria-expanded={isOpen}
        >
          Filtros
        </Button>
        <Button
          variant={isDueQuick ? 'light' : 'default'}
          size="sm"
          color={isDueQuick ? 'orange' : undefined}
          leftSection={<IconAlarm size={16} />}
          aria-pressed={isDueQuick}
          onClick={() => set({ sla_state: isDueQuick ? undefined : [...DUE_STATES] })}
        >
          Por vencer o vencidos
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
              onClick={() => onChange(() => ({}))}
            >
              Limpiar filtros
            </Button>
          </Group>
        )}
      </Group>
      <Collapse expanded={isOpen}>
        {hasOpened && (
          <Suspense fallback={null}>
            <TicketFilterFields
              filters={filters}
              onPatch={set}
              stages={stages}
              catalogs={catalogs}
              people={people}
              assignees={assignees}
              groups={groups}
              groupIds={groupIds}
            />
          </Suspense>
        )}
      </Collapse>
    </>
  );
}
