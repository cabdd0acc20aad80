import { ASSIGNMENT_MODE_LABELS, SECTIONS, type TicketStage } from '@portal/contract';
import {
  defineResource,
  statusField,
  type CustomField,
  type ResourceConfig,
  type TextField,
} from '@/components/resource/types.ts';
import { createElement } from 'react';
import { paths } from '@/config/paths.ts';
import { GroupMembersTab } from './components/group-members-tab.tsx';
import {
  DEFAULT_TIME_ZONE,
  defaultWeek,
  joinMinutes,
  splitMinutes,
  targetText,
  timeZoneOptions,
  workingDaysText,
  type HoursMinutes,
} from './sla/sla-format.ts';
import { HolidaysEditor } from './sla/holidays-editor.tsx';
import { TargetInput } from './sla/target-input.tsx';
import { WeekEditor } from './sla/week-editor.tsx';

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

/** A target in business minutes, typed as hours and minutes. */
const targetField = (name: string, label: string): CustomField => ({
  kind: 'custom',
  name,
  label,
  initial: splitMinutes,
  toPayload: (value) => joinMinutes(value as HoursMinutes),
  render: (props) => createElement(TargetInput, props),
});

/** The catalogues by path: one generic screen, configured. */
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
      { header: 'Pausa SLA', render: (r) => (r.pauses_sla === 1 ? 'Sí' : 'No') },
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
      { kind: 'checkbox', name: 'pauses_sla', label: 'Pausa el SLA (el reloj se detiene en este estado)' },
      // Empty: no limit; over it the Kanban column shows its count in a warning colour.
      { kind: 'text', name: 'wip_limit', label: 'Límite WIP (Kanban)', rule: 'onlyNumbers', maxLength: 5 },
      statusField,
    ],
  }),
  [paths.groups]: defineResource({
    resource: 'groups',
    section: SECTIONS.groups,
    title: 'Grupos',
    singular: 'grupo',
    columns: [
      nameColumn,
      { header: 'Asignación', render: (r) => ASSIGNMENT_MODE_LABELS[r.assignment_mode] },
      { header: 'Tope por agente', render: (r) => (r.assignment_cap === null ? 'Sin tope' : String(r.assignment_cap)) },
    ],
    fields: [
      nameField,
      {
        kind: 'select',
        name: 'assignment_mode',
        label: 'Asignación automática',
        required: true,
        defaultValue: 'manual',
        source: Object.entries(ASSIGNMENT_MODE_LABELS).map(([value, label]) => ({ value, label })),
      },
      {
        kind: 'text',
        name: 'assignment_cap',
        label: 'Tope de tickets abiertos por agente (opcional)',
        rule: 'onlyNumbers',
        maxLength: 5,
        placeholder: 'Sin tope',
      },
      statusField,
    ],
    modalSize: 'lg',
    editTabs: [
      { value: 'members', label: 'Miembros', render: (group) => createElement(GroupMembersTab, { groupId: group.id }) },
    ],
  }),
  [paths.priorityTypes]: simple('priority-types', SECTIONS.priorityTypes, 'Prioridades', 'prioridad'),
  [paths.businessCalendars]: defineResource({
    resource: 'business-calendars',
    section: SECTIONS.businessCalendars,
    title: 'Calendarios laborales',
    singular: 'calendario laboral',
    modalSize: 'xl',
    columns: [
      nameColumn,
      { header: 'Zona horaria', render: (r) => r.time_zone },
      { header: 'Días laborables', render: (r) => workingDaysText(r.week) },
      { header: 'Días festivos', render: (r) => r.holidays.length },
    ],
    fields: [
      { ...nameField, rule: 'alphanumeric' },
      {
        kind: 'select',
        name: 'time_zone',
        label: 'Zona horaria',
        required: true,
        defaultValue: DEFAULT_TIME_ZONE,
        source: timeZoneOptions(),
      },
      {
        kind: 'custom',
        name: 'week',
        label: 'Horario laboral',
        initial: (week) => (Array.isArray(week) ? week : defaultWeek()),
        toPayload: (week) => week,
        render: (props) => createElement(WeekEditor, props),
      },
      {
        kind: 'custom',
        name: 'holidays',
        label: 'Días festivos',
        initial: (holidays) => (Array.isArray(holidays) ? holidays : []),
        toPayload: (holidays) => holidays,
        render: (props) => createElement(HolidaysEditor, props),
      },
      statusField,
    ],
  }),
  [paths.slaPolicies]: defineResource({
    resource: 'sla-policies',
    section: SECTIONS.slaPolicies,
    title: 'Acuerdos de servicio',
    singular: 'acuerdo de servicio',
    modalSize: 'lg',
    formColumns: 2,
    columns: [
      nameColumn,
      { header: 'Prioridad', render: (r) => r.priority_type?.name ?? '' },
      { header: 'Área', render: (r) => r.area?.name ?? ANY },
      { header: 'Calendario', render: (r) => r.calendar?.name ?? '' },
      { header: 'Primera respuesta', render: (r) => targetText(r.first_response_minutes) },
      { header: 'Resolución', render: (r) => targetText(r.resolution_minutes) },
    ],
    fields: [
      { ...nameField, rule: 'alphanumeric' },
      { kind: 'select', name: 'priority_type_id', label: 'Prioridad', source: 'priority-types', required: true },
      // No area: the policy applies to any area (one with the ticket's area wins over it).
      { kind: 'select', name: 'area_id', label: 'Área', source: 'areas', noneLabel: ANY },
      { kind: 'select', name: 'calendar_id', label: 'Calendario', source: 'business-calendars', required: true },
      targetField('first_response_minutes', 'Primera respuesta (tiempo hábil)'),
      targetField('resolution_minutes', 'Resolución (tiempo hábil)'),
      statusField,
    ],
  }),
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
