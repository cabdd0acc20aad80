/**
 * Readable Spanish names of the permission sections (their codes, such as
 * `pt_main`, are identifiers, not words for a person). A section without an
 * entry here shows its code.
 */
const sectionLabels: Record<string, string> = {
  tickets_main: 'Mis Tickets',
  gt_main: 'Tickets Generales',
  current_tickets: 'Historial: Tickets Actuales',
  old_tickets: 'Historial: Tickets Antiguos',
  ar_main: 'Áreas',
  ca_main: 'Categorías',
  pro_main: 'Proyectos',
  dif_main: 'Dificultades',
  ts_main: 'Estados de Ticket',
  gr_main: 'Grupos',
  pt_main: 'Prioridades',
  us_main: 'Usuarios',
  rol_main: 'Roles',
  ro_main: 'Rutas',
  rop_main: 'Permisos de Rutas',
  se_main: 'Secciones',
  sepe_main: 'Permisos de Secciones',
  wl_main: 'Carga de trabajo',
  db_main: 'Tablero',
  au_main: 'Auditoría',
};

export const sectionLabel = (code: string) => sectionLabels[code] ?? code;
