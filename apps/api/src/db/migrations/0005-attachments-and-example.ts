import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { grantScreen } from './grant-screen.ts';

/**
 * Ticket attachments stored in the database (so every API process and a backup
 * see the same files): one row per file and its bytes in chunks of
 * ATTACHMENT_CHUNK_BYTES, read and written one chunk at a time.
 *
 * Also gives existing databases the /example showcase (route `example`, section
 * `ex_main`) for role 1, Administrador; a fresh database gets them from the seed.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const pg = dialect === 'postgres';
  const timestamp = pg ? 'timestamptz' : 'text';

  await (
    pg
      ? db.schema.createTable('ticket_attachments').addColumn('id', 'serial', (c) => c.primaryKey())
      : db.schema.createTable('ticket_attachments').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('type', 'varchar(40)', (c) => c.notNull())
    .addColumn('uploaded_by', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ticket_attachments_ticket_idx')
    .on('ticket_attachments')
    .columns(['ticket_id', 'id'])
    .execute();

  await db.schema
    .createTable('attachment_chunks')
    .addColumn('attachment_id', 'integer', (c) => c.notNull().references('ticket_attachments.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', pg ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('attachment_chunks_pk', ['attachment_id', 'seq'])
    .execute();

  await addExampleScreen(db);
}

async function addExampleScreen(db: Kysely<unknown>): Promise<void> {
  await grantScreen(db, {
    route: 'example',
    section: 'ex_main',
    grants: [{ roleId: 1, flags: { r: 1, w: 1, u: 1, d: 1 } }],
  });
}
