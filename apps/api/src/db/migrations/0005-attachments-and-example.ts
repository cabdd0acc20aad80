import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

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

  await addExampleScreen(db, dialect);
}

async function addExampleScreen(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // An empty database is seeded after the migrations, with the showcase already in its permission model.
  const seeded = await sql<{ id: number }>`select id from roles where id = 1`.execute(db);
  if (seeded.rows.length === 0) return;
  const exists = await sql<{ id: number }>`select id from routes where name = 'example'`.execute(db);
  if (exists.rows.length > 0) return;

  const now = dialect === 'postgres' ? sql`now()` : sql`${new Date().toISOString()}`;
  const route = await sql<{ id: number }>`
    insert into routes (name, status_id, created_at, updated_at) values ('example', 1, ${now}, ${now}) returning id
  `.execute(db);
  const routeId = route.rows[0]!.id;
  const section = await sql<{ id: number }>`
    insert into sections (name, route_id, status_id, created_at, updated_at)
    values ('ex_main', ${routeId}, 1, ${now}, ${now}) returning id
  `.execute(db);
  const sectionId = section.rows[0]!.id;
  await sql`
    insert into routes_permission (route_id, role_id, status_id, created_at, updated_at)
    values (${routeId}, 1, 1, ${now}, ${now})
  `.execute(db);
  await sql`
    insert into sections_permission (section_id, role_id, r, w, u, d, status_id, created_at, updated_at)
    values (${sectionId}, 1, 1, 1, 1, 1, 1, ${now}, ${now})
  `.execute(db);
}
