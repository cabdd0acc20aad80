import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * PostgreSQL: a `(column, id)` index for the filters that had none (area, category,
 * difficulty), so every filter of the ticket lists reads its ids in an id window from an
 * index alone (ticket-list.repository.ts counts a window by merge-joining these on the id). SQLite
 * reads the same filters from the FTS5 `attrs` tokens and needs none.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const column of ['area_id', 'category_id', 'difficulty_id']) {
    await db.schema
      .createIndex(`tickets_${column.replace('_id', '')}_idx`)
      .ifNotExists()
      .on('tickets')
      .columns([column, 'id'])
      .execute();
  }
}
