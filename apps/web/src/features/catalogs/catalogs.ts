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
    columns: [nameColumn, { header: 'Etapa', render: (r) => stageLabels[r.stage] }],
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
  [paths.referenceTypes]: defineResource({
    resource: 'reference-types',
    section: SECTIONS.referenceTypes,
    title: 'Referencias',
    singular: 'referencia',
    modalSize: 'lg',
    columns: [
      nameColumn,
      { header: 'Patrón', render: (r) => r.pattern },
      { header: 'Ejemplo', render: (r) => r.example },
      {
        header: 'Extracción',
        // The background re-extraction after a change of pattern.
        render: (r) =>
          r.reextract_total === null
            ? 'Al día'
            : `Reextrayendo: ${Math.min(r.reextract_done ?? 0, r.reextract_total)} de ${r.reextract_total} tickets`,
      },
    ],
    fields: [
      nameField,
      {
        kind: 'text',
        name: 'pattern',
        label: 'Patrón',
        rule: 'pattern',
        required: true,
        maxLength: 200,
        placeholder: 'EMB-\\d{6}',
      },
      { kind: 'text', name: 'example', label: 'Ejemplo', rule: 'safeText', required: true, maxLength: 100 },
      statusField,
    ],
    isRunning: (r) => r.reextract_total !== null,
  }),
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
