import type { GroupMemberRole, TGroupMember, TUserGroup } from '@portal/contract';
import { sql, type Kysely } from 'kysely';
import { nowIso, type Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/** Groups as teams: their members (`group_members`). */
export function createGroupsRepository(database: Database) {
  const { db } = database;

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
