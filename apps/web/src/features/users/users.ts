import { SECTIONS } from '@portal/contract';
import { defineResource, statusField } from '@/components/resource/types.ts';

/** /users: the large modal; the password only when creating. */
export const usersConfig = defineResource({
  resource: 'users',
  section: SECTIONS.users,
  title: 'Usuarios',
  singular: 'usuario',
  modalSize: 'xl',
  formColumns: 2,
  columns: [
    { header: 'Nombre', render: (u) => u.name },
    { header: 'Apellido', render: (u) => u.last_name },
    { header: 'Segundo Apellido', render: (u) => u.second_last_name ?? '' },
    { header: 'Usuario', render: (u) => u.username },
    { header: 'Correo', render: (u) => u.email },
    { header: 'Rol', render: (u) => u.role?.name ?? '' },
  ],
  fields: [
    { kind: 'text', name: 'name', label: 'Nombre', rule: 'onlyLetters', required: true, maxLength: 80 },
    { kind: 'text', name: 'last_name', label: 'Apellido', rule: 'onlyLetters', required: true, maxLength: 80 },
    { kind: 'text', name: 'second_last_name', label: 'Segundo Apellido', rule: 'onlyLetters', maxLength: 80 },
    { kind: 'text', name: 'username', label: 'Usuario', rule: 'alphanumeric', required: true, maxLength: 50 },
    { kind: 'text', name: 'email', label: 'Correo', rule: 'email', inputType: 'email', required: true, maxLength: 120 },
    {
      kind: 'text',
      name: 'password',
      label: 'Contraseña',
      rule: 'textWithSymbols',
      inputType: 'password',
      required: true,
      createOnly: true,
      maxLength: 128,
    },
    { kind: 'select', name: 'role_id', label: 'Rol', source: 'roles', required: true },
    { kind: 'select', name: 'area_id', label: 'Área', source: 'areas' },
    // Only users of a privileged role (is_supervisor) can supervise.
    { kind: 'select', name: 'supervisor_id', label: 'Supervisor', source: 'supervisors' },
    { kind: 'text', name: 'branch', label: 'Sucursal', rule: 'alphanumeric', maxLength: 80 },
    statusField,
  ],
});
