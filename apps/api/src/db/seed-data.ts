import { SECTIONS, type PermissionFlag, type TicketStage } from '@portal/contract';

/** Route name (path without the slash) → its sections. */
export const routeSections: Record<string, string[]> = {
  tickets: [SECTIONS.tickets],
  'general-tickets': [SECTIONS.generalTickets, SECTIONS.ticketImport],
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
  'business-calendars': [SECTIONS.businessCalendars],
  'sla-policies': [SECTIONS.slaPolicies],
  'routing-rules': [SECTIONS.routingRules],
  queues: [SECTIONS.queues],
  // No screen of its own: its section says who shares saved views (Administrador).
  views: [SECTIONS.savedViews],
  kanban: [SECTIONS.kanban],
  'reference-types': [SECTIONS.referenceTypes],
  'mail-outbox': [SECTIONS.mailOutbox],
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
  'business-calendars',
  'sla-policies',
  'reference-types',
];

interface RoleSeed {
  name: string;
  isSupervisor: boolean;
  /** route → flags granted on every section of the route (but `administratorSections`, unless `isAdministrator`) */
  grants: Record<string, PermissionFlag[]>;
  isAdministrator?: boolean;
}

/** Sections granted to the Administrador role alone, whatever the other roles hold on their route. */
export const administratorSections: readonly string[] = [SECTIONS.ticketImport];

/** Seeded in this order, so they get ids 1, 2 and 3. */
export const roleSeeds: RoleSeed[] = [
  {
    name: 'Administrador',
    isSupervisor: true,
    isAdministrator: true,
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
      kanban: ['r'],
      ...Object.fromEntries(catalogRoutes.map((route) => [route, ['r'] as PermissionFlag[]])),
    },
  },
  {
    name: 'Agente',
    isSupervisor: false,
    grants: { tickets: ['r', 'w', 'u'], 'record-tickets': ['r'], queues: ['r', 'w'], kanban: ['r'] },
  },
];

export const ticketStatusSeeds: { name: string; stage: TicketStage; pauses_sla: number }[] = [
  { name: 'Abierto', stage: 'open', pauses_sla: 0 },
  { name: 'En progreso', stage: 'started', pauses_sla: 0 },
  { name: 'En espera', stage: 'started', pauses_sla: 1 },
  { name: 'Resuelto', stage: 'closed', pauses_sla: 0 },
  { name: 'Cerrado', stage: 'closed', pauses_sla: 0 },
  { name: 'Cancelado', stage: 'closed', pauses_sla: 0 },
];

const weekdays = (from: string, to: string, days: number) =>
  Array.from({ length: 7 }, (_, i) => (i < days ? [{ start: from, end: to }] : []));

/**
 * Mexico's official rest days (Ley Federal del Trabajo, art. 74): 1 January, the first Monday of
 * February, the third Monday of March, 1 May, 16 September, the third Monday of November and
 * 25 December.
 */
const mexicanRestDays = (year: number) => {
  const nthMonday = (month: number, n: number) => {
    const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    const day = 1 + ((8 - first) % 7) + (n - 1) * 7;
    return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  };
  return [
    { date: `${year}-01-01`, name: 'Año Nuevo' },
    { date: nthMonday(2, 1), name: 'Día de la Constitución' },
    { date: nthMonday(3, 3), name: 'Natalicio de Benito Juárez' },
    { date: `${year}-05-01`, name: 'Día del Trabajo' },
    { date: `${year}-09-16`, name: 'Día de la Independencia' },
    { date: nthMonday(11, 3), name: 'Día de la Revolución' },
    { date: `${year}-12-25`, name: 'Navidad' },
  ];
};

/** Seeded on every new database: the organisation's hours and the border sites' (which keep daylight saving time). */
export const businessCalendarSeeds = [
  {
    name: 'Horario corporativo',
    time_zone: 'America/Mexico_City',
    week: weekdays('09:00', '18:00', 5),
    holidays: [...mexicanRestDays(2026), ...mexicanRestDays(2027)],
  },
  { name: 'Frontera', time_zone: 'America/Matamoros', week: weekdays('08:00', '17:00', 6), holidays: [] },
];

/** The demo priorities' policies (on `Horario corporativo`), targets in business minutes. */
export const slaPolicySeeds = [
  { name: 'Urgente', priority: 'Urgente', first_response_minutes: 30, resolution_minutes: 4 * 60 },
  { name: 'Alta', priority: 'Alta', first_response_minutes: 60, resolution_minutes: 8 * 60 },
  { name: 'Media', priority: 'Media', first_response_minutes: 4 * 60, resolution_minutes: 24 * 60 },
  { name: 'Baja', priority: 'Baja', first_response_minutes: 8 * 60, resolution_minutes: 40 * 60 },
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

/** The logistics references a fresh database knows (Referencias). */
export const referenceTypeSeeds = [
  { name: 'Embarque', pattern: 'EMB-\\d{6}', example: 'EMB-004512' },
  { name: 'Pedido', pattern: 'PED-\\d{6}', example: 'PED-000123' },
  { name: 'Guía', pattern: '\\d{10,12}', example: '1234567890' },
  { name: 'Placa', pattern: '[A-Z]{3}-\\d{3}-[A-Z]', example: 'ABC-123-D' },
] as const;
