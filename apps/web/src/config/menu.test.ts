import { describe, expect, it } from 'vitest';
import { entryForPath, filterMenu, logoutItem, menu } from './menu.ts';

const names = (items: ReturnType<typeof filterMenu>) =>
  items.map((i) => [i.name, (i.submenu ?? []).map((c) => c.name)]);

describe('menu', () => {
  it('keeps only the routes the role may open and drops empty groups', () => {
    const agent = filterMenu(menu, new Set(['tickets', 'record-tickets']));
    expect(names(agent)).toEqual([['Tickets', ['Mis Tickets', 'Historial']]]);
    expect(filterMenu([logoutItem], new Set())).toEqual([logoutItem]);
  });

  it('has the four groups with the seven catalogues, the references, the routing rules and the SLA ones, then the showcase', () => {
    expect(menu.filter((g) => g.submenu).map((g) => g.name)).toEqual(['Tickets', 'Catálogos', 'Accesos', 'Reportes']);
    expect(menu.at(-1)).toMatchObject({ name: 'Componentes', path: '/example' });
    expect(menu[1]!.submenu).toHaveLength(11);
    expect(menu[1]!.submenu!.slice(-4)).toMatchObject([
      { name: 'Referencias', path: '/reference-types' },
      { name: 'Reglas de asignación', path: '/routing-rules' },
      { name: 'Calendarios laborales', path: '/business-calendars' },
      { name: 'Acuerdos de servicio', path: '/sla-policies' },
    ]);
    expect(menu[0]!.submenu!.map((i) => i.name)).toContain('Colas');
    expect(menu[0]!.submenu!.at(-1)).toMatchObject({ name: 'Kanban', path: '/kanban' });
  });

  it('names the current page after its menu entry', () => {
    expect(entryForPath('/routes').name).toBe('Roles y Permisos');
    expect(entryForPath('/users-profile').name).toBe('Perfil');
    expect(entryForPath('/nada').name).toBe('Página no encontrada');
  });

  it('names a ticket page after its ticket, not after Mis Tickets', () => {
    expect(entryForPath('/tickets/123').name).toBe('Ticket #123');
    expect(entryForPath('/tickets/123/').name).toBe('Ticket #123');
    expect(entryForPath('/tickets').name).toBe('Mis Tickets');
  });
});
