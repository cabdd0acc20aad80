import { ASSIGNMENT_MSG, RECORD_STATUS, TICKET_MSG, type AssignmentMode } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { executePrepared } from '../../db/prepared.ts';
import type { DB } from '../../db/schema.ts';
import { createLoadingCache } from '../../lib/loading-cache.ts';
import type { MailPerson } from '../mail/mail-notifier.ts';
import type { NotificationBus } from '../notifications/notifications.bus.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import type { NewTicketEvent, TicketEventsRepository } from '../tickets/ticket-events.repository.ts';
import type { AssigneeInStatement, ChosenInStatement, TicketsRepository } from '../tickets/tickets.repository.ts';
import type { AssignableMember, GroupsRepository } from './groups.repository.ts';

/** A ticket handed to a member by the group's mode. */
export interface AutoAssignment {
  ticketId: number;
  groupId: number;
  assigneeId: number;
  createdBy: number;
  /** The group's members (as read with the choice): their queue shrank. */
  team: number[];
}

/** A ticket given to a member: its creator hears of it, its name goes in the assignee's mail. */
export interface AssignedTicket {
  id: number;
  created_by: number;
  name: string;
}

/** The group row as read under its lock. */
export interface LockedGroup {
  id: number;
  status_id: number;
  assignment_mode: AssignmentMode;
  assignment_cap: number | null;
}

interface Deps {
  database: Database;
  /**
   * Announces writes to the groups (`catalogs`): the modes kept in memory are dropped. Its
   * `notifyChannel` carries the assignee's NOTIFY (PostgreSQL), or is null.
   */
  bus: Pick<NotificationBus, 'onInvalidate' | 'canCache' | 'notifyChannel'>;
  groups: GroupsRepository;
  tickets: Pick<TicketsRepository, 'assign'>;
  events: TicketEventsRepository;
  notifications: Pick<NotificationsService, 'notify' | 'ticketChanged' | 'publish' | 'mailRequested'>;
  /** The clock (ms): absences are compared with it. */
  now?: () => number;
}

/** How many waiting tickets one freed capacity hands out at most in one transaction. */
const MAX_DRAIN = 200;

/** The member a group's mode picked: their name and the timeline's reason (`menor carga: 3 abiertos`). */
export interface ChosenMember {
  userId: number;
  name: string;
  reason: string;
  /** Every member who may be given tickets, read with the choice. */
  team: number[];
  /** What their notification of the assignment needs, when read with the choice (otherwise read for it). */
  recipient?: MailPerson;
}

/** The timeline's entry of an automatic assignment: by the portal itself, with its reason. */
export const assignmentEvent = (chosen: ChosenMember): Omit<NewTicketEvent, 'ticketId'> => ({
  userId: null,
  kind: 'auto_assigned',
  field: 'user_assigned_id',
  from: chosen.reason,
  to: chosen.name,
});

/** Whether an absence (from, until) holds at `at`. */
export const isAbsentAt = (u: { absent_from: string | null; absent_until: string | null }, at: number) =>
  u.absent_from !== null &&
  Date.parse(u.absent_from) <= at &&
  (u.absent_until === null || Date.parse(u.absent_until) > at);

/**
 * Automatic assignment. A group in mode Rotativa or Menor carga gives each ticket that enters
 * its queue (a new ticket, or one moved into the group unassigned) to an available member in
 * the transaction that writes it. Available: active user of an active role, not Ausente, and
 * under the group's cap of open (not closed) assigned tickets, read from the counters
 * (`ticket_counts`). Rotativa takes the next available member after the last one it gave a
 * ticket to (in user id order); Menor carga the one with the fewest open tickets (ties: the
 * next in that same rotation). With nobody available the ticket waits in the queue; when a
 * member frees capacity (a ticket of theirs closes or goes to someone else, they come back,
 * they join) `drain` hands out the waiting tickets, oldest first.
 *
 * Concurrent writers: every decision is taken under the group row's lock (PostgreSQL
 * `SELECT … FOR NO KEY UPDATE`, which still lets tickets referencing the group be inserted),
 * taken before the ticket is written so the counters it reads already hold every committed
 * assignment; SQLite has one writer. The lock is per group: a member of two groups may pass
 * the cap by one when both assign at the same instant.
 */
export function createAutoAssigner({ database, bus, groups, tickets, events, notifications, now = Date.now }: Deps) {
  const { db } = database;
  const { notifyChannel } = bus;
  // Every group's mode, kept until a write to the groups is announced.
  const modes = createLoadingCache<'all', Map<number, AssignmentMode>>(1, () => bus.canCache());
  bus.onInvalidate(({ kind }) => {
    if (kind === 'catalogs' || kind === 'all') modes.clear();
  });
  const loadModes = async () => {
    const rows = await db.selectFrom('groups').select(['id', 'assignment_mode', 'status_id']).execute();
    return new Map(rows.map((g) => [g.id, g.status_id === RECORD_STATUS.active ? g.assignment_mode : 'manual']));
  };

  /**
   * The group's mode, from memory (manual for a missing or inactive group): whether a write
   * takes the group's lock at all. The decision itself reads the locked row (`choose`).
   */
  async function modeOf(groupId: number): Promise<AssignmentMode> {
    return (await modes.get('all', loadModes)).get(groupId) ?? 'manual';
  }

  /** Locks the group row for this transaction's decisions (PostgreSQL); undefined if it does not exist. */
  async function lockGroup(trx: Kysely<DB>, groupId: number): Promise<LockedGroup | undefined> {
    const q = trx
      .selectFrom('groups')
      .select(['id', 'status_id', 'assignment_mode', 'assignment_cap'])
      .where('id', '=', groupId);
    const { rows } = await executePrepared(trx, database.dialect === 'postgres' ? q.forNoKeyUpdate() : q);
    return rows[0];
  }

  /**
   * The available members with their open tickets, in rotation order (after the last one given
   * a ticket, read with them after the lock).
   */
  function available(group: LockedGroup, members: readonly AssignableMember[]) {
    const at = now();
    const cap = group.assignment_cap;
    const open = members.filter((m) => !isAbsentAt(m, at) && (cap === null || m.open < cap));
    const last = members[0]?.last_assigned_user_id ?? 0;
    return {
      rotation: [...open.filter((m) => m.user_id > last), ...open.filter((m) => m.user_id <= last)],
      team: members.map((m) => m.user_id),
    };
  }

  /** A member as their notification of an assignment needs them (read with the choice). */
  const recipientOf = (m: AssignableMember): MailPerson => ({
    id: m.user_id,
    name: m.name,
    last_name: m.last_name,
    email: m.email,
    status_id: m.status_id,
    rhythm: m.rhythm,
    channels: new Map(m.assigned_channel === null ? [] : [['assigned', m.assigned_channel]]),
  });

  /** The member the mode picks, or null when nobody is available. */
  function pick<M extends { open: number }>(mode: AssignmentMode, rotation: M[]): M | null {
    if (rotation.length === 0) return null;
    if (mode === 'round_robin') return rotation[0]!;
    return rotation.reduce((best, m) => (m.open < best.open ? m : best));
  }

  /**
   * The member the locked group's mode picks for its next ticket, with their name; null when it
   * assigns nobody. PostgreSQL makes the choice a creation's statement makes (`inCreation`),
   * here under the lock `trx` already holds; SQLite reads the members and picks here.
   */
  async function choose(trx: Kysely<DB>, group: LockedGroup): Promise<ChosenMember | null> {
    const mode = group.assignment_mode;
    if (group.status_id !== RECORD_STATUS.active || mode === 'manual') return null;
    if (database.dialect === 'postgres') {
      const row = await groups.chooseLocked(trx, group.id, new Date(now()).toISOString());
      if (!row) return null;
      return {
        userId: row.user_id,
        name: row.full_name,
        reason: ASSIGNMENT_MSG.reason(mode, row.open),
        team: row.team,
      };
    }
    const { rotation, team } = available(group, await groups.assignableMembers(group.id, trx));
    const chosen = pick(mode, rotation);
    if (!chosen) return null;
    return {
      userId: chosen.user_id,
      name: chosen.full_name,
      reason: ASSIGNMENT_MSG.reason(mode, chosen.open),
      team,
      recipient: recipientOf(chosen),
    };
  }

  /**
   * PostgreSQL: a new ticket of group `groupId` written assigned to the member the group's mode
   * picks, by the statement that writes it (groups.repository.ts `assigneeInCreation`): the
   * group's lock is held for that one statement. Nobody chosen (a manual or inactive group, no
   * member available): the ticket waits in the queue.
   */
  const inCreation = (groupId: number, at: string): AssigneeInStatement =>
    groups.assigneeInCreation(groupId, at, notifyChannel);

  /** The assignee's notification of a ticket given to them, as `notify` takes it. */
  const noticeOf = (ticket: AssignedTicket, chosen: ChosenMember) => ({
    recipientId: chosen.userId,
    actorId: null,
    ticketId: ticket.id,
    ticketName: ticket.name,
    recipient: chosen.recipient,
    event: 'assigned' as const,
    message: TICKET_MSG.assignmentMessage,
    detail: chosen.reason,
  });

  /** What the creation and everyone after it need of an assignment, once written. */
  const assignmentOf = (group: LockedGroup, ticket: AssignedTicket, chosen: ChosenMember): AutoAssignment => ({
    ticketId: ticket.id,
    groupId: group.id,
    assigneeId: chosen.userId,
    createdBy: ticket.created_by,
    team: chosen.team,
  });

  /**
   * PostgreSQL: the assignment a creation's statement made (`inCreation`), or null when it chose
   * nobody. Wakes the mail worker when the assignee's mail was requested, and on a bus without
   * NOTIFY (one process) the assignee's live streams.
   */
  function assignedInCreation(
    groupId: number,
    ticket: { id: number; created_by: number },
    chosen: ChosenInStatement | undefined,
  ): AutoAssignment | null {
    if (!chosen || chosen.chosen_id === null) return null;
    if (chosen.chosen_mailed) notifications.mailRequested();
    if (notifyChannel === null) void notifications.publish(chosen.chosen_id);
    return {
      ticketId: ticket.id,
      groupId,
      assigneeId: chosen.chosen_id,
      createdBy: ticket.created_by,
      team: chosen.chosen_team ?? [],
    };
  }

  /**
   * The chosen member's notification of the ticket they were given, in `trx`. (The timeline's
   * entry, `assignmentEvent`, and Rotativa's place are written by the assignment's own write.)
   */
  async function notifyAssignee(
    trx: Kysely<DB>,
    group: LockedGroup,
    ticket: AssignedTicket,
    chosen: ChosenMember,
  ): Promise<AutoAssignment> {
    await notifications.notify(noticeOf(ticket, chosen), trx);
    return assignmentOf(group, ticket, chosen);
  }

  /**
   * Gives an existing ticket (unassigned, in the locked group's queue) to the member the mode
   * picks, in `trx`. Null when the group is manual or inactive, or nobody is available. (A new
   * ticket is written with its assignee, the entry and Rotativa's place: `choose` before the
   * insert, `notifyAssignee` after.)
   */
  async function assignLocked(
    trx: Kysely<DB>,
    group: LockedGroup,
    ticket: AssignedTicket,
  ): Promise<AutoAssignment | null> {
    const chosen = await choose(trx, group);
    if (!chosen || !(await tickets.assign(ticket.id, chosen.userId, null, trx))) return null;
    await events.record([{ ticketId: ticket.id, ...assignmentEvent(chosen) }], trx);
    await groups.rotate(trx, group.id, chosen.userId);
    return notifyAssignee(trx, group, ticket, chosen);
  }

  /** Tells the creator, the assignee and the group's members (their queue shrank); after the commit. */
  function announce(assignments: AutoAssignment[]): void {
    for (const a of assignments) {
      notifications.ticketChanged({
        ticketId: a.ticketId,
        userIds: [...new Set([a.createdBy, a.assigneeId, ...a.team])],
      });
    }
  }

  /** Hands out the group's waiting tickets, oldest first, while a member is available; one transaction. */
  async function drain(groupId: number): Promise<AutoAssignment[]> {
    const done = await db.transaction().execute(async (trx) => {
      const group = await lockGroup(trx, groupId);
      if (!group || group.status_id !== RECORD_STATUS.active || group.assignment_mode === 'manual') return [];
      const assigned: AutoAssignment[] = [];
      for (let i = 0; i < MAX_DRAIN; i += 1) {
        const next = await groups.oldestQueued(groupId, trx);
        if (!next) break;
        const a = await assignLocked(trx, group, next);
        if (!a) break;
        assigned.push(a);
      }
      return assigned;
    });
    announce(done);
    return done;
  }

  return {
    modeOf,
    lockGroup,
    inCreation,
    assignedInCreation,
    choose,
    notifyAssignee,
    assignLocked,
    announce,
    drain,

    /** A member freed capacity (or came back): each of their automatic groups hands out what waits. */
    async freed(userId: number): Promise<AutoAssignment[]> {
      const all: AutoAssignment[] = [];
      for (const groupId of await groups.automaticGroupsOf(userId)) all.push(...(await drain(groupId)));
      return all;
    },
  };
}
export type AutoAssigner = ReturnType<typeof createAutoAssigner>;
