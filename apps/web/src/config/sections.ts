import { SECTIONS, type SectionName } from '@portal/contract';

/**
 * Readable Spanish names of the permission sections (their codes, such as
 * `pt_main`, are identifiers, not words for a person). Keyed by every section
 * of the contract, so a new section cannot be added without its name; a
 * section created later through the Secciones screen shows its code.
 */
const sectionLabels: Record<SectionName, string> = {
  [SECTIONS.tickets]: 'Mis Tickets',
  [SECTIONS.generalTickets]: 'Tickets Generales',
  [SECTIONS.ticketImport]: 'Tickets Generales: Importar CSV',
  [SECTIONS.currentTickets]: 'Historial: Tickets Actuales',
  [SECTIONS.oldTickets]: 'Historial: Tickets Antiguos',
  [SECTIONS.areas]: 'Áreas',
  [SECTIONS.categories]: 'Categorías',
  [SECTIONS.projects]: 'Proyectos',
  [SECTIONS.difficulties]: 'Dificultades',
  [SECTIONS.ticketStatuses]: 'Estados de Ticket',
  [SECTIONS.groups]: 'Grupos',
  [SECTIONS.priorityTypes]: 'Prioridades',
  [SECTIONS.users]: 'Usuarios',
  [SECTIONS.roles]: 'Roles',
  [SECTIONS.routes]: 'Rutas',
  [SECTIONS.routesPermission]: 'Permisos de Rutas',
  [SECTIONS.sections]: 'Secciones',
  [SECTIONS.sectionsPermission]: 'Permisos de Secciones',
  [SECTIONS.workload]: 'Carga de trabajo',
  [SECTIONS.example]: 'Componentes',
  [SECTIONS.auditLog]: 'Auditoría',
  [SECTIONS.dashboard]: 'Tablero',
  [SECTIONS.businessCalendars]: 'Calendarios laborales',
  [SECTIONS.slaPolicies]: 'Acuerdos de servicio',
  [SECTIONS.routingRules]: 'Reglas de asignación',
  [SECTIONS.queues]: 'Colas',
  [SECTIONS.savedViews]: 'Vistas guardadas',
  [SECTIONS.kanban]: 'Kanban',
  [SECTIONS.referenceTypes]: 'Referencias',
  [SECTIONS.mailOutbox]: 'Correo',
};

const isKnownSection = (code: string): code is SectionName => Object.hasOwn(sectionLabels, code);

export const sectionLabel = (code: string) => (isKnownSection(code) ? sectionLabels[code] : code);
