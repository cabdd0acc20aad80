import { SECTIONS } from '@portal/contract';
import { createElement } from 'react';
import { defineResource, statusField, type ResourceConfig } from '@/components/resource/types.ts';
import { FlagMark } from '@/components/ui/status-badge.tsx';
import { sectionLabel } from '@/config/sections.ts';

const flag = (name: 'r' | 'w' | 'u' | 'd', header: string) => ({
  header,
  isCompact: true,
  render: (p: Record<'r' | 'w' | 'u' | 'd', number>) => createElement(FlagMark, { value: p[name] }),
});

export interface AccessTab {
  value: string;
  label: string;
  config: ResourceConfig;
}

/** The five tabs of /routes 'Roles y Permisos', in order. */
export const accessTabs: AccessTab[] = [
  {
    value: 'roles',
    label: 'Roles',
    config: defineResource({
      resource: 'roles',
      section: SECTIONS.roles,
      title: 'Roles',
      singular: 'rol',
      columns: [
        { header: 'Nombre', render: (r) => r.name },
        { header: 'Supervisor', isCompact: true, render: (r) => createElement(FlagMark, { value: r.is_supervisor }) },
      ],
      fields: [
        { kind: 'text', name: 'name', label: 'Nombre', rule: 'onlyLetters', required: true, maxLength: 100 },
        { kind: 'checkbox', name: 'is_supervisor', label: 'Rol de supervisor (ve y asigna los tickets de su equipo)' },
        statusField,
      ],
    }),
  },
  {
    value: 'routes',
    label: 'Rutas',
    config: defineResource({
      resource: 'routes',
      section: SECTIONS.routes,
      title: 'Rutas',
      singular: 'ruta',
      columns: [{ header: 'Nombre', render: (r) => r.name }],
      fields: [
        { kind: 'text', name: 'name', label: 'Nombre', rule: 'safeText', required: true, maxLength: 100 },
        statusField,
      ],
    }),
  },
  {
    value: 'routes-permission',
    label: 'Permisos de Rutas',
    config: defineResource({
      resource: 'routes-permission',
      section: SECTIONS.routesPermission,
      title: 'Permisos de Rutas',
      singular: 'permiso de ruta',
      columns: [
        { header: 'Ruta', render: (p) => p.route?.name ?? '' },
        { header: 'Rol', render: (p) => p.role?.name ?? '' },
      ],
      fields: [
        { kind: 'select', name: 'route_id', label: 'Ruta', source: 'routes', required: true },
        { kind: 'select', name: 'role_id', label: 'Rol', source: 'roles', required: true },
        statusField,
      ],
    }),
  },
  {
    value: 'sections',
    label: 'Secciones',
    config: defineResource({
      resource: 'sections',
      section: SECTIONS.sections,
      title: 'Secciones',
      singular: 'sección',
      columns: [
        { header: 'Nombre', render: (s) => s.name },
        { header: 'Descripción', render: (s) => sectionLabel(s.name) },
        { header: 'Ruta', render: (s) => s.route?.name ?? '' },
      ],
      fields: [
        { kind: 'text', name: 'name', label: 'Nombre', rule: 'safeText', required: true, maxLength: 100 },
        { kind: 'select', name: 'route_id', label: 'Ruta', source: 'routes', required: true },
        statusField,
      ],
    }),
  },
  {
    value: 'sections-permission',
    label: 'Permisos de Secciones',
    config: defineResource({
      resource: 'sections-permission',
      section: SECTIONS.sectionsPermission,
      title: 'Permisos de Secciones',
      singular: 'permiso de sección',
      columns: [
        { header: 'Sección', render: (p) => (p.section ? sectionLabel(p.section.name) : '') },
        { header: 'Rol', render: (p) => p.role?.name ?? '' },
        flag('r', 'R'),
        flag('w', 'W'),
        flag('u', 'U'),
        flag('d', 'D'),
      ],
      formColumns: 2,
      modalSize: 'lg',
      fields: [
        // The section of a permission cannot change once created.
        { kind: 'select', name: 'section_id', label: 'Sección', source: 'sections', required: true, fixedOnEdit: true },
        { kind: 'select', name: 'role_id', label: 'Rol', source: 'roles', required: true },
        { kind: 'checkbox', name: 'r', label: 'Leer (r)' },
        { kind: 'checkbox', name: 'w', label: 'Crear (w)' },
        { kind: 'checkbox', name: 'u', label: 'Editar (u)' },
        { kind: 'checkbox', name: 'd', label: 'Eliminar / restaurar (d)' },
        statusField,
      ],
    }),
  },
];
