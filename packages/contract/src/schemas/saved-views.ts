import { z } from 'zod';
import { ticketLists, ZTicketListQuery } from './tickets.ts';
import { ZId, ZText } from './common.ts';

/**
 * Saved views: a ticket list's search, filters, sort and page size under a name, personal or
 * shared with roles. The query is the lists' own contract (ZTicketListQuery without the page),
 * so a view holds exactly what a list accepts and nothing else.
 */
export const savedViewLists = [...ticketLists, 'kanban'] as const;
export type SavedViewList = (typeof savedViewLists)[number];

/** How many views one person may own (each shows a bounded count in the sidebar). */
export const MAX_SAVED_VIEWS = 50;
/** How many roles a view is shared with at most. */
export const MAX_SHARED_ROLES = 50;

export const SAVED_VIEW_MSG = {
  created: 'Vista guardada.',
  updated: 'Vista actualizada.',
  deleted: 'Vista eliminada.',
  notFound: 'La vista no existe.',
  duplicateName: 'Ya tienes una vista con este nombre.',
  tooMany: `Puedes guardar como máximo ${MAX_SAVED_VIEWS} vistas.`,
  cannotShare: 'No tienes permiso para compartir vistas.',
  notOwner: 'Solo quien creó la vista o un administrador puede cambiarla.',
  notOwnerDelete: 'Solo quien creó la vista o un administrador puede eliminarla.',
  cannotReadList: 'No tienes permiso para ver la lista de esta vista.',
  invalidRole: 'El rol seleccionado no existe o está inactivo.',
  invalidList: 'Lista no válida.',
  /** A filter value whose catalogue row was deactivated (or no longer exists). */
  inactiveValue: (label: string, name: string) => `${label} «${name}» ya no aplica: fue desactivado.`,
  missingValue: (label: string, id: number) => `${label} #${id} ya no aplica: ya no existe.`,
  inactiveNotice: 'Esta vista filtra por valores que ya no aplican:',
} as const;

/** What a view keeps of its list: search, filters, sort and page size (the page is not kept). */
export const ZSavedViewQuery = ZTicketListQuery.omit({ page: true });
export type TSavedViewQuery = z.output<typeof ZSavedViewQuery>;
export type TSavedViewQueryInput = z.input<typeof ZSavedViewQuery>;

const ZViewName = ZText('safeText', { max: 60 });
const ZRoleIds = z
  .array(ZId, { error: 'Debe ser una lista de roles.' })
  .max(MAX_SHARED_ROLES, `Máximo ${MAX_SHARED_ROLES} roles.`)
  .transform((ids) => [...new Set(ids)]);

/** `POST /views/create`: a personal view (no roles) or one shared with the roles given (needs w on vi_main). */
export const ZSavedViewCreate = z.object({
  name: ZViewName,
  list: z.enum(savedViewLists, { error: SAVED_VIEW_MSG.invalidList }),
  query: ZSavedViewQuery,
  role_ids: ZRoleIds.default([]),
});
export type TSavedViewCreate = z.input<typeof ZSavedViewCreate>;

/** `PUT /views/update/{id}`: rename, save the list's current query, or change who it is shared with. */
export const ZSavedViewUpdate = z.object({
  name: ZViewName.optional(),
  query: ZSavedViewQuery.optional(),
  role_ids: ZRoleIds.optional(),
});
export type TSavedViewUpdate = z.input<typeof ZSavedViewUpdate>;

/** A number of matching tickets, bounded like the lists' totals ('más de 10.000'). */
export const ZBoundedCount = z.object({ total: z.number(), is_lower_bound: z.boolean() });

export const ZSavedView = z.object({
  id: z.number(),
  name: z.string(),
  list: z.enum(savedViewLists),
  query: ZSavedViewQuery,
  role_ids: z.array(z.number()),
  owner: z.object({ id: z.number(), name: z.string() }),
  is_owner: z.boolean(),
  /** The caller may rename it, save the current filters into it, and delete it. */
  can_edit: z.boolean(),
  can_delete: z.boolean(),
  /** Tickets the view matches now, as its list counts them. */
  count: ZBoundedCount,
});
export type TSavedView = z.infer<typeof ZSavedView>;

/** A filter value of the view that no longer applies (its catalogue row was deactivated or removed). */
export const ZInactiveFilterValue = z.object({
  filter: z.string(),
  label: z.string(),
  id: z.number(),
  name: z.string().nullable(),
  message: z.string(),
});

export const ZSavedViewDetail = ZSavedView.extend({
  inactive_values: z.array(ZInactiveFilterValue),
  /** A Spanish note naming the values that no longer apply; null when every value is active. */
  notice: z.string().nullable(),
});
export type TSavedViewDetail = z.infer<typeof ZSavedViewDetail>;

export const ZSavedViewsResponse = z.object({
  status: z.literal(true),
  data: z.array(ZSavedView),
  /** Whether the caller may share a view (w on vi_main), and the roles they may pick. */
  can_share: z.boolean(),
  roles: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type TSavedViewsResponse = z.infer<typeof ZSavedViewsResponse>;

export const ZSavedViewResponse = z.object({ status: z.literal(true), data: ZSavedViewDetail });
export type TSavedViewResponse = z.infer<typeof ZSavedViewResponse>;

export const ZSavedViewWriteResponse = z.object({
  status: z.literal(true),
  message: z.string(),
  data: ZSavedViewDetail,
});
export type TSavedViewWriteResponse = z.infer<typeof ZSavedViewWriteResponse>;
