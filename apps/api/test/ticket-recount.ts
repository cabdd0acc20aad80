import type { TicketSortColumn, TicketStage } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../src/db/schema.ts';

/** A ticket row as the recounts of the list tests read it. */
export interface RecountRow {
  id: number;
  name: string;
  description: string;
  stage: TicketStage;
  status_id: number;
  priority_type_id: number;
  project_id: number;
  area_id: number;
  category_id: number;
  difficulty_id: number;
  created_by: number;
  user_assigned_id: number | null;
  created_at: string;
  updated_at: string;
}

/** Every ticket, and each one's rank by name in the database's own collation (a plain ORDER BY). */
export async function readRecountRows(db: Kysely<DB>): Promise<{ rows: RecountRow[]; nameRank: Map<number, number> }> {
  const rows = (await db
    .selectFrom('tickets')
    .select([
      'id',
      'name',
      'description',
      'stage',
      'status_id',
      'priority_type_id',
      'project_id',
      'area_id',
      'category_id',
      'difficulty_id',
      'created_by',
      'user_assigned_id',
      'created_at',
      'updated_at',
    ])
    .execute()) as RecountRow[];
  const byName = await db.selectFrom('tickets').select('id').orderBy('name').orderBy('id').execute();
  return { rows, nameRank: new Map(byName.map((r, i) => [r.id, i])) };
}

/** The ids of these rows in a list's sort order (`id` breaks ties, as the lists do). */
export function sortedIds(
  rows: RecountRow[],
  sort: { by: TicketSortColumn; dir: 'asc' | 'desc' },
  nameRank: Map<number, number>,
): number[] {
  const key = (r: RecountRow): (number | string)[] => {
    switch (sort.by) {
      case 'name':
        return [nameRank.get(r.id)!];
      case 'priority':
        return [r.priority_type_id, r.id];
      case 'status':
        return [r.status_id, r.id];
      case 'project':
        return [r.project_id, r.id];
      case 'updated':
        return [r.updated_at, r.id];
      default:
        return [r.id];
    }
  };
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...rows]
    .sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return (ka[i]! < kb[i]! ? -1 : 1) * sign;
      return 0;
    })
    .map((r) => r.id);
}
