import {
  MAX_SAVED_VIEWS,
  RECORD_STATUS,
  SAVED_VIEW_MSG,
  SECTIONS,
  TICKET_FIELDS,
  ticketFilterFields,
  ZSavedViewQuery,
  type PermissionFlag,
  type SavedViewList,
  type TicketField,
  type TicketListKind,
  type TSavedView,
  type TSavedViewDetail,
  type TSavedViewQuery,
} from '@portal/contract';
import { isUniqueViolation } from '../../db/database.ts';
import { forbidden, HttpError, notFound, validationFailed } from '../../lib/http-error.ts';
import type { FilterValueTable, SavedViewRow, SavedViewsRepository } from './saved-views.repository.ts';

interface Actor {
  id: number;
  role_id: number;
}

type TicketQuery = Pick<TSavedViewQuery, 'search' | 'filters' | 'sort'>;

interface Deps {
  views: SavedViewsRepository;
  permissions: { hasFlag(roleId: number, section: string, flag: PermissionFlag): Promise<boolean> };
  /** The ticket lists' own read path: whether the caller may read a list, and its bounded total. */
  tickets: {
    mayReadList(actor: Actor, list: TicketListKind): Promise<boolean>;
    count(actor: Actor, list: TicketListKind, query: TicketQuery): Promise<{ total: number; isLowerBound: boolean }>;
  };
}

/** The ticket filters whose values are catalogue rows (or users) that may be deactivated. */
const referenceFilters = ticketFilterFields.flatMap((key) => {
  const field: TicketField = TICKET_FIELDS[key];
  return field.references && (field.kind === 'ids' || field.kind === 'optional-ids')
    ? [{ column: field.column, label: field.label, table: field.references as FilterValueTable }]
    : [];
});

/** What a view reads when its stored query no longer passes the lists' contract (a filter since removed). */
const emptyQuery = (): TSavedViewQuery => ZSavedViewQuery.parse({});

/**
 * Saved views. Everyone keeps their own views of the lists they may read; sharing one with
 * roles needs w on vi_main. A view is seen by its owner and by the roles it is shared with;
 * another person's shared view is changed (u) or deleted (d) only with that flag on vi_main
 * (Administrador), and a personal view of someone else does not exist for the caller (404).
 */
export function createSavedViewsService({ views, permissions, tickets }: Deps) {
  const can = (actor: Actor, flag: PermissionFlag) => permissions.hasFlag(actor.role_id, SECTIONS.savedViews, flag);

  /**
   * The ticket list a view reads. The board (read on kb_main) shows what Tickets Generales shows
   * to whoever may read it, and the caller's own tickets otherwise.
   */
  async function ticketListOf(actor: Actor, list: SavedViewList): Promise<TicketListKind | null> {
    if (list !== 'kanban') return (await tickets.mayReadList(actor, list)) ? list : null;
    if (!permissions.hasFlag(actor.role_id, SECTIONS.kanban, 'r')) return null;
    if (await tickets.mayReadList(actor, 'general')) return 'general';
    return (await tickets.mayReadList(actor, 'mine')) ? 'mine' : null;
  }

  function queryOf(row: SavedViewRow): TSavedViewQuery {
    try {
      const parsed = ZSavedViewQuery.safeParse(JSON.parse(row.query));
      return parsed.success ? parsed.data : emptyQuery();
    } catch {
      return emptyQuery();
    }
  }

  async function abilities(actor: Actor, row: SavedViewRow) {
    const isOwner = row.owner_id === actor.id;
    const isShared = row.role_ids.length > 0;
    const [mayUpdate, mayDelete] = isOwner
      ? [true, true]
      : [isShared && (await can(actor, 'u')), isShared && (await can(actor, 'd'))];
    const isVisible = isOwner || row.role_ids.includes(actor.role_id) || mayUpdate || mayDelete;
    return { isOwner, isVisible, canEdit: mayUpdate, canDelete: mayDelete };
  }

  async function toView(actor: Actor, row: SavedViewRow, list: TicketListKind): Promise<TSavedView> {
    const query = queryOf(row);
    const [{ isOwner, canEdit, canDelete }, count] = await Promise.all([
      abilities(actor, row),
      tickets.count(actor, list, query),
    ]);
    return {
      id: row.id,
      name: row.name,
      list: row.list,
      query,
      role_ids: row.role_ids,
      owner: { id: row.owner_id, name: row.owner_name },
      is_owner: isOwner,
      can_edit: canEdit,
      can_delete: canDelete,
      count: { total: count.total, is_lower_bound: count.isLowerBound },
    };
  }

  /** The values of the view's filters that no longer apply: rows deactivated, or gone. */
  async function inactiveValuesOf(query: TSavedViewQuery): Promise<TSavedViewDetail['inactive_values']> {
    const filters = query.filters as Record<string, unknown>;
    const found = await Promise.all(
      referenceFilters.map(async ({ column, label, table }) => {
        const value = filters[column];
        const ids = (Array.isArray(value) ? value : []).filter((v): v is number => typeof v === 'number');
        if (ids.length === 0) return [];
        const rows = new Map((await views.filterValues(table, ids)).map((r) => [Number(r.id), r]));
        return ids.flatMap((id): TSavedViewDetail['inactive_values'] => {
          const row = rows.get(id);
          if (!row) return [{ filter: column, label, id, name: null, message: SAVED_VIEW_MSG.missingValue(label, id) }];
          if (Number(row.status_id) === RECORD_STATUS.active) return [];
          return [
            { filter: column, label, id, name: row.name, message: SAVED_VIEW_MSG.inactiveValue(label, row.name) },
          ];
        });
      }),
    );
    return found.flat();
  }

  /** The view the caller may open, with what they may do with it (404 if not theirs to see, 403 without its list). */
  async function load(actor: Actor, id: number) {
    const row = await views.find(id);
    if (!row) throw notFound(SAVED_VIEW_MSG.notFound);
    const access = await abilities(actor, row);
    if (!access.isVisible) throw notFound(SAVED_VIEW_MSG.notFound);
    return { row, access };
  }

  async function detail(actor: Actor, row: SavedViewRow): Promise<TSavedViewDetail> {
    const list = await ticketListOf(actor, row.list);
    if (!list) throw forbidden(SAVED_VIEW_MSG.cannotReadList);
    const view = await toView(actor, row, list);
    const inactive = await inactiveValuesOf(view.query);
    return {
      ...view,
      inactive_values: inactive,
      notice: inactive.length > 0 ? inactive.map((v) => v.message).join(' ') : null,
    };
  }

  /** Every role id must be an active role: 422 otherwise. */
  async function checkRoles(roleIds: number[]) {
    if (roleIds.length === 0) return;
    const active = new Set((await views.activeRoles()).map((r) => r.id));
    if (roleIds.some((id) => !active.has(id))) throw validationFailed({ role_ids: [SAVED_VIEW_MSG.invalidRole] });
  }

  async function requireSharing(actor: Actor) {
    if (!(await can(actor, 'w'))) throw forbidden(SAVED_VIEW_MSG.cannotShare);
  }

  const sameRoles = (a: number[], b: number[]) =>
    a.length === b.length && [...a].sort().join() === [...b].sort().join();

  const duplicateName = (error: unknown) =>
    isUniqueViolation(error) ? validationFailed({ name: [SAVED_VIEW_MSG.duplicateName] }) : error;

  return {
    /** The sidebar: the caller's views and those shared with their role (of lists they may read), each with its count. */
    async list(actor: Actor) {
      const rows = await views.visibleTo(actor.id, actor.role_id);
      const shown = await Promise.all(
        rows.map(async (row) => {
          const list = await ticketListOf(actor, row.list);
          return list ? toView(actor, row, list) : null;
        }),
      );
      const canShare = await can(actor, 'w');
      return {
        data: shown.filter((v): v is TSavedView => v !== null),
        can_share: canShare,
        roles: canShare ? await views.activeRoles() : [],
      };
    },

    async get(actor: Actor, id: number): Promise<TSavedViewDetail> {
      const { row } = await load(actor, id);
      return detail(actor, row);
    },

    async create(
      actor: Actor,
      input: { name: string; list: SavedViewList; query: TSavedViewQuery; role_ids: number[] },
    ): Promise<TSavedViewDetail> {
      if (!(await ticketListOf(actor, input.list))) throw forbidden(SAVED_VIEW_MSG.cannotReadList);
      if (input.role_ids.length > 0) await requireSharing(actor);
      await checkRoles(input.role_ids);
      if ((await views.countOwnedBy(actor.id)) >= MAX_SAVED_VIEWS) throw new HttpError(422, SAVED_VIEW_MSG.tooMany);
      const id = await views
        .create(actor.id, { ...input, query: JSON.stringify(input.query) })
        .catch((error: unknown) => {
          throw duplicateName(error);
        });
      return detail(actor, (await views.find(id))!);
    },

    /** Rename, save the list's current query, or change its roles: the owner, or u on vi_main for a shared one. */
    async update(
      actor: Actor,
      id: number,
      changes: { name?: string; query?: TSavedViewQuery; role_ids?: number[] },
    ): Promise<TSavedViewDetail> {
      const { row, access } = await load(actor, id);
      if (!access.canEdit) throw forbidden(SAVED_VIEW_MSG.notOwner);
      if (changes.role_ids && !sameRoles(changes.role_ids, row.role_ids)) {
        await requireSharing(actor);
        await checkRoles(changes.role_ids);
      }
      await views
        .update(id, {
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.query !== undefined ? { query: JSON.stringify(changes.query) } : {}),
          ...(changes.role_ids !== undefined ? { role_ids: changes.role_ids } : {}),
        })
        .catch((error: unknown) => {
          throw duplicateName(error);
        });
      return detail(actor, (await views.find(id))!);
    },

    /** Deletes a view: its owner, or d on vi_main for a shared one. */
    async remove(actor: Actor, id: number): Promise<void> {
      const { access } = await load(actor, id);
      if (!access.canDelete) throw forbidden(SAVED_VIEW_MSG.notOwnerDelete);
      await views.remove(id);
    },
  };
}
export type SavedViewsService = ReturnType<typeof createSavedViewsService>;
