import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Who caused a notification ('Diego Hernández te asignó el ticket #61'): the
 * acting user, kept with the notification (null for older ones and when that
 * user is gone).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('notifications')
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
}
