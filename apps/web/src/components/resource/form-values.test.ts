import { describe, expect, it } from 'vitest';
import { accessTabs } from '@/features/access/access.ts';
import { catalogsByPath } from '@/features/catalogs/catalogs.ts';
import { usersConfig } from '@/features/users/users.ts';
import { cleanInput, fieldsFor, initialValues, toPayload, validateValues } from './form-values.ts';
import type { FormValues } from './types.ts';

const areas = catalogsByPath['/areas']!;
const fieldOf = (fields: typeof areas.fields, name: string) => fields.find((f) => f.name === name)!;
const sectionPermissions = accessTabs.find((t) => t.value === 'sections-permission')!.config;

describe('form values of the generic catalogue', () => {
  it('strips quotes and characters outside the field rule as the user types', () => {
    expect(cleanInput(fieldOf(areas.fields, 'name'), `Almacén' OR "1"=1`)).toBe('Almacén OR ');
    expect(cleanInput(fieldOf(usersConfig.fields, 'email'), 'ana “x”@correo.mx')).toBe('anax@correo.mx');
    expect(cleanInput(fieldOf(usersConfig.fields, 'username'), 'j.pérez_1')).toBe('jpérez1');
    expect(cleanInput(fieldOf(usersConfig.fields, 'password'), 'Clave`2024!')).toBe('Clave2024!');
    const routes = accessTabs.find((t) => t.value === 'routes')!.config;
    expect(cleanInput(fieldOf(routes.fields, 'name'), 'mis-tickets; <script>')).toBe('mis-tickets; script');
  });

  it('starts a new record active and validates it with the contract schema', () => {
    const values = initialValues(areas.fields);
    expect(values).toEqual({ name: '', status_id: '1' });
    expect(validateValues('areas', areas.fields, values, 'create')).toEqual({ name: 'Este campo es obligatorio.' });
    expect(validateValues('areas', areas.fields, { ...values, name: '  Almacén Norte ' }, 'create')).toEqual({});
  });

  it('requires the status and role selects', () => {
    const values = { ...initialValues(usersConfig.fields), status_id: '' };
    const errors = validateValues('users', usersConfig.fields, values, 'create');
    expect(errors.status_id).toBe('Este campo es obligatorio.');
    expect(errors.role_id).toBe('Este campo es obligatorio.');
    expect(errors.password).toBeDefined();
  });

  it('asks for the password only when creating a user', () => {
    expect(fieldsFor(usersConfig.fields, 'edit').map((f) => f.name)).not.toContain('password');
    const record = {
      id: 4,
      name: 'Diego',
      last_name: 'Hernández',
      second_last_name: null,
      username: 'agente',
      email: 'agente@portal.local',
      role_id: 3,
      area_id: 1,
      supervisor_id: null,
      branch: 'Monterrey',
      status_id: 1,
    };
    const values = initialValues(usersConfig.fields, record);
    expect(values).toMatchObject({ role_id: '3', area_id: '1', supervisor_id: '', second_last_name: '' });
    expect(validateValues('users', usersConfig.fields, values, 'edit')).toEqual({});
    expect(toPayload(usersConfig.fields, values, 'edit')).not.toHaveProperty('password');
  });

  it('sends ids as strings, flags as 1/0 and never the fixed section when editing', () => {
    const values = initialValues(sectionPermissions.fields, {
      id: 9,
      section_id: 5,
      role_id: 2,
      r: 1,
      w: '0',
      u: 1,
      d: 0,
      status_id: 1,
    });
    expect(values).toMatchObject({ section_id: '5', r: true, w: false, u: true, d: false });
    expect(toPayload(sectionPermissions.fields, values, 'edit')).toEqual({
      role_id: '2',
      r: 1,
      w: 0,
      u: 1,
      d: 0,
      status_id: '1',
    });
    expect(toPayload(sectionPermissions.fields, values, 'create')).toHaveProperty('section_id', '5');
  });

  it('reports what the contract refuses, e.g. a malformed e-mail', () => {
    const values = {
      ...initialValues(usersConfig.fields),
      name: 'Ana',
      last_name: 'Ruiz',
      username: 'aruiz',
      email: 'ana@',
      password: 'Segura123',
      role_id: '3',
    };
    expect(validateValues('users', usersConfig.fields, values, 'create')).toEqual({
      email: 'El formato del correo es inválido',
    });
  });

  it('sends the week of a calendar and holidays, and keys their errors by path as the API does', () => {
    const calendars = catalogsByPath['/business-calendars']!;
    const values: FormValues = { ...initialValues(calendars.fields), name: 'Turno partido' };
    expect(toPayload(calendars.fields, values, 'create')).toMatchObject({
      time_zone: 'America/Mexico_City',
      holidays: [],
      week: [[{ start: '09:00', end: '18:00' }], ...Array(4).fill([{ start: '09:00', end: '18:00' }]), [], []],
    });
    expect(validateValues('business-calendars', calendars.fields, values, 'create')).toEqual({});
    const week = initialValues(calendars.fields).week as unknown[][];
    const split = [
      { start: '09:00', end: '14:00' },
      { start: '13:00', end: '18:00' },
    ];
    const bad = { ...values, week: [split, [{ start: '18:00', end: '09:00' }], ...week.slice(2)] };
    expect(validateValues('business-calendars', calendars.fields, bad, 'create')).toEqual({
      'week.0': 'Los horarios de un mismo día no pueden traslaparse.',
      'week.1': 'La hora de fin debe ser posterior a la hora de inicio.',
    });
    const closed = { ...values, week: Array(7).fill([]), holidays: [{ date: '1999-12-31', name: 'Fin' }] };
    expect(validateValues('business-calendars', calendars.fields, closed, 'create')).toEqual({
      week: 'El calendario debe tener al menos un día laborable.',
      'holidays.0.date': 'El día festivo debe ser una fecha válida (AAAA-MM-DD) entre 2000 y 2100.',
    });
  });

  it('sends the targets of an SLA policy as minutes, typed as hours and minutes', () => {
    const policies = catalogsByPath['/sla-policies']!;
    const values = {
      ...initialValues(policies.fields),
      name: 'Urgente',
      priority_type_id: '4',
      calendar_id: '1',
      first_response_minutes: { hours: '1', minutes: '30' },
      resolution_minutes: { hours: '8', minutes: '' },
    };
    expect(toPayload(policies.fields, values, 'create')).toMatchObject({
      area_id: null,
      first_response_minutes: 90,
      resolution_minutes: 480,
    });
    expect(validateValues('sla-policies', policies.fields, values, 'create')).toEqual({});
    const zero = { ...values, first_response_minutes: { hours: '0', minutes: '0' } };
    expect(validateValues('sla-policies', policies.fields, zero, 'create')).toEqual({
      first_response_minutes: 'El objetivo debe ser de al menos 1 minuto.',
    });
    const edited = initialValues(policies.fields, { resolution_minutes: 135, priority_type_id: 4 });
    expect(edited.resolution_minutes).toEqual({ hours: '2', minutes: '15' });
  });
});
