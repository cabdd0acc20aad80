import { SECTIONS, type TicketStage } from '@portal/contract';
import { defineResource, statusField, type ResourceConfig, type TextField } from '@/components/resource/types.ts';
import { createElement } from 'react';
import { paths } from '@/config/paths.ts';
import { GroupMembersTab } from './components/group-members-tab.tsx';

/** Catalogue names keep only letters (with accents) and spaces. */
const nameField: TextField = {
  kind: 'text',
  name: 'name',
  label: 'Nombre',
  rule: 'onlyLetters',
  required: true,
  maxLength: 100,
};
const nameColumn = { header: 'Nombre', render: (r: { name: string }) => r.name };

/** A routing rule's condition left empty. */
const ANY = 'Cualquiera';

export const stageLabels: Record<TicketStage, string> = { open: 'Abierto', started: 'En curso', closed: 'Cerrado' };

const simple = (
  resource: ResourceConfig['resource'],
  section: ResourceConfig['section'],
  title: string,
  singular: string,
) =>
  defineResource({
    resource: resource as 'areas',
    section,
    title,
    singular,
    columns: [nameColumn],
    fields: [nameField, statusField],
  });

/** The seven catalogues by path: one generic screen, configured. */
export const catalogsByPath: Record<string, ResourceConfig> = {
  [paths.areas]: simple('areas', SECTIONS.areas, 'Áreas', 'área'),
  [paths.categories]: simple('categories', SECTIONS.categories, 'Categorías', 'categoría'),
  [paths.projects]: simple('projects', SECTIONS.projects, 'Proyectos', 'proyecto'),
  // Titled 'Dificultades', the catalogue it lists.
  [paths.difficulties]: simple('difficulties', SECTIONS.difficulties, 'Dificultades', 'dificultad'),
  [paths.ticketStatuses]: defineResource({
    resource: 'ticket-statuses',
    section: SECTIONS.ticketStatuses,
    title: 'Estados de Ticket',
    singular: 'estado de ticket',
    columns: [
      nameColumn,
      { header: 'Etapa', render: (r) => stageLabels[r.stage] },
      { header: 'Límite WIP', render: (r) => r.wip_limit ?? '—', isCompact: true },
    ],
    fields: [
      nameField,
      {
        kind: 'select',
        name: 'stage',
        label: 'Etapa',
        required: true,
        defaultValue: 'open',
        source: Object.entries(stageLabels).map(([value, label]) => ({ value, label })),
      },
      // Empty: no limit; over it the Kanban column shows its count in a warning colour.
      { kind: 'text', name: 'wip_limit', label: 'Límite WIP (Kanban)', rule: 'onlyNumbers', maxLength: 5 },
      statusField,
    ],
  }),
  [paths.groups]: defineResource({
    ...simple('groups', SECTIONS.groups, 'Grupos', 'grupo'),
    modalSize: 'lg',
    editTabs: [
      { value: 'members', label: 'Miembros', render: (group) => createElement(GroupMembersTab, { groupId: group.id }) },
    ],
  }),
  [paths.priorityTypes]: simple('priority-types', SECTIONS.priorityTypes, 'Prioridades', 'prioridad'),
  [paths.routingRules]: defineResource({
    resource: 'routing-rules',
    section: SECTIONS.routingRules,
    title: 'Reglas de asignación',
    singular: 'regla de asignación',
    isOrdered: true,
    modalSize: 'lg',
    formColumns: 2,
    columns: [
      nameColumn,
      { header: 'Área', render: (r) => r.area?.name ?? ANY },
      { header: 'Categoría', render: (r) => r.category?.name ?? ANY },
      { header: 'Proyecto', render: (r) => r.project?.name ?? ANY },
      { header: 'Prioridad', render: (r) => r.priority?.name ?? ANY },
      { header: 'Grupo', render: (r) => r.group?.name ?? '' },
    ],
    fields: [
      { ...nameField, rule: 'alphanumeric' },
      { kind: 'select', name: 'group_id', label: 'Grupo', source: 'groups', required: true },
      { kind: 'select', name: 'area_id', label: 'Área', source: 'areas', noneLabel: ANY },
      { kind: 'select', name: 'category_id', label: 'Categoría', source: 'categories', noneLabel: ANY },
      { kind: 'select', name: 'project_id', label: 'Proyecto', source: 'projects', noneLabel: ANY },
      { kind: 'select', name: 'priority_type_id', label: 'Prioridad', source: 'priority-types', noneLabel: ANY },
      statusField,
    ],
  }),
};
