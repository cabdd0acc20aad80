import { SECTIONS, type PermissionFlag, type TicketStage } from '@portal/contract';

/** Route name (path without the slash) → its sections. */
export const routeSections: Record<string, string[]> = {
  tickets: [SECTIONS.tickets],
  'general-tickets': [SECTIONS.generalTickets],
  'record-tickets': [SECTIONS.currentTickets, SECTIONS.oldTickets],
  areas: [SECTIONS.areas],
  categories: [SECTIONS.categories],
  projects: [SECTIONS.projects],
  difficulties: [SECTIONS.difficulties],
  'ticket-statuses': [SECTIONS.ticketStatuses],
  groups: [SECTIONS.groups],
  'priority-types': [SECTIONS.priorityTypes],
  users: [SECTIONS.users],
  routes: [SECTIONS.roles, SECTIONS.routes, SECTIONS.routesPermission, SECTIONS.sections, SECTIONS.sectionsPermission],
  workload: [SECTIONS.workload],
  example: [SECTIONS.example],
  'audit-log': [SECTIONS.auditLog],
  dashboard: [SECTIONS.dashboard],
  'routing-rules': [SECTIONS.routingRules],
  queues: [SECTIONS.queues],
};

const all: PermissionFlag[] = ['r', 'w', 'u', 'd'];
const catalogRoutes = [
  'areas',
  'categories',
  'projects',
  'difficulties',
  'ticket-statuses',
  'groups',
  'priority-types',
];

interface RoleSeed {
  name: string;
  isSupervisor: boolean;
  /** route → flags granted on every section of the route */
  grants: Record<string, PermissionFlag[]>;
}

/** Seeded in this order, so they get ids 1, 2 and 3. */
export const roleSeeds: RoleSeed[] = [
  {
    name: 'Administrador',
    isSupervisor: true,
    grants: Object.fromEntries(Object.keys(routeSections).map((route) => [route, all])),
  },
  {
    name: 'Supervisor',
    isSupervisor: true,
    grants: {
      tickets: all,
      'general-tickets': all,
      'record-tickets': ['r'],
      workload: ['r'],
      dashboard: ['r'],
      users: ['r'],
      'routing-rules': ['r'],
      queues: ['r', 'w'],
      ...Object.fromEntries(catalogRoutes.map((route) => [route, ['r'] as PermissionFlag[]])),
    },
  },
  {
    name: 'Agente',
    isSupervisor: false,
    grants: { tickets: ['r', 'w', 'u'], 'record-tickets': ['r'], queues: ['r', 'w'] },
  },
];

export const ticketStatusSeeds: { name: string; stage: TicketStage }[] = [
  { name: 'Abierto', stage: 'open' },
  { name: 'En progreso', stage: 'started' },
  { name: 'En espera', stage: 'started' },
  { name: 'Resuelto', stage: 'closed' },
  { name: 'Cerrado', stage: 'closed' },
  { name: 'Cancelado', stage: 'closed' },
];

export const demoCatalogs = {
  areas: [
    'Almacén',
    'Transporte',
    'Distribución',
    'Compras',
    'Atención a Clientes',
    'Sistemas',
    'Recursos Humanos',
    'Finanzas',
    'Aduanas',
  ],
  categories: ['Incidencia', 'Solicitud de servicio', 'Mantenimiento', 'Consulta', 'Mejora', 'Reclamación de cliente'],
  projects: [
    'Centro de Distribución Norte',
    'Ruta Bajío',
    'Última Milla',
    'Flota Refrigerada',
    'Portal de Clientes',
    'Cruce Fronterizo',
  ],
  difficulties: ['Baja', 'Media', 'Alta', 'Muy alta'],
  groups: [
    'Soporte Primer Nivel',
    'Soporte Segundo Nivel',
    'Operaciones de Patio',
    'Infraestructura',
    'Control de Inventarios',
  ],
  priority_types: ['Baja', 'Media', 'Alta', 'Urgente'],
} as const;

export interface UserSeed {
  name: string;
  last_name: string;
  second_last_name: string | null;
  username: string;
  email: string;
  role: number;
  area: string;
  branch: string;
  supervisor?: string;
}

export const adminSeed: UserSeed = {
  name: 'Ana',
  last_name: 'Administradora',
  second_last_name: null,
  username: 'admin',
  email: 'admin@portal.local',
  role: 1,
  area: 'Sistemas',
  branch: 'Corporativo',
};

export const DEMO_PASSWORD = 'PortalDemo1';
export const DEMO_ADMIN_PASSWORD = 'PortalAdmin1';

export const demoUserSeeds: UserSeed[] = [
  {
    name: 'Sofía',
    last_name: 'Ramírez',
    second_last_name: 'Ortega',
    username: 'supervisor',
    email: 'supervisor@portal.local',
    role: 2,
    area: 'Almacén',
    branch: 'Monterrey',
  },
  {
    name: 'Diego',
    last_name: 'Hernández',
    second_last_name: 'López',
    username: 'agente',
    email: 'agente@portal.local',
    role: 3,
    area: 'Almacén',
    branch: 'Monterrey',
    supervisor: 'supervisor',
  },
  {
    name: 'Lucía',
    last_name: 'Martínez',
    second_last_name: 'Vega',
    username: 'lmartinez',
    email: 'lucia.martinez@portal.local',
    role: 3,
    area: 'Transporte',
    branch: 'Guadalajara',
    supervisor: 'supervisor',
  },
  {
    name: 'Jorge',
    last_name: 'Castillo',
    second_last_name: 'Núñez',
    username: 'jcastillo',
    email: 'jorge.castillo@portal.local',
    role: 3,
    area: 'Distribución',
    branch: 'Querétaro',
    supervisor: 'supervisor',
  },
  {
    name: 'Mariana',
    last_name: 'Flores',
    second_last_name: null,
    username: 'mflores',
    email: 'mariana.flores@portal.local',
    role: 3,
    area: 'Atención a Clientes',
    branch: 'Monterrey',
    supervisor: 'supervisor',
  },
];
