import { RECORD_STATUS, type SavedViewList } from '@portal/contract';
import { sql, type Kysely } from 'kysely';
import { nowIso, type Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/** A saved view as stored: its query still JSON text, with who owns it and the roles it is shared with. */
export interface SavedViewRow {
  id: number;
  owner_id: number;
  owner_name: string;
  name: string;
  list: SavedViewList;
  query: string;
  role_ids: number[];
}

export interface SavedViewValues {
  name: string;
  list: SavedViewList;
  query: string;
  role_ids: number[];
}

/** The tables a ticket filter's ids may refer to (TICKET_FIELDS `references`). */
export type FilterValueTable =
  'priority_types' | 'ticket_statuses' | 'projects' | 'areas' | 'categories' | 'difficulties' | 'groups' | 'users';

export function createSavedViewsRepository(database: Database) {
  const { db } = database;

  const views = (q: Kysely<DB> = db) =>
    q
      .selectFrom('saved_views as v')
      .innerJoin('users as u', 'u.id', 'v.owner_id')
      .select(['v.id', 'v.owner_id', 'v.name', 'v.list', 'v.query'])
      .select(sql<string>`u.name || ' ' || u.last_name`.as('owner_name'));

  async function withRoles(rows: Omit<SavedViewRow, 'role_ids'>[], q: Kysely<DB> = db): Promise<SavedViewRow[]> {
    if (rows.length === 0) return [];
    const shares = await q
      .selectFrom('saved_view_roles')
      .select(['view_id', 'role_id'])
      .where(
        'view_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('role_id')
      .execute();
    return rows.map((r) => ({
      ...r,
      role_ids: shares.filter((s) => s.view_id === r.id).map((s) => s.role_id),
    }));
  }

  async function writeRoles(trx: Kysely<DB>, viewId: number, roleIds: number[]) {
    await trx.deleteFrom('saved_view_roles').where('view_id', '=', viewId).execute();
    if (roleIds.length > 0) {
      await trx
        .insertInto('saved_view_roles')
        .values(roleIds.map((role_id) => ({ view_id: viewId, role_id })))
        .execute();
    }
  }

  return {
    /** The caller's own views and those shared with their role, by name. */
    async visibleTo(userId: number, roleId: number): Promise<SavedViewRow[]> {
      const rows = await views()
        .where((eb) =>
          eb.or([
            eb('v.owner_id', '=', userId),
            eb('v.id', 'in', eb.selectFrom('saved_view_roles').select('view_id').where('role_id', '=', roleId)),
          ]),
        )
        .orderBy('v.name')
        .orderBy('v.id')
        .execute();
      return withRoles(rows);
    },

    async find(id: number, q: Kysely<DB> = db): Promise<SavedViewRow | undefined> {
      const row = await views(q).where('v.id', '=', id).executeTakeFirst();
      return row ? (await withRoles([row], q))[0] : undefined;
    },

    async countOwnedBy(userId: number): Promise<number> {
      const { n } = await db
        .selectFrom('saved_views')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('owner_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    /** The view and its roles in one transaction (a unique name per owner is the index's to keep). */
    async create(ownerId: number, values: SavedViewValues): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const now = nowIso();
        const { id } = await trx
          .insertInto('saved_views')
          .values({
            owner_id: ownerId,
            name: values.name,
            list: values.list,
            query: values.query,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await writeRoles(trx, id, values.role_ids);
        return id;
      });
    },

    /** Changes what is given (name, query, roles) in one transaction. */
    async update(id: number, changes: Partial<Omit<SavedViewValues, 'list'>>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const { role_ids: roleIds, ...columns } = changes;
        await trx
          .updateTable('saved_views')
          .set({ ...columns, updated_at: nowIso() })
          .where('id', '=', id)
          .execute();
        if (roleIds) await writeRoles(trx, id, roleIds);
      });
    },

    async remove(id: number): Promise<void> {
      await db.deleteFrom('saved_views').where('id', '=', id).execute();
    },

    /** The active roles, by name: whom a view may be shared with. */
    activeRoles() {
      return db
        .selectFrom('roles')
        .select(['id', 'name'])
        .where('status_id', '=', RECORD_STATUS.active)
        .orderBy('name')
        .execute();
    },

    /** Of these ids, those of a row of `table` (its name and whether it is active). */
    async filterValues(
      table: FilterValueTable,
      ids: number[],
    ): Promise<{ id: number; name: string; status_id: number }[]> {
      if (ids.length === 0) return [];
      const name = table === 'users' ? sql<string>`name || ' ' || last_name` : sql<string>`name`;
      return db
        .selectFrom(table)
        .select(['id', 'status_id'])
        .select(name.as('name'))
        .where('id', 'in', ids)
        .execute() as Promise<{ id: number; name: string; status_id: number }[]>;
    },
  };
}
export type SavedViewsRepository = ReturnType<typeof createSavedViewsRepository>;
