import { describe, expect, it } from 'vitest';
import {
  matchesScreen,
  parseTicketNumber,
  screenCommands,
  shortcutsFor,
  ticketSearchList,
  ticketSearchText,
} from './palette-commands.ts';
import { newTicketListPath } from './new-ticket-list.ts';

const agent = new Set(['tickets', 'record-tickets']);
const admin = new Set(['tickets', 'general-tickets', 'record-tickets', 'areas', 'users', 'routes', 'audit-log']);

describe('screenCommands', () => {
  it('offers only the screens the role may open, as the sidebar does, then the profile', () => {
    expect(screenCommands(agent).map((s) => [s.label, s.group])).toEqual([
      ['Mis Tickets', 'Tickets'],
      ['Historial', 'Tickets'],
      ['Perfil', undefined],
    ]);
  });

  it('keeps the sidebar order and groups for a wider role, never the logout', () => {
    const labels = screenCommands(admin).map((s) => s.label);
    expect(labels).toEqual([
      'Mis Tickets',
      'Tickets Generales',
      'Historial',
      'Áreas',
      'Usuarios',
      'Roles y Permisos',
      'Auditoría',
      'Perfil',
    ]);
    expect(screenCommands(admin).find((s) => s.label === 'Áreas')).toMatchObject({
      path: '/areas',
      group: 'Catálogos',
    });
    expect(labels).not.toContain('Cerrar sesión');
  });

  it('offers just the profile to a role with no routes', () => {
    expect(screenCommands(new Set()).map((s) => s.path)).toEqual(['/users-profile']);
  });
});

describe('matchesScreen', () => {
  const [mine, general, , areas] = screenCommands(admin);

  it('matches word starts of the label or its group, without regard to accents or case', () => {
    expect(matchesScreen(areas!, 'areas')).toBe(true);
    expect(matchesScreen(areas!, 'CAT')).toBe(true);
    expect(matchesScreen(general!, 'tick gen')).toBe(true);
    expect(matchesScreen(mine!, 'tick gen')).toBe(false);
    expect(matchesScreen(mine!, 'ckets')).toBe(false);
    expect(matchesScreen(mine!, '')).toBe(true);
  });
});

describe('parseTicketNumber', () => {
  it('reads a ticket number with or without #', () => {
    expect(parseTicketNumber('123')).toBe(123);
    expect(parseTicketNumber('#123')).toBe(123);
    expect(parseTicketNumber('  # 7 ')).toBe(7);
  });

  it('refuses text, zero, signs, decimals and numbers beyond a ticket id', () => {
    for (const query of ['', '#', 'abc', '12a', 'a12', '0', '#0', '-5', '1.5', '1 2', '2147483648', '99999999999']) {
      expect(parseTicketNumber(query), query).toBeNull();
    }
    expect(parseTicketNumber('2147483647')).toBe(2147483647);
  });

  it('searches the text without the leading #', () => {
    expect(ticketSearchText(' #impresora ')).toBe('impresora');
    expect(ticketSearchText('123')).toBe('123');
  });
});

describe('which list searches and creates tickets', () => {
  it('searches every ticket with Tickets Generales, else Mis Tickets, else nothing', () => {
    expect(ticketSearchList(admin)).toBe('general');
    expect(ticketSearchList(agent)).toBe('mine');
    expect(ticketSearchList(new Set(['areas']))).toBeNull();
  });

  it('creates on the list on screen, else Mis Tickets, else Tickets Generales', () => {
    expect(newTicketListPath('/general-tickets', admin)).toBe('/general-tickets');
    expect(newTicketListPath('/areas', admin)).toBe('/tickets');
    expect(newTicketListPath('/general-tickets', agent)).toBe('/tickets');
    expect(newTicketListPath('/tickets', new Set(['general-tickets']))).toBe('/general-tickets');
    expect(newTicketListPath('/tickets', new Set(['areas']))).toBeNull();
  });
});

describe('shortcutsFor', () => {
  const keys = (list: ReturnType<typeof shortcutsFor>) => list.map((s) => s.keys.join(' '));

  it('lists only the shortcuts the user may use', () => {
    expect(keys(shortcutsFor(admin, { isMac: false, canCreateTicket: true }))).toEqual([
      'Ctrl K',
      'g t',
      'g g',
      'n',
      '/',
    ]);
    expect(keys(shortcutsFor(agent, { isMac: true, canCreateTicket: false }))).toEqual(['⌘ K', 'g t', '/']);
  });
});
