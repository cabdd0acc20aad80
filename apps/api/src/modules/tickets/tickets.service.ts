import {
  MSG,
  NOTIFICATION_TEXT,
  SECTIONS,
  TICKET_FIELD_LABELS,
  TICKET_LINK_MSG,
  TICKET_MSG,
  type TAssignableUsersQuery,
  type SectionName,
  type TicketListKind,
  type TTicket,
  type TTicketDetail,
  type TTicketFilters,
  type TTicketListQuery,
  type TTicketSort,
  REFERENCE_MSG,
  type TPossibleDuplicate,
} from '@portal/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { AuditRepository } from '../audit/audit.repository.ts';
import type { DB } from '../../db/schema.ts';
import { HttpError, forbidden, notFound, validationFailed, type FieldErrors } from '../../lib/http-error.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import type { PermissionsRepository } from '../permissions/permissions.repository.ts';
import { assignmentEvent, type AutoAssigner, type AutoAssignment } from '../groups/auto-assign.ts';
import type { TicketRouter } from '../groups/routing.ts';
import type { TicketLinksRepository } from '../ticket-links/ticket-links.repository.ts';
import type { ReferencesRepository } from '../references/references.repository.ts';
import type { AuthUserRow } from '../users/users.repository.ts';
import { csvHeader, ticketCsvLine } from './ticket-csv.ts';
import type { NewTicketEvent, TicketEventsRepository } from './ticket-events.repository.ts';
import type { TicketSelection, TicketValues, TicketsRepository } from './tickets.repository.ts';
import { slaAfterChange, slaOfNewTicket, slaViewOf, type SlaChange, type TicketSla } from '../sla/sla-clock.ts';
import { SLA_COLUMNS, type SlaCatalog, type SlaRepository } from '../sla/sla.repository.ts';

interface Deps {
  database: Database;
  sla: SlaRepository;
  /** The clock (ms), injectable for tests. */
  now?: () => number;
  tickets: TicketsRepository;
  events: TicketEventsRepository;
  permissions: PermissionsRepository;
  notifications: Pick<NotificationsService, 'create' | 'notify' | 'ticketChanged'>;
  audit: AuditRepository;
  /** The group a new ticket without one goes to (Reglas de asignación). */
  router: Pick<TicketRouter, 'groupFor'>;
  /** A group's members: a ticket landing in their queue is announced to them. */
  teamOf: (groupId: number) => Promise<number[]>;
  /** Whether a parent about to close still has open children. */
  links: Pick<TicketLinksRepository, 'openChildren'>;
  /** Automatic assignment of the tickets entering a group's queue (Rotativa, Menor carga). */
  autoAssign: Pick<
    AutoAssigner,
    | 'modeOf'
    | 'lockGroup'
    | 'choose'
    | 'inCreation'
    | 'assignedInCreation'
    | 'notifyAssignee'
    | 'assignLocked'
    | 'announce'
    | 'freed'
  >;
  /** The logistics references of the ticket's text, written with every write of it. */
  references: Pick<ReferencesRepository, 'extract' | 'replace' | 'openSharing' | 'ofTicket' | 'types'>;
}

export type Actor = Pick<AuthUserRow, 'id' | 'role_id'> & Partial<Pick<AuthUserRow, 'is_supervisor'>>;

/** What the ticket form sends: the group may be left out. */
type TicketInput = Omit<TicketValues, 'group_id'> & { group_id?: number | null };

type Involvement = { created_by: number; user_assigned_id: number | null };

const isInvolved = (actor: Actor, ticket: Involvement) =>
  ticket.created_by === actor.id || ticket.user_assigned_id === actor.id;

const slaOfRow = (row: TicketSla): TicketSla =>
  Object.fromEntries(SLA_COLUMNS.map((k) => [k, row[k]])) as unknown as TicketSla;

/** The section whose `r` a list needs (its route's access rule, checked again for the export). */
export const TICKET_LIST_SECTION: Record<TicketListKind, SectionName> = {
  mine: SECTIONS.tickets,
  general: SECTIONS.generalTickets,
  current: SECTIONS.currentTickets,
  old: SECTIONS.oldTickets,
};

/** How many tickets the export reads (and writes) at a time. */
export const EXPORT_BATCH = 1_000;

/** The edited fields of the timeline and how each reads on a ticket (names, not ids). */
const editedFields: [keyof typeof TICKET_FIELD_LABELS, (t: TTicket) => string][] = [
  ['name', (t) => t.name],
  ['description', (t) => t.description],
  ['area_id', (t) => t.areas.name],
  ['project_id', (t) => t.projects.name],
  ['category_id', (t) => t.categories.name],
  ['priority_type_id', (t) => t.priorities.name],
  ['difficulty_id', (t) => t.difficulties.name],
  ['group_id', (t) => t.group?.name ?? 'Sin grupo'],
];

export function createTicketsService({
  database,
  sla,
  now = Date.now,
  tickets,
  events,
  permissions,
  notifications,
  audit,
  router,
  teamOf,
  links,
  autoAssign,
  references,
}: Deps) {
  const can = (actor: Actor, section: string, flag: 'r' | 'w' | 'u' | 'd') =>
    permissions.hasFlag(actor.role_id, section, flag);

  /**
   * Tickets Generales grants the flag on every ticket; Mis Tickets only on the
   * tickets the caller created or is assigned to.
   */
  async function mayActOn(actor: Actor, ticket: Involvement, flag: 'w' | 'u'): Promise<boolean> {
    if (await can(actor, SECTIONS.generalTickets, flag)) return true;
    return isInvolved(actor, ticket) && (await can(actor, SECTIONS.tickets, flag));
  }

  /** The lists' rule: every ticket with Tickets Generales, otherwise the caller's own in any list they may read. */
  async function maySee(actor: Actor, ticket: Involvement): Promise<boolean> {
    if (await can(actor, SECTIONS.generalTickets, 'r')) return true;
    if (!isInvolved(actor, ticket)) return false;
    for (const section of [SECTIONS.tickets, SECTIONS.currentTickets, SECTIONS.oldTickets]) {
      if (await can(actor, section, 'r')) return true;
    }
    return false;
  }

  /** The field errors of values without an active catalogue row (a ticket may keep one deactivated after it was chosen). */
  function referenceErrors(missing: (keyof TicketValues)[], values: TicketValues, current?: TicketValues): FieldErrors {
    const errors: FieldErrors = {};
    for (const field of missing) if (current?.[field] !== values[field]) errors[field] = [MSG.invalidReference];
    return errors;
  }

  async function checkReferences(values: TicketValues, current: TicketValues): Promise<void> {
    const errors = referenceErrors((await tickets.references(values)).missing, values, current);
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
  }

  async function load(id: number, trx?: Kysely<DB>): Promise<TTicket> {
    const ticket = await tickets.findById(id, trx);
    if (!ticket) throw notFound(TICKET_MSG.notFound);
    return ticket;
  }

  /** Live lists: those who may see the ticket hear of the change (called once it has committed). */
  const announce = (ticket: Involvement & { id: number }, previousAssignee?: number | null) =>
    notifications.ticketChanged({
      ticketId: ticket.id,
      userIds: [
        ...new Set(
          [ticket.created_by, ticket.user_assigned_id, previousAssignee].filter(
            (u): u is number => typeof u === 'number',
          ),
        ),
      ],
    });

  /** The list a body asks for, with its scope as the caller may see it. */
  async function filterOf(
    actor: Actor,
    list: TicketListKind,
    query: { search: string; filters: TTicketFilters; sort: TTicketSort },
  ): Promise<TicketSelection> {
    const { search, filters, sort } = query;
    if (list === 'mine') return { scope: { kind: 'mine', userId: actor.id }, search, filters, sort };
    if (list === 'general') return { scope: { kind: 'all' }, search, filters, sort };
    // History shows every ticket to those who may see Tickets Generales, otherwise the caller's own.
    const seesAll = await can(actor, SECTIONS.generalTickets, 'r');
    return {
      scope: seesAll ? { kind: 'all' } : { kind: 'mine', userId: actor.id },
      search,
      history: list,
      filters,
      sort,
    };
  }

  /**
   * A ticket's SLA after an edit (status, priority, area), written in the edit's transaction;
   * answers the timeline entries it calls for (each with the resolution due date before → after).
   */
  async function recomputeSla(
    { rules, statuses }: SlaCatalog,
    id: number,
    was: TTicket,
    trx: Kysely<DB>,
    userId: number,
  ): Promise<NewTicketEvent[]> {
    const row = await sla.ticketClock(id, trx);
    if (!row) return [];
    const before = slaOfRow(row);
    const facts = (t: { priority_type_id: number; area_id: number; status_id: number }) => ({
      createdAt: row.created_at,
      priorityTypeId: t.priority_type_id,
      areaId: t.area_id,
      stage: statuses.get(t.status_id)?.stage ?? row.stage,
      pausesSla: statuses.get(t.status_id)?.pausesSla ?? false,
    });
    const { sla: after, changes } = slaAfterChange(rules, before, facts(was), facts(row), now());
    if (SLA_COLUMNS.every((k) => before[k] === after[k]) && changes.length === 0) return [];
    await sla.write(id, after, trx);
    return changes.map((kind: SlaChange) => ({
      ticketId: id,
      userId,
      kind,
      field: 'resolution_due_at',
      from: before.resolution_due_at,
      to: after.resolution_due_at,
    }));
  }

  /**
   * `Posible duplicado: #812 y #1044 (mismo embarque EMB-004512)`: while the ticket is open, the
   * open tickets created before it that share one of its references (the first reference that
   * has some). A suggestion only: nothing is merged.
   */
  async function possibleDuplicateOf(ticket: { id: number; stage: string }): Promise<TPossibleDuplicate | null> {
    if (ticket.stage === 'closed') return null;
    const refs = await references.ofTicket(ticket.id);
    const sharing = await references.openSharing(ticket.id, refs, undefined, { before: true });
    const first = sharing[0];
    if (!first) return null;
    const ref = refs.find((r) => r.type_id === first.type_id && r.value === first.value)!;
    const ids = [
      ...new Set(sharing.filter((s) => s.type_id === ref.type_id && s.value === ref.value).map((s) => s.id)),
    ];
    return { message: REFERENCE_MSG.possibleDuplicate(ids, ref.type_name, ref.value), ticket_ids: ids, reference: ref };
  }

  const service = {
    maySee,
    mayActOn,
    announce,

    list: async (actor: Actor, list: TicketListKind, query: TTicketListQuery) =>
      tickets.list(await filterOf(actor, list, query), query),

    /** How many tickets a list with this search and filters shows the caller, bounded as its page's total. */
    count: async (
      actor: Actor,
      list: TicketListKind,
      query: { search: string; filters: TTicketFilters; sort: TTicketSort },
    ) => tickets.count(await filterOf(actor, list, query)),

    /** Whether the caller may read a list (`r` on its section, as its route requires). */
    mayReadList: (actor: Actor, list: TicketListKind) => can(actor, TICKET_LIST_SECTION[list], 'r'),

    /** The ticket's page: the ticket, its timeline and what the caller may do (403 if the lists would not show it). */
    async detail(actor: Actor, id: number): Promise<TTicketDetail> {
      const ticket = await load(id);
      if (!(await maySee(actor, ticket))) throw forbidden(TICKET_MSG.cannotSee);
      const [timeline, update, assign, reassign, clock, { rules }, refs, possibleDuplicate] = await Promise.all([
        events.listOf(id),
        mayActOn(actor, ticket, 'u'),
        ticket.user_assigned_id === null ? mayActOn(actor, ticket, 'w') : Promise.resolve(false),
        ticket.user_assigned_id === null ? Promise.resolve(false) : mayActOn(actor, ticket, 'u'),
        sla.ticketClock(id, database.db),
        sla.catalog(),
        references.ofTicket(id),
        possibleDuplicateOf({ id, stage: ticket.status_tickets.stage }),
      ]);
      const activities =
        ticket.user_assigned_id === actor.id ? 'register' : Number(actor.is_supervisor) === 1 ? 'view' : 'denied';
      const slaView = slaViewOf(rules, slaOfRow(clock!), now());
      return {
        ...ticket,
        events: timeline,
        can: { update, assign, reassign, activities },
        sla: slaView,
        references: refs,
        possible_duplicate: possibleDuplicate,
      };
    },

    /**
     * The CSV export of a list (with its search, filters and sort), as text chunks:
     * the header, then the rows read EXPORT_BATCH at a time by keyset, so neither the
     * rows nor the CSV are ever held whole. 403 without `r` on the list's section.
     */
    async export(
      actor: Actor,
      query: { list: TicketListKind; search: string; filters: TTicketFilters; sort: TTicketSort },
    ): Promise<AsyncGenerator<string>> {
      if (!(await can(actor, TICKET_LIST_SECTION[query.list], 'r'))) throw forbidden(MSG.forbidden);
      const filter = await filterOf(actor, query.list, query);
      return (async function* csv() {
        yield csvHeader();
        for await (const batch of tickets.exportBatches(filter, EXPORT_BATCH)) {
          yield batch.map(ticketCsvLine).join('');
        }
      })();
    },

    /**
     * Creates the ticket; without a group, the routing rules give it one (or none). Its
     * references are written with it, and it is linked `relacionado con` every open ticket
     * sharing one (with their timeline entries), in the creation's write (tickets.repository.ts
     * `create`). A group that
     * assigns automatically gives it to a member in the same transaction, under the group's lock
     * (taken before the ticket is written).
     */
    async create(
      actor: Actor,
      input: TicketInput,
    ): Promise<TTicket & { possible_duplicate: TPossibleDuplicate | null }> {
      const refs = await references.extract([input.name, input.description]);
      const values = { ...input, group_id: input.group_id ?? (await router.groupFor(input)) };
      const groupId = values.group_id;
      // The group whose mode assigns the new ticket, or null.
      const assigningGroup = groupId !== null && (await autoAssign.modeOf(groupId)) !== 'manual' ? groupId : null;
      const at = now();
      const { rules, statuses } = await sla.catalog();
      const status = statuses.get(values.status_id);
      const clock = status
        ? slaOfNewTicket(
            rules,
            {
              createdAt: new Date(at).toISOString(),
              priorityTypeId: values.priority_type_id,
              areaId: values.area_id,
              stage: status.stage,
              pausesSla: status.pausesSla,
            },
            at,
          )
        : undefined;
      const options = { now: new Date(at).toISOString(), sla: clock, references: refs };
      const auto: { assigned: AutoAssignment | null } = { assigned: null };
      /**
       * The creation into a group whose mode assigns, written assigned to the member it picks
       * under the group's lock: on PostgreSQL by the creation's own statement; on SQLite, whose
       * one writer needs no lock, chosen before the insert in the creation's transaction.
       */
      const createAssigned = async (groupId: number) => {
        if (database.dialect === 'postgres') {
          const created = await tickets.create(values, actor.id, {
            ...options,
            assignedIn: autoAssign.inCreation(groupId, options.now),
          });
          if ('ticket' in created)
            auto.assigned = autoAssign.assignedInCreation(groupId, created.ticket, created.chosen);
          return created;
        }
        return database.db.transaction().execute(async (trx) => {
          const group = await autoAssign.lockGroup(trx, groupId);
          const chosen = group ? await autoAssign.choose(trx, group) : null;
          const created = await tickets.create(values, actor.id, {
            ...options,
            trx,
            assignee: chosen ? { id: chosen.userId, name: chosen.name, groupId } : undefined,
            events: chosen ? [assignmentEvent(chosen)] : [],
          });
          if (group && chosen && 'ticket' in created) {
            auto.assigned = await autoAssign.notifyAssignee(trx, group, created.ticket, chosen);
          }
          return created;
        });
      };
      const result = await (assigningGroup === null
        ? tickets.create(values, actor.id, options)
        : createAssigned(assigningGroup));
      if ('missing' in result) throw validationFailed(referenceErrors(result.missing, values));
      const { ticket } = result;
      const linked = result.linked.map((t) => t.id);
      if (auto.assigned) {
        autoAssign.announce([auto.assigned]);
      } else {
        const team = ticket.group_id === null ? [] : await teamOf(ticket.group_id);
        notifications.ticketChanged({ ticketId: ticket.id, userIds: [...new Set([ticket.created_by, ...team])] });
      }
      for (const otherId of linked) {
        const other = await tickets.findOwnership(otherId);
        if (other) announce(other);
      }
      const possibleDuplicate =
        linked.length > 0 ? await possibleDuplicateOf({ id: ticket.id, stage: ticket.status_tickets.stage }) : null;
      return { ...ticket, possible_duplicate: possibleDuplicate };
    },

    /**
     * Edits the ticket; a group left out stays as it was. Closing a parent (moving it into a
     * closed stage) while any child is still open needs `closeWithOpenChildren`; without it
     * nothing is written and a 409 lists them.
     */
    async update(
      actor: Actor,
      id: number,
      input: TicketInput,
      { closeWithOpenChildren = false }: { closeWithOpenChildren?: boolean } = {},
    ): Promise<TTicket> {
      const current = await load(id);
      const values = { ...input, group_id: input.group_id === undefined ? current.group_id : input.group_id };
      if (!(await mayActOn(actor, current, 'u'))) throw forbidden(TICKET_MSG.notYours);
      await checkReferences(values, current);
      // Read before the transaction: the catalogue is read on its own connection.
      const catalog = await sla.catalog();
      // An unassigned ticket moved into a group that assigns automatically enters its queue.
      const entersQueue =
        values.group_id !== null &&
        values.group_id !== current.group_id &&
        current.user_assigned_id === null &&
        (await autoAssign.modeOf(values.group_id)) !== 'manual';
      const auto: { assigned: AutoAssignment | null } = { assigned: null };
      const isTextChanged = values.name !== current.name || values.description !== current.description;
      const refs = isTextChanged ? await references.extract([values.name, values.description]) : [];
      const updated = await database.db.transaction().execute(async (trx) => {
        // The group's lock before the ticket's row, as on creation.
        const group = entersQueue && values.group_id !== null ? await autoAssign.lockGroup(trx, values.group_id) : null;
        await tickets.update(id, values, trx);
        if (isTextChanged) await references.replace(id, refs, trx);
        const updated = await load(id, trx);
        if (
          !closeWithOpenChildren &&
          updated.status_tickets.stage === 'closed' &&
          current.status_tickets.stage !== 'closed'
        ) {
          const open = await links.openChildren(id, trx);
          if (open.length > 0) {
            throw new HttpError(409, TICKET_LINK_MSG.openChildren(open.map((c) => c.id)), {
              exception: 'OpenChildren',
              errors: { open_children: open.map((c) => `#${c.id} ${c.name}`) },
            });
          }
        }
        const changes: NewTicketEvent[] = editedFields.flatMap(([field, read]) =>
          read(current) === read(updated) && current[field] === updated[field]
            ? []
            : [
                {
                  ticketId: id,
                  userId: actor.id,
                  kind: 'edited' as const,
                  field,
                  from: read(current),
                  to: read(updated),
                },
              ],
        );
        if (current.status_id !== updated.status_id) {
          changes.push({
            ticketId: id,
            userId: actor.id,
            kind: 'status_changed',
            field: 'status_id',
            from: current.status_tickets.name,
            to: updated.status_tickets.name,
          });
          await notifications.notify(
            {
              recipientId: current.created_by,
              actorId: actor.id,
              ticketId: id,
              event: 'status_changed',
              message: NOTIFICATION_TEXT.statusChanged,
              detail: `${current.status_tickets.name} → ${updated.status_tickets.name}`,
            },
            trx,
          );
        }
        changes.push(...(await recomputeSla(catalog, id, current, trx, actor.id)));
        await events.record(changes, trx);
        if (group && updated.status_tickets.stage !== 'closed') {
          auto.assigned = await autoAssign.assignLocked(trx, group, {
            id,
            created_by: current.created_by,
            name: updated.name,
          });
        }
        return updated;
      });
      announce(updated);
      if (auto.assigned) autoAssign.announce([auto.assigned]);
      // Closing an assigned ticket frees a place under its assignee's cap: what waits for them is handed out.
      if (
        current.user_assigned_id !== null &&
        current.status_tickets.stage !== 'closed' &&
        updated.status_tickets.stage === 'closed'
      ) {
        await autoAssign.freed(current.user_assigned_id);
      }
      return load(id);
    },

    /**
     * Moves the ticket to another status (a Kanban card dropped on another column): the edit
     * above with every other field as it is now, so the same rules apply (u on the ticket,
     * an active status, a parent with open children, the timeline's status change, the SLA).
     */
    async moveStatus(
      actor: Actor,
      id: number,
      statusId: number,
      options: { closeWithOpenChildren?: boolean } = {},
    ): Promise<TTicket> {
      const current = await load(id);
      const values: TicketInput = {
        name: current.name,
        description: current.description,
        area_id: current.area_id,
        project_id: current.project_id,
        category_id: current.category_id,
        priority_type_id: current.priority_type_id,
        difficulty_id: current.difficulty_id,
        status_id: statusId,
        group_id: current.group_id,
      };
      return service.update(actor, id, values, options);
    },

    /**
     * Assigns the ticket ('Asignar' needs w, changing an existing assignee needs u)
     * and notifies the assignee in the same transaction, unless they assigned it to themselves.
     */
    async assign(actor: Actor, id: number, assigneeId: number, ip: string | null = null): Promise<TTicket> {
      const ticket = await tickets.findOwnership(id);
      if (!ticket) throw notFound(TICKET_MSG.notFound);
      const flag = ticket.user_assigned_id === null ? 'w' : 'u';
      if (!(await mayActOn(actor, ticket, flag))) {
        throw forbidden(flag === 'u' ? TICKET_MSG.reassignNeedsUpdate : TICKET_MSG.notYours);
      }
      if (ticket.user_assigned_id === assigneeId) throw new HttpError(409, TICKET_MSG.alreadyAssigned);
      if (!(await tickets.findActiveUser(assigneeId))) {
        throw validationFailed({ userId: [TICKET_MSG.assigneeInactive] });
      }
      await database.db.transaction().execute(async (trx) => {
        const isAssigned = await tickets.assign(id, assigneeId, ticket.user_assigned_id, trx);
        if (!isAssigned) throw new HttpError(409, TICKET_MSG.changedMeanwhile);
        await events.record(
          [
            {
              ticketId: id,
              userId: actor.id,
              kind: 'assigned',
              field: 'user_assigned_id',
              from: await tickets.userName(ticket.user_assigned_id, trx),
              to: await tickets.userName(assigneeId, trx),
            },
          ],
          trx,
        );
        await notifications.notify(
          {
            recipientId: assigneeId,
            actorId: actor.id,
            ticketId: id,
            event: 'assigned',
            message: TICKET_MSG.assignmentMessage,
          },
          trx,
        );
      });
      announce({ ...ticket, user_assigned_id: assigneeId }, ticket.user_assigned_id);
      // The previous assignee has one ticket fewer: what waits in their groups may go to them.
      if (ticket.user_assigned_id !== null) await autoAssign.freed(ticket.user_assigned_id);
      await audit.record({
        event: ticket.user_assigned_id === null ? 'ticket.assigned' : 'ticket.reassigned',
        userId: actor.id,
        ip,
        detail: { ticket_id: id, assignee_id: assigneeId, previous_assignee_id: ticket.user_assigned_id ?? undefined },
      });
      return load(id);
    },

    lastThree: (actor: Actor) => tickets.lastOf(actor.id, 3),

    assignableUsers: (query: TAssignableUsersQuery) => tickets.assignableUsers(query),
  };
  return service;
}
export type TicketsService = ReturnType<typeof createTicketsService>;
