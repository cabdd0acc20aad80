import { patternMatchesExample, REFERENCE_MSG, SECTIONS, type CatalogResourceName } from '@portal/contract';
import type { DB } from '../../db/schema.ts';
import type { Access } from '../../plugins/access.types.ts';
import { hashPassword } from '../../lib/passwords.ts';

type TableName = keyof DB;

/** A `{id, name}` reference shown inside a record, read through a join. */
export interface Reference {
  /** Key in the record (`role` → `{ id, name }`). */
  as: string;
  /** Column of this table holding the id. */
  column: string;
  table: TableName;
  /** Left join for optional references. */
  optional?: boolean;
  /** SQL for the reference's name (default `<as>.name`). */
  label?: string;
  /** A write may only name an active row (not only an existing one). */
  mustBeActive?: boolean;
}

export interface CatalogDefinition {
  resource: CatalogResourceName;
  table: TableName;
  section: (typeof SECTIONS)[keyof typeof SECTIONS];
  /** Writable columns besides status_id, in the order shown. */
  columns: string[];
  references: Reference[];
  /** Columns searched by `search` (t = this table, or a reference's `as`). */
  searchColumns: string[];
  /** Field groups that must be unique together. */
  unique: string[][];
  /** Unique text fields compared without regard to case (the database holds `lower(…)` unique indexes). */
  uniqueIgnoringCase?: string[];
  /** Who may fetch the active records as select options. */
  optionsAccess: Access;
  /** SQL for an option's label (default `t.name`). */
  optionLabel?: string;
  /** Whether `active-records?privileged=1` narrows the options to users of a privileged (is_supervisor) role. */
  hasPrivilegedOptions?: boolean;
  /** Turns validated input into column values (e.g. hashes a password). */
  prepare?: (input: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** Whether a write changes who may do what (the permission cache is dropped). */
  affectsPermissions?: boolean;
  /** Extra column values written with every status change. */
  onStatusChange?: () => Record<string, unknown>;
  /** Fields the update form may not change. */
  immutableOnUpdate?: string[];
  /** Turns a read row's stored values back into the record's (e.g. parses JSON text). */
  decode?: (row: Record<string, unknown>) => Record<string, unknown>;
  /**
   * An ordered catalogue: this column holds each record's place (1 first). The list follows it,
   * a new record goes last, and `PATCH /{resource}/{id}/move` moves one (flag u).
   */
  positionColumn?: string;
  /**
   * Values a record shows that no write of the catalogue sets, kept by the server in a table
   * beside it (at most one row per record, keyed by `key`; none reads as null): `columns` maps
   * each field to that table's column. They change without a catalogue write, so the
   * catalogue's list answers are not kept in memory.
   */
  readBeside?: { table: string; key: string; columns: Record<string, string> };
  /** Field errors of a record as a write would leave it (the fields given over the current ones). */
  check?: (record: Record<string, unknown>) => Record<string, string[]>;
}

/** Columns held as JSON text: written stringified, read parsed. */
const jsonColumns = (columns: string[]): Pick<CatalogDefinition, 'prepare' | 'decode'> => ({
  prepare: async (input) => {
    const values = { ...input };
    for (const c of columns) if (values[c] !== undefined) values[c] = JSON.stringify(values[c]);
    return values;
  },
  decode: (row) => {
    const record = { ...row };
    for (const c of columns) if (typeof record[c] === 'string') record[c] = JSON.parse(record[c]);
    return record;
  },
});

const simple = (
  resource: CatalogResourceName,
  table: TableName,
  section: CatalogDefinition['section'],
  extra: string[] = [],
): CatalogDefinition => ({
  resource,
  table,
  section,
  columns: ['name', ...extra],
  references: [],
  searchColumns: ['t.name'],
  unique: [['name']],
  optionsAccess: 'authenticated',
});

const anyRead = (...sections: CatalogDefinition['section'][]): Access => ({
  anyOf: sections.map((section) => ({ section, flag: 'r' as const })),
});

export const catalogDefinitions: CatalogDefinition[] = [
  simple('areas', 'areas', SECTIONS.areas),
  simple('categories', 'categories', SECTIONS.categories),
  simple('projects', 'projects', SECTIONS.projects),
  simple('difficulties', 'difficulties', SECTIONS.difficulties),
  simple('groups', 'groups', SECTIONS.groups, ['assignment_mode', 'assignment_cap']),
  simple('priority-types', 'priority_types', SECTIONS.priorityTypes),
  simple('ticket-statuses', 'ticket_statuses', SECTIONS.ticketStatuses, ['stage', 'pauses_sla', 'wip_limit']),
  {
    ...simple('roles', 'roles', SECTIONS.roles, ['is_supervisor']),
    affectsPermissions: true,
    optionsAccess: anyRead(SECTIONS.roles, SECTIONS.users, SECTIONS.routesPermission, SECTIONS.sectionsPermission),
  },
  {
    ...simple('routes', 'routes', SECTIONS.routes),
    affectsPermissions: true,
    optionsAccess: anyRead(SECTIONS.routes, SECTIONS.routesPermission, SECTIONS.sections),
  },
  {
    ...simple('sections', 'sections', SECTIONS.sections, ['route_id']),
    affectsPermissions: true,
    references: [{ as: 'route', column: 'route_id', table: 'routes' }],
    searchColumns: ['t.name', 'route.name'],
    optionsAccess: anyRead(SECTIONS.sections, SECTIONS.sectionsPermission),
  },
  {
    resource: 'routes-permission',
    affectsPermissions: true,
    table: 'routes_permission',
    section: SECTIONS.routesPermission,
    columns: ['route_id', 'role_id'],
    references: [
      { as: 'route', column: 'route_id', table: 'routes' },
      { as: 'role', column: 'role_id', table: 'roles' },
    ],
    searchColumns: ['route.name', 'role.name'],
    unique: [['route_id', 'role_id']],
    optionsAccess: anyRead(SECTIONS.routesPermission),
  },
  {
    resource: 'sections-permission',
    affectsPermissions: true,
    table: 'sections_permission',
    section: SECTIONS.sectionsPermission,
    columns: ['section_id', 'role_id', 'r', 'w', 'u', 'd'],
    references: [
      { as: 'section', column: 'section_id', table: 'sections' },
      { as: 'role', column: 'role_id', table: 'roles' },
    ],
    searchColumns: ['section.name', 'role.name'],
    unique: [['section_id', 'role_id']],
    optionsAccess: anyRead(SECTIONS.sectionsPermission),
    immutableOnUpdate: ['section_id'],
  },
  {
    ...simple('business-calendars', 'business_calendars', SECTIONS.businessCalendars, [
      'time_zone',
      'week',
      'holidays',
    ]),
    // The SLA policies' calendar select.
    optionsAccess: anyRead(SECTIONS.businessCalendars, SECTIONS.slaPolicies),
    ...jsonColumns(['week', 'holidays']),
  },
  {
    ...simple('sla-policies', 'sla_policies', SECTIONS.slaPolicies, [
      'priority_type_id',
      'area_id',
      'calendar_id',
      'first_response_minutes',
      'resolution_minutes',
    ]),
    references: [
      { as: 'priority_type', column: 'priority_type_id', table: 'priority_types' },
      { as: 'area', column: 'area_id', table: 'areas', optional: true },
      { as: 'calendar', column: 'calendar_id', table: 'business_calendars' },
    ],
    searchColumns: ['t.name', 'priority_type.name', 'area.name', 'calendar.name'],
    // One policy per priority and area (no area: any area).
    unique: [['name'], ['priority_type_id', 'area_id']],
  },
  {
    ...simple('reference-types', 'reference_types', SECTIONS.referenceTypes, ['pattern', 'example']),
    searchColumns: ['t.name', 't.pattern', 't.example'],
    // The background re-extraction's progress after a change of pattern.
    readBeside: {
      table: 'reference_reextractions',
      key: 'type_id',
      columns: { reextract_done: 'done', reextract_total: 'total' },
    },
    optionsAccess: 'authenticated',
    // The pattern itself is checked safe by its schema; its example must be one whole reference of it.
    check: ({ pattern, example }): Record<string, string[]> =>
      typeof pattern === 'string' && typeof example === 'string' && !patternMatchesExample(pattern, example)
        ? { example: [REFERENCE_MSG.exampleMismatch] }
        : {},
  },
  {
    resource: 'routing-rules',
    table: 'routing_rules',
    section: SECTIONS.routingRules,
    columns: ['name', 'position', 'area_id', 'category_id', 'project_id', 'priority_type_id', 'group_id'],
    references: [
      { as: 'area', column: 'area_id', table: 'areas', optional: true },
      { as: 'category', column: 'category_id', table: 'categories', optional: true },
      { as: 'project', column: 'project_id', table: 'projects', optional: true },
      { as: 'priority', column: 'priority_type_id', table: 'priority_types', optional: true },
      // `group` is an SQL keyword: its name is read quoted.
      { as: 'group', column: 'group_id', table: 'groups', label: '"group".name', mustBeActive: true },
    ],
    searchColumns: ['t.name', 'group.name'],
    unique: [['name']],
    optionsAccess: anyRead(SECTIONS.routingRules),
    positionColumn: 'position',
  },
  {
    resource: 'users',
    table: 'users',
    section: SECTIONS.users,
    columns: [
      'name',
      'last_name',
      'second_last_name',
      'username',
      'email',
      'role_id',
      'area_id',
      'supervisor_id',
      'branch',
    ],
    references: [
      { as: 'role', column: 'role_id', table: 'roles' },
      { as: 'area', column: 'area_id', table: 'areas', optional: true },
      {
        as: 'supervisor',
        column: 'supervisor_id',
        table: 'users',
        optional: true,
        label: "supervisor.name || ' ' || supervisor.last_name",
      },
    ],
    searchColumns: ['t.name', 't.last_name', 't.second_last_name', 't.username', 't.email'],
    unique: [['username'], ['email']],
    // `Admin` may not sit beside `admin`; e-mails are stored lower-cased (migration 0004).
    uniqueIgnoringCase: ['username', 'email'],
    hasPrivilegedOptions: true,
    optionsAccess: {
      anyOf: [
        { section: SECTIONS.users, flag: 'r' },
        { section: SECTIONS.tickets, flag: 'w' },
        { section: SECTIONS.generalTickets, flag: 'w' },
        { section: SECTIONS.workload, flag: 'r' },
      ],
    },
    optionLabel: "t.name || ' ' || t.last_name",
    // Deactivating (or reactivating) a user ends every session they had.
    onStatusChange: () => ({ sessions_valid_after: Date.now() }),
    async prepare(input) {
      const { password, ...rest } = input;
      return typeof password === 'string' ? { ...rest, password_hash: await hashPassword(password) } : rest;
    },
  },
];

export const catalogDefinitionOf = (resource: CatalogResourceName): CatalogDefinition => {
  const def = catalogDefinitions.find((d) => d.resource === resource);
  if (!def) throw new Error(`Unknown catalog resource ${resource}`);
  return def;
};
