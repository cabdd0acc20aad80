import { z } from 'zod';
import { ticketStages, WIP_LIMIT_MAX } from '../constants.ts';
import { updateSchemaOf, ZFlag, ZId, ZNamedRef, ZStatusId, ZStatusRef, ZText } from './common.ts';
import { ZAssignmentCap, ZAssignmentMode } from './groups.ts';
import { ZReferenceTypeRecord, ZReferenceTypeWrite } from './references.ts';
import { ZBusinessCalendar, ZBusinessCalendarWrite, ZSlaPolicy, ZSlaPolicyWrite } from './sla.ts';
import { ZUser, ZUserCreate, ZUserUpdate } from './users.ts';

const ZBaseRecord = z.object({
  id: z.number(),
  name: z.string(),
  status_id: z.number(),
  status: ZStatusRef,
});

const nameField = ZText('onlyLetters', { max: 100 });
const ZSimpleWrite = z.object({ name: nameField, status_id: ZStatusId.default(1) });

const WIP_LIMIT_MSG = 'El límite WIP debe ser un número entero entre 1 y 10.000, o quedar vacío.';
const ZTicketStatusWrite = ZSimpleWrite.extend({
  stage: z.enum(ticketStages, { error: 'La etapa debe ser open, started o closed.' }).default('open'),
  /** While a ticket is in this status, its SLA clock stops. */
  pauses_sla: ZFlag.default(0),
  /**
   * The Kanban column's WIP limit: a column holding more shows it in a warning colour (no block).
   * Empty or null: none. The form sends its digits as text.
   */
  wip_limit: z
    .union([z.null(), z.literal(''), z.number(), z.string().regex(/^\d{1,6}$/, WIP_LIMIT_MSG)], {
      error: WIP_LIMIT_MSG,
    })
    .transform((v) => (v === null || v === '' ? null : Number(v)))
    .pipe(z.number().int(WIP_LIMIT_MSG).min(1, WIP_LIMIT_MSG).max(WIP_LIMIT_MAX, WIP_LIMIT_MSG).nullable())
    .default(null),
});
const ZRoleWrite = ZSimpleWrite.extend({ is_supervisor: ZFlag.default(0) });
const ZRouteWrite = z.object({
  name: ZText('safeText', { max: 100 }),
  status_id: ZStatusId.default(1),
});
const ZSectionWrite = ZRouteWrite.extend({ route_id: ZId });
const ZRoutePermissionWrite = z.object({ route_id: ZId, role_id: ZId, status_id: ZStatusId.default(1) });
const flags = { r: ZFlag.default(0), w: ZFlag.default(0), u: ZFlag.default(0), d: ZFlag.default(0) };
const ZSectionPermissionCreate = z.object({
  section_id: ZId,
  role_id: ZId,
  ...flags,
  status_id: ZStatusId.default(1),
});
/** The section of a section permission is fixed once created. */
const ZSectionPermissionUpdate = updateSchemaOf(ZSectionPermissionCreate.omit({ section_id: true }));

const ZAnyId = ZId.nullable().optional();
/** A routing rule: conditions on area, category, project and priority (null: any) → the group a new ticket goes to. */
const ZRoutingRuleWrite = z.object({
  name: ZText('alphanumeric', { max: 100 }),
  area_id: ZAnyId,
  category_id: ZAnyId,
  project_id: ZAnyId,
  priority_type_id: ZAnyId,
  group_id: ZId,
  status_id: ZStatusId.default(1),
});

/** A group: its name, and how its queue hands out tickets (mode, per-agent cap of open tickets). */
const ZGroupWrite = ZSimpleWrite.extend({
  assignment_mode: ZAssignmentMode.default('manual'),
  assignment_cap: ZAssignmentCap.optional(),
});

const resource = <C extends z.ZodTypeAny, U extends z.ZodTypeAny, R extends z.ZodTypeAny>(def: {
  create: C;
  update: U;
  record: R;
}) => def;

const simple = resource({ create: ZSimpleWrite, update: updateSchemaOf(ZSimpleWrite), record: ZBaseRecord });

/**
 * Every resource served by the generic list/create/update/change-status API.
 * Updates never take defaults: a field left out (status, stage, flags) keeps its value.
 */
export const catalogResources = {
  areas: simple,
  categories: simple,
  projects: simple,
  difficulties: simple,
  groups: resource({
    create: ZGroupWrite,
    update: updateSchemaOf(ZGroupWrite),
    record: ZBaseRecord.extend({ assignment_mode: ZAssignmentMode, assignment_cap: z.number().nullable() }),
  }),
  'priority-types': simple,
  'ticket-statuses': resource({
    create: ZTicketStatusWrite,
    update: updateSchemaOf(ZTicketStatusWrite),
    record: ZBaseRecord.extend({
      stage: z.enum(ticketStages),
      pauses_sla: z.number(),
      wip_limit: z.number().nullable(),
    }),
  }),
  roles: resource({
    create: ZRoleWrite,
    update: updateSchemaOf(ZRoleWrite),
    record: ZBaseRecord.extend({ is_supervisor: z.number() }),
  }),
  routes: resource({ create: ZRouteWrite, update: updateSchemaOf(ZRouteWrite), record: ZBaseRecord }),
  sections: resource({
    create: ZSectionWrite,
    update: updateSchemaOf(ZSectionWrite),
    record: ZBaseRecord.extend({ route_id: z.number(), route: ZNamedRef }),
  }),
  'routes-permission': resource({
    create: ZRoutePermissionWrite,
    update: updateSchemaOf(ZRoutePermissionWrite),
    record: z.object({
      id: z.number(),
      route_id: z.number(),
      route: ZNamedRef,
      role_id: z.number(),
      role: ZNamedRef,
      status_id: z.number(),
      status: ZStatusRef,
    }),
  }),
  'sections-permission': resource({
    create: ZSectionPermissionCreate,
    update: ZSectionPermissionUpdate,
    record: z.object({
      id: z.number(),
      section_id: z.number(),
      section: ZNamedRef,
      role_id: z.number(),
      role: ZNamedRef,
      r: z.number(),
      w: z.number(),
      u: z.number(),
      d: z.number(),
      status_id: z.number(),
      status: ZStatusRef,
    }),
  }),
  users: resource({ create: ZUserCreate, update: ZUserUpdate, record: ZUser }),
  'business-calendars': resource({
    create: ZBusinessCalendarWrite,
    update: updateSchemaOf(ZBusinessCalendarWrite),
    record: ZBusinessCalendar,
  }),
  'sla-policies': resource({
    create: ZSlaPolicyWrite,
    update: updateSchemaOf(ZSlaPolicyWrite),
    record: ZSlaPolicy,
  }),
  'reference-types': resource({
    create: ZReferenceTypeWrite,
    update: updateSchemaOf(ZReferenceTypeWrite),
    record: ZReferenceTypeRecord,
  }),
  'routing-rules': resource({
    create: ZRoutingRuleWrite,
    update: updateSchemaOf(ZRoutingRuleWrite),
    record: ZBaseRecord.extend({
      /** Its place in the order the rules are tried (1 first). */
      position: z.number(),
      area_id: z.number().nullable(),
      area: ZNamedRef,
      category_id: z.number().nullable(),
      category: ZNamedRef,
      project_id: z.number().nullable(),
      project: ZNamedRef,
      priority_type_id: z.number().nullable(),
      priority: ZNamedRef,
      group_id: z.number(),
      group: ZNamedRef,
    }),
  }),
} as const;

/** `PATCH /{resource}/{id}/move` of an ordered catalogue: the record's new place (1 first; past the end: last). */
export const ZMoveBody = z.object({
  position: z
    .number({ error: 'La posición debe ser un número entero mayor que 0.' })
    .int('La posición debe ser un número entero mayor que 0.')
    .min(1, 'La posición debe ser un número entero mayor que 0.')
    .max(1_000_000, 'La posición debe ser un número entero mayor que 0.'),
});

export type CatalogResourceName = keyof typeof catalogResources;
export const catalogResourceNames = Object.keys(catalogResources) as CatalogResourceName[];

export type TCatalogRecord<N extends CatalogResourceName> = z.infer<(typeof catalogResources)[N]['record']>;
export type TCatalogCreate<N extends CatalogResourceName> = z.input<(typeof catalogResources)[N]['create']>;
export type TCatalogUpdate<N extends CatalogResourceName> = z.input<(typeof catalogResources)[N]['update']>;

/** Resources whose active records can be fetched as select options. */
export const optionResources = [
  'areas',
  'categories',
  'projects',
  'difficulties',
  'groups',
  'priority-types',
  'ticket-statuses',
  'roles',
  'routes',
  'sections',
  'users',
  'business-calendars',
] as const satisfies readonly CatalogResourceName[];
