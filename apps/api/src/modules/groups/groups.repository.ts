import {
  ASSIGNMENT_MSG,
  DEFAULT_NOTIFICATION_CHANNELS,
  NOTIFICATION_TEXT,
  RECORD_STATUS,
  TICKET_MSG,
  type GroupMemberRole,
  type TGroupMember,
  type TUserGroup,
} from '@portal/contract';
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { nowIso, type Database } from '../../db/database.ts';
import { executePrepared } from '../../db/prepared.ts';
import type { DB } from '../../db/schema.ts';
import { COUNT_KIND } from '../../db/ticket-derivations.ts';
import type { AssigneeInStatement } from '../tickets/tickets.repository.ts';

/**
 * Rotativa's place: the member the group gave its last ticket to (`group_rotations`), in `trx`
 * (a new ticket's creation writes it in its own statement on PostgreSQL: tickets.repository.ts).
 */
export async function writeRotation(trx: Kysely<DB>, groupId: number, userId: number): Promise<void> {
  await trx
    .insertInto('group_rotations')
    .values({ group_id: groupId, last_assigned_user_id: userId })
    .onConflict((oc) => oc.column('group_id').doUpdateSet({ last_assigned_user_id: userId }))
    .execute();
}

/** Groups as teams: their members (`group_members`). */
export function createGroupsRepository(database: Database) {
  const { db } = database;

  /** The select behind `assignableMembers`. */
  const membersOf = (trx: Kysely<DB>, groupId: number) =>
    trx
      .selectFrom('group_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select(['m.user_id', 'u.absent_from', 'u.absent_until', 'u.name', 'u.last_name', 'u.email', 'u.status_id'])
      .select(sql<string>`u.name || ' ' || u.last_name`.as('full_name'))
      .select((eb) =>
        eb
          .selectFrom('notification_rhythms as nr')
          .select('nr.rhythm')
          .whereRef('nr.user_id', '=', 'm.user_id')
          .as('rhythm'),
      )
      .select((eb) =>
        eb
          .selectFrom('notification_preferences as np')
          .select('np.channel')
          .whereRef('np.user_id', '=', 'm.user_id')
          .where('np.event', '=', 'assigned')
          .as('assigned_channel'),
      )
      .select((eb) =>
        eb
          .selectFrom('ticket_counts as c')
          .select((inner) => inner.fn.sum<number | string>('c.n').as('n'))
          .whereRef('c.user_id', '=', 'm.user_id')
          .where('c.kind', '=', COUNT_KIND.assigned)
          .where('c.stage', '<>', 'closed')
          .$asScalar()
          .as('open'),
      )
      .select((eb) =>
        eb
          .selectFrom('group_rotations as g')
          .select('g.last_assigned_user_id')
          .where('g.group_id', '=', groupId)
          .$asScalar()
          .as('last_assigned_user_id'),
      )
      .where('m.group_id', '=', groupId)
      .where('u.status_id', '=', RECORD_STATUS.active)
      .where('r.status_id', '=', RECORD_STATUS.active);

  /** PostgreSQL: the group's members' ids, in id order, as one array (whose queue an assignment changed). */
  const teamOf = (groupId: number) =>
    sql<number[]>`array(select m.user_id from group_members m where m.group_id = ${groupId}::int order by m.user_id)`;

  /**
   * The reads every automatic assignment makes, compiled once per key (the group): building
   * one costs more than running it. The same text and values each time.
   */
  const compiledReads = new Map<string, CompiledQuery<unknown>>();
  const COMPILED_READS_KEPT = 500;
  function compiledOnce<R>(key: string, build: () => { compile(): CompiledQuery<R> }): CompiledQuery<R> {
    let compiled = compiledReads.get(key) as CompiledQuery<R> | undefined;
    if (!compiled) {
      if (compiledReads.size >= COMPILED_READS_KEPT) compiledReads.clear();
      compiled = build().compile();
      compiledReads.set(key, compiled);
    }
    return compiled;
  }

  const withOpen = <R extends { open: unknown }>(r: R): Omit<R, 'open'> & { open: number } => ({
    ...r,
    open: Number(r.open ?? 0),
  });

  /** The group's queue: its unassigned tickets that are not closed (the partial index `tickets_queue_idx`). */
  const queued = (groupId: number) =>
    db
      .selectFrom('tickets as t')
      .where('t.group_id', '=', groupId)
      .where('t.user_assigned_id', 'is', null)
      .where('t.group_id', 'is not', null)
      .where('t.stage', '<>', 'closed');

  const members = (trx: Kysely<DB> = db) =>
    trx
      .selectFrom('group_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select([
        'm.user_id',
        sql<string>`u.name || ' ' || u.last_name`.as('name'),
        'u.username',
        'm.role',
        'u.status_id',
        'm.created_at',
      ]);

  return {
    findGroup(id: number) {
      return db.selectFrom('groups').select(['id', 'name', 'status_id']).where('id', '=', id).executeTakeFirst();
    },

    findUser(id: number) {
      return db.selectFrom('users').select(['id', 'status_id']).where('id', '=', id).executeTakeFirst();
    },

    /** The group's members, leads first, then by name. */
    async membersOf(groupId: number): Promise<TGroupMember[]> {
      return members()
        .where('m.group_id', '=', groupId)
        .orderBy(sql`case when m.role = 'lead' then 0 else 1 end`)
        .orderBy('name')
        .orderBy('m.user_id')
        .execute();
    },

    async member(groupId: number, userId: number, trx: Kysely<DB> = db): Promise<TGroupMember | undefined> {
      return members(trx).where('m.group_id', '=', groupId).where('m.user_id', '=', userId).executeTakeFirst();
    },

    /** Adds the user to the group, or sets the role of one already in it; answers the role they had before. */
    async upsert(groupId: number, userId: number, role: GroupMemberRole): Promise<GroupMemberRole | null> {
      return db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('group_members')
          .select('role')
          .where('group_id', '=', groupId)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        await trx
          .insertInto('group_members')
          .values({ group_id: groupId, user_id: userId, role, created_at: nowIso() })
          .onConflict((oc) => oc.columns(['group_id', 'user_id']).doUpdateSet({ role }))
          .execute();
        return before?.role ?? null;
      });
    },

    /** Removes the membership; false when the user was not a member. */
    async remove(groupId: number, userId: number): Promise<boolean> {
      const result = await db
        .deleteFrom('group_members')
        .where('group_id', '=', groupId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** The ids of the group's members (to tell them their queue changed). */
    async memberIds(groupId: number): Promise<number[]> {
      const rows = await db.selectFrom('group_members').select('user_id').where('group_id', '=', groupId).execute();
      return rows.map((r) => r.user_id);
    },

    isMember: async (groupId: number, userId: number) =>
      (await db
        .selectFrom('group_members')
        .select('user_id')
        .where('group_id', '=', groupId)
        .where('user_id', '=', userId)
        .executeTakeFirst()) !== undefined,

    /** The queue tabs: the user's active groups, or every active group. */
    queueGroups(userId: number | null) {
      return db
        .selectFrom('groups as g')
        .select(['g.id', 'g.name'])
        .where('g.status_id', '=', RECORD_STATUS.active)
        .$if(userId !== null, (q) =>
          q.where('g.id', 'in', db.selectFrom('group_members').select('group_id').where('user_id', '=', userId!)),
        )
        .orderBy('g.name')
        .execute();
    },

    /** How many tickets wait in the group's queue, counted up to `cap + 1` (index `tickets_queue_idx`). */
    async queueCount(groupId: number, cap: number): Promise<number> {
      const { n } = await db
        .selectFrom(
          queued(groupId)
            .select(sql.lit(1).as('one'))
            .limit(cap + 1)
            .as('q'),
        )
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    /** A page of the group's queue: most urgent first (priority), then oldest. */
    async queuePage(groupId: number, limit: number, offset: number): Promise<number[]> {
      const rows = await queued(groupId)
        .select('t.id')
        .orderBy('t.priority_type_id', 'desc')
        .orderBy('t.id', 'asc')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map((r) => r.id);
    },

    /**
     * Assigns a queued ticket to `userId` only if it still waits unassigned: of two agents
     * taking it at once, the database lets one update the row; false for the other.
     */
    async take(ticketId: number, userId: number, trx: Kysely<DB>): Promise<boolean> {
      const result = await trx
        .updateTable('tickets')
        .set({ user_assigned_id: userId, updated_at: nowIso() })
        .where('id', '=', ticketId)
        .where('user_assigned_id', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * The group's members who may be given tickets (active users of active roles), in user id
     * order, each with their absence, their name as the timeline writes it and their open
     * assigned tickets from the counters, and on every row the member Rotativa gave the last
     * ticket to: one statement, read after the group's lock (so it sees what the previous
     * holder committed). With them, what the chosen one's notification needs (mail-notifier.ts
     * `MailPerson`): address, digest rhythm and the channel they chose for an assignment.
     */
    async assignableMembers(groupId: number, trx: Kysely<DB> = db) {
      const compiled = compiledOnce(`of:${groupId}`, () => membersOf(trx, groupId).orderBy('m.user_id'));
      const { rows } = await executePrepared(trx, { compile: () => compiled });
      return rows.map(withOpen);
    },

    rotate: writeRotation,

    /**
     * PostgreSQL: the member the group's mode picks for its next ticket (migration 0045
     * `portal_choose_assignee`, which takes the group row's lock for `trx`), or undefined when
     * it picks nobody.
     */
    async chooseLocked(trx: Kysely<DB>, groupId: number, at: string) {
      const { rows } = await sql<{ user_id: number; open: string; full_name: string; team: number[] }>`
        select ch.user_id, ch.open, ch.full_name, ${teamOf(groupId)} as team
        from portal_choose_assignee(${groupId}::int, ${at}::timestamptz) ch`.execute(trx);
      const [row] = rows;
      return row && { ...row, open: Number(row.open) };
    },

    /**
     * PostgreSQL: the parts of a creation's statement that write the new ticket of group
     * `groupId` assigned to the member the group's mode picks (tickets.repository.ts
     * `AssigneeInStatement`): `portal_choose_assignee` takes the group's lock and chooses; with
     * the ticket go the timeline's entry with its reason (`ASSIGNMENT_MSG.reason`, composed
     * here the same way), Rotativa's place, the assignee's notification in the portal (with its
     * NOTIFY on `notifyChannel`) and, when they get e-mail, the request of their mail, which the
     * outbox worker composes (mail-outbox.repository.ts `composeRequests`). The channel is the
     * assignee's choice for an assignment, else its default.
     */
    assigneeInCreation(groupId: number, at: string, notifyChannel: string | null): AssigneeInStatement {
      const open = sql`ch.open || ' ' || case when ch.open = 1 then ${ASSIGNMENT_MSG.openWord.one}::text
        else ${ASSIGNMENT_MSG.openWord.many}::text end`;
      const reason = sql`replace(${JSON.stringify(ASSIGNMENT_MSG.reasonTemplate)}::jsonb ->> ch.mode, '{n}', ${open})`;
      const channel = sql`coalesce(ch.channel, ${DEFAULT_NOTIFICATION_CHANNELS.assigned}::text)`;
      const message = TICKET_MSG.assignmentMessage;
      return {
        choose: sql`ch as materialized (
            select ch.*, ${reason} as reason from portal_choose_assignee(${groupId}::int, ${at}::timestamptz) ch),`,
        assignee: sql`(select ch.user_id from ch)`,
        writes: sql`chosen_rotation as (insert into group_rotations (group_id, last_assigned_user_id)
            select ${groupId}::int, ch.user_id from t, ch
            on conflict (group_id) do update set last_assigned_user_id = excluded.last_assigned_user_id),
          chosen_notice as (insert into notifications (user_id, actor_id, ticket_id, title, message, type, created_at)
            select ch.user_id, null, t.id, ${NOTIFICATION_TEXT.titlePrefix}::text || t.id, ${message}::text, 'info',
              ${at}::timestamptz
            from t, ch where ${channel} in ('portal', 'both')
            returning ${notifyChannel === null ? sql`id` : sql`pg_notify(${notifyChannel}::text, user_id::text)`}),
          chosen_mail as (insert into mail_requests (user_id, ticket_id, event, message, detail, created_at)
            select ch.user_id, t.id, 'assigned', ${message}::text, ch.reason, ${at}::timestamptz
            from t, ch where ${channel} in ('email', 'both')
            returning id),`,
        events: sql`union all
          select t.id, null::int, 'auto_assigned', 'user_assigned_id', ch.reason, ch.full_name, ${at}::timestamptz
          from t, ch`,
        answer: sql`(select ch.user_id from t, ch) as chosen_id, (select ch.full_name from t, ch) as chosen_name,
          ${teamOf(groupId)} as chosen_team,
          exists (select 1 from chosen_mail) as chosen_mailed,`,
      };
    },

    /** Each user's open (not closed) assigned tickets, from the counters; a user without any is left out. */
    async openLoads(userIds: number[], trx: Kysely<DB> = db): Promise<Map<number, number>> {
      if (userIds.length === 0) return new Map();
      const rows = await trx
        .selectFrom('ticket_counts')
        .select((eb) => ['user_id', eb.fn.sum<number | string>('n').as('open')])
        .where('kind', '=', COUNT_KIND.assigned)
        .where('user_id', 'in', userIds)
        .where('stage', '<>', 'closed')
        .groupBy('user_id')
        .execute();
      return new Map(rows.map((r) => [r.user_id, Number(r.open)]));
    },

    /** The oldest ticket waiting in the group's queue (index `tickets_queue_oldest_idx`). */
    oldestQueued(groupId: number, trx: Kysely<DB> = db) {
      return trx
        .selectFrom('tickets as t')
        .select(['t.id', 't.created_by', 't.name'])
        .where('t.group_id', '=', groupId)
        .where('t.user_assigned_id', 'is', null)
        .where('t.stage', '<>', 'closed')
        .orderBy('t.id')
        .limit(1)
        .executeTakeFirst();
    },

    /** The active groups with automatic assignment the user belongs to, by id (the order their locks are taken). */
    async automaticGroupsOf(userId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('group_members as m')
        .innerJoin('groups as g', 'g.id', 'm.group_id')
        .select('g.id')
        .where('m.user_id', '=', userId)
        .where('g.status_id', '=', RECORD_STATUS.active)
        .where('g.assignment_mode', '<>', 'manual')
        .orderBy('g.id')
        .execute();
      return rows.map((r) => r.id);
    },

    /** The active groups (one, or all by name) with how each hands out tickets. */
    activeGroups(groupId?: number) {
      return db
        .selectFrom('groups')
        .select(['id', 'name', 'assignment_mode', 'assignment_cap'])
        .where('status_id', '=', RECORD_STATUS.active)
        .$if(groupId !== undefined, (q) => q.where('id', '=', groupId!))
        .orderBy('name')
        .execute();
    },

    /** The members of the groups, with their absence, by name. */
    membersOfGroups(groupIds: number[]) {
      if (groupIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('group_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select([
          'm.group_id',
          'm.user_id',
          sql<string>`u.name || ' ' || u.last_name`.as('name'),
          'u.status_id',
          'u.absent_from',
          'u.absent_until',
        ])
        .where('m.group_id', 'in', groupIds)
        .orderBy('name')
        .orderBy('m.user_id')
        .execute();
    },

    absenceOf(userId: number) {
      return db.selectFrom('users').select(['absent_from', 'absent_until']).where('id', '=', userId).executeTakeFirst();
    },

    async setAbsence(userId: number, from: string | null, until: string | null): Promise<void> {
      await db
        .updateTable('users')
        .set({ absent_from: from, absent_until: until, updated_at: nowIso() })
        .where('id', '=', userId)
        .execute();
    },

    /** The groups a user belongs to, by name. */
    groupsOf(userId: number): Promise<TUserGroup[]> {
      return db
        .selectFrom('group_members as m')
        .innerJoin('groups as g', 'g.id', 'm.group_id')
        .select(['g.id', 'g.name', 'm.role'])
        .where('m.user_id', '=', userId)
        .orderBy('g.name')
        .execute();
    },
  };
}
export type GroupsRepository = ReturnType<typeof createGroupsRepository>;
/** A member who may be given tickets, as the automatic assignment reads them (`assignableMembers`). */
export type AssignableMember = Awaited<ReturnType<GroupsRepository['assignableMembers']>>[number];
