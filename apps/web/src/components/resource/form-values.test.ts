import { describe, expect, it } from 'vitest';
import { accessTabs } from '@/features/access/access.ts';
import { catalogsByPath } from '@/features/catalogs/catalogs.ts';
import { usersConfig } from '@/features/users/users.ts';
import { cleanInput, fieldsFor, initialValues, toPayload, validateValues } from './form-values.ts';

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
});
