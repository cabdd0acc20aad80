import { recordStatusName, RECORD_STATUS, type TListQuery } from '@portal/contract';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { likePattern, nowIso, type Database } from '../../db/database.ts';
import { flatPage, pageWithTotal } from '../../db/paging.ts';
import type { CatalogDefinition } from './catalog.definitions.ts';

type Row = Record<string, unknown>;
// The generic catalogue works on tables chosen at run time; each record's shape is checked by its contract schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySelect = SelectQueryBuilder<any, any, any>;

export function createCatalogRepository(database: Database, def: CatalogDefinition) {
  const db = database.db as unknown as AnyDb;

  const withReferences = (): AnySelect => {
    let q: AnySelect = db.selectFrom(`${def.table} as t`);
    for (const ref of def.references) {
      const [table, key, foreignKey] = [`${ref.table} as ${ref.as}`, `${ref.as}.id`, `t.${ref.column}`];
      q = ref.optional ? q.leftJoin(table, key, foreignKey) : q.innerJoin(table, key, foreignKey);
    }
    if (def.readBeside) q = q.leftJoin(`${def.readBeside.table} as beside`, `beside.${def.readBeside.key}`, 't.id');
    return q;
  };

  const selectRecord = (q: AnySelect): AnySelect =>
    q.select([
      't.id',
      't.status_id',
      ...def.columns.map((c) => `t.${c}`),
      ...Object.entries(def.readBeside?.columns ?? {}).map(([as, column]) => `beside.${column} as ${as}`),
      ...def.references.map((r) => sql<string>`${sql.raw(r.label ?? `${r.as}.name`)}`.as(`${r.as}__name`)),
    ]);

  const toRecord = (row: Row): Row => {
    const decoded = def.decode ? def.decode(row) : row;
    const record: Row = { ...decoded, status: { id: row.status_id, name: recordStatusName(Number(row.status_id)) } };
    for (const ref of def.references) {
      const id = row[ref.column];
      record[ref.as] = id == null ? null : { id, name: row[`${ref.as}__name`] };
      delete record[`${ref.as}__name`];
    }
    return record;
  };

  const searchFilter = (q: AnySelect, search: string): AnySelect => {
    if (!search) return q;
    const pattern = likePattern(search);
    return q.where((eb) =>
      eb.or(def.searchColumns.map((c) => sql<boolean>`${sql.ref(c)} ${sql.raw(database.like)} ${pattern} escape '\\'`)),
    );
  };

  return {
    async list({ search, ...paging }: TListQuery) {
      const filtered = searchFilter(withReferences(), search);
      const ordered = (q: AnySelect) =>
        def.positionColumn
          ? q.orderBy(`t.${def.positionColumn}`, 'asc').orderBy('t.id', 'asc')
          : q.orderBy('t.id', 'desc');
      const { rows, total } = await pageWithTotal(filtered, (q) => ordered(selectRecord(q)), paging);
      return flatPage(rows.map(toRecord), total, paging);
    },

    async findById(id: number): Promise<Row | undefined> {
      const row = await selectRecord(withReferences()).where('t.id', '=', id).executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },

    async exists(table: string, id: number, { isActiveOnly = false } = {}): Promise<boolean> {
      const row = await db
        .selectFrom(table)
        .select('id')
        .where('id', '=', id)
        .$if(isActiveOnly, (q) => q.where('status_id', '=', RECORD_STATUS.active))
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The unique field groups whose values another row already holds. */
    async findConflicts(values: Row, exceptId?: number): Promise<string[][]> {
      const conflicts: string[][] = [];
      for (const group of def.unique) {
        if (group.some((f) => values[f] === undefined)) continue;
        let q = db.selectFrom(def.table).select('id');
        for (const f of group) {
          const value = values[f];
          q =
            value === null
              ? q.where(f, 'is', null)
              : def.uniqueIgnoringCase?.includes(f) && typeof value === 'string'
                ? q.where((eb) => eb(eb.fn('lower', [eb.ref(f)]), '=', value.toLowerCase()))
                : q.where(f, '=', value);
        }
        if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
        if (await q.executeTakeFirst()) conflicts.push(group);
      }
      return conflicts;
    },

    async insert(values: Row): Promise<number> {
      const now = nowIso();
      const last = def.positionColumn && {
        [def.positionColumn]: sql`(select coalesce(max(${sql.ref(def.positionColumn)}), 0) + 1 from ${sql.table(def.table)})`,
      };
      const row = await db
        .insertInto(def.table)
        .values({ ...values, ...last, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },

    async update(id: number, values: Row): Promise<boolean> {
      const result = await db
        .updateTable(def.table)
        .set({ ...values, updated_at: nowIso() })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * Moves a record of an ordered catalogue to `position` (1 first; past the end: last) and
     * numbers every record again 1…n in one transaction; false when it does not exist.
     */
    async move(id: number, position: number): Promise<boolean> {
      const column = def.positionColumn!;
      return db.transaction().execute(async (trx) => {
        const rows = await trx
          .selectFrom(def.table)
          .select(['id', column])
          .orderBy(column)
          .orderBy('id')
          // Two moves at once must not interleave their renumbering.
          .$if(database.dialect === 'postgres', (q) => q.forUpdate())
          .execute();
        const ids: number[] = rows.map((r) => Number(r.id));
        if (!ids.includes(id)) return false;
        const order = ids.filter((x) => x !== id);
        order.splice(Math.min(position, ids.length) - 1, 0, id);
        const now = nowIso();
        for (const [index, rowId] of order.entries()) {
          if (Number(rows.find((r) => Number(r.id) === rowId)![column]) === index + 1) continue;
          await trx
            .updateTable(def.table)
            .set({ [column]: index + 1, updated_at: now })
            .where('id', '=', rowId)
            .execute();
        }
        return true;
      });
    },

    async activeOptions({ isPrivilegedOnly = false } = {}): Promise<{ id: number; name: string }[]> {
      const label = def.optionLabel ?? 't.name';
      const rows = await db
        .selectFrom(`${def.table} as t`)
        .select(['t.id', sql<string>`${sql.raw(label)}`.as('name')])
        .where('t.status_id', '=', RECORD_STATUS.active)
        .$if(isPrivilegedOnly, (q) =>
          q
            .innerJoin('roles as privileged_role', 'privileged_role.id', 't.role_id')
            .where('privileged_role.is_supervisor', '=', 1)
            .where('privileged_role.status_id', '=', RECORD_STATUS.active),
        )
        .orderBy('name')
        .execute();
      return rows.map((r) => ({ id: Number(r.id), name: String(r.name) }));
    },
  };
}
export type CatalogRepository = ReturnType<typeof createCatalogRepository>;
