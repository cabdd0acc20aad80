import { RECORD_STATUS, type GroupMemberRole, type TGroupMember, type TUserGroup } from '@portal/contract';
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { nowIso, type Database } from '../../db/database.ts';
import { GATE_CTE } from '../../db/insert-after.ts';
import { executePrepared } from '../../db/prepared.ts';
import type { DB } from '../../db/schema.ts';
import { COUNT_KIND } from '../../db/ticket-derivations.ts';

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

/** What a choice of member was made from: the group row and its members as `lockWithMembers` read them. */
interface ChoiceRead {
  group: { id: number; status_id: number; assignment_mode: string; assignment_cap: number | null };
  members: readonly { user_id: number; open: number; last_assigned_user_id: number | null }[];
}

/** Groups as teams: their members (`group_members`). */
export function createGroupsRepository(database: Database) {
  const { db } = database;

  /**
   * The select behind `assignableMembers`. `fresh`: the loads and Rotativa's place read by the
   * functions of migration 0038 (PostgreSQL, under a lock taken in the same statement).
   */
  const membersOf = (trx: Kysely<DB>, groupId: number, { fresh = false } = {}) =>
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
        fresh
          ? sql<number | string | null>`portal_open_assigned(m.user_id)`.as('open')
          : eb
              .selectFrom('ticket_counts as c')
              .select((inner) => inner.fn.sum<number | string>('c.n').as('n'))
              .whereRef('c.user_id', '=', 'm.user_id')
              .where('c.kind', '=', COUNT_KIND.assigned)
              .where('c.stage', '<>', 'closed')
              .$asScalar()
              .as('open'),
      )
      .select((eb) =>
        fresh
          ? sql<number | null>`portal_last_assigned(m.group_id)`.as('last_assigned_user_id')
          : eb
              .selectFrom('group_rotations as g')
              .select('g.last_assigned_user_id')
              .where('g.group_id', '=', groupId)
              .$asScalar()
              .as('last_assigned_user_id'),
      )
      .where('m.group_id', '=', groupId)
      .where('u.status_id', '=', RECORD_STATUS.active)
      .where('r.status_id', '=', RECORD_STATUS.active);

  type MemberRow = Awaited<ReturnType<ReturnType<typeof membersOf>['execute']>>[number];

  /**
   * `lockWithMembers`'s statement: the group row, locked or not, and its members with their loads
   * (locked: read after the lock by the functions of migration 0038).
   */
  const readWithMembers = (trx: Kysely<DB>, groupId: number, lock: boolean) => {
    const row = trx
      .selectFrom('groups')
      .select(['id', 'status_id', 'assignment_mode', 'assignment_cap'])
      .select(sql<number>`nextval('tickets_id_seq')::int`.as('ticket_id'))
      .where('id', '=', groupId);
    return trx
      .selectFrom((lock ? row.forNoKeyUpdate() : row).as('g'))
      .leftJoinLateral(
        () => membersOf(trx, groupId, { fresh: lock }).as('a'),
        (join) => join.onTrue(),
      )
      .selectAll('a')
      .select(['g.id', 'g.status_id as group_status_id', 'g.assignment_mode', 'g.assignment_cap', 'g.ticket_id'])
      .orderBy('a.user_id');
  };
  /**
   * The reads every automatic assignment makes, compiled once per key (group, lock): building
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

    /**
     * PostgreSQL: takes the group row's lock for this transaction (`SELECT … FOR NO KEY UPDATE`)
     * and reads `assignableMembers` in the same statement. The statement's own snapshot predates
     * the lock, so the loads and Rotativa's place are read by functions that take theirs when
     * called, after it (migration 0038). It reserves the id of the ticket to be written too (its
     * assignee's notification names it before it is written). The group, or undefined when it
     * does not exist. Without `lock`, the same read under no lock (`unchangedGate` then holds
     * the creation to what it read).
     */
    async lockWithMembers(groupId: number, trx: Kysely<DB>, { lock = true } = {}) {
      const compiled = compiledOnce(`with:${groupId}:${lock}`, () => readWithMembers(trx, groupId, lock));
      const { rows } = await executePrepared(trx, { compile: () => compiled });
      const [first] = rows;
      if (!first) return undefined;
      return {
        group: {
          id: first.id,
          status_id: first.group_status_id,
          assignment_mode: first.assignment_mode,
          assignment_cap: first.assignment_cap,
        },
        // The left join's member columns are all null on the one row of a group without members.
        members: rows.flatMap((r) => (r.user_id === null ? [] : [withOpen(r as MemberRow)])),
        ticketId: first.ticket_id,
      };
    },

    /**
     * PostgreSQL: CTEs for a statement that writes a group's next ticket with a member chosen
     * from an unlocked read (`lockWithMembers` without `lock`), each followed by a comma: the
     * group row's lock, then `GATE_CTE`, which has a row only when what the choice read is
     * still so under the lock (the group's mode, cap and state, Rotativa's place, each member's
     * open tickets; read by the functions of migrations 0038 and 0040, after the lock). The
     * statement writes only when it has one; otherwise the choice is made again, under the lock.
     */
    unchangedGate({ group, members }: ChoiceRead) {
      const last = members[0]?.last_assigned_user_id ?? null;
      return sql`group_lock as materialized (
          select id from groups
          where id = ${group.id}::int and status_id = ${group.status_id}::int
            and assignment_mode = ${group.assignment_mode}::text
            and assignment_cap is not distinct from ${group.assignment_cap}::int
          for no key update),
        ${sql.raw(GATE_CTE)} as (
          select 1 from group_lock g
          where portal_last_assigned(g.id) is not distinct from ${last}::int
            and portal_open_assigned_each(${members.map((m) => m.user_id)}::int[]) = ${members.map((m) => m.open)}::bigint[]),`;
    },

    rotate: writeRotation,

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
