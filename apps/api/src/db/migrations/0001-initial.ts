import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

type Table = CreateTableBuilder<string, string>;

/** The whole first schema, for both dialects. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const pg = dialect === 'postgres';
  const timestamp = pg ? 'timestamptz' : 'text';
  const id = (t: Table) =>
    pg
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  const timestamps = (t: Table) =>
    t.addColumn('created_at', timestamp, (c) => c.notNull()).addColumn('updated_at', timestamp, (c) => c.notNull());
  const ref =
    (table: string, onDelete: 'restrict' | 'cascade' | 'set null' = 'restrict') =>
    (c: ColumnDefinitionBuilder) =>
      c.references(`${table}.id`).onDelete(onDelete);
  const statusColumn = (t: Table) =>
    t.addColumn('status_id', 'integer', (c) => ref('statuses')(c.notNull().defaultTo(1)));

  await db.schema
    .createTable('statuses')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'varchar(40)', (c) => c.notNull())
    .execute();

  const catalog = (name: string, extra: (t: Table) => Table = (t) => t) =>
    extra(
      timestamps(
        statusColumn(id(db.schema.createTable(name)).addColumn('name', 'varchar(100)', (c) => c.notNull().unique())),
      ),
    ).execute();

  for (const name of ['areas', 'categories', 'projects', 'difficulties', 'groups', 'priority_types']) {
    await catalog(name);
  }
  await catalog('ticket_statuses', (t) =>
    t.addColumn('stage', 'varchar(10)', (c) =>
      c
        .notNull()
        .defaultTo('open')
        .check(sql`stage in ('open', 'started', 'closed')`),
    ),
  );
  await catalog('roles', (t) => t.addColumn('is_supervisor', 'integer', (c) => c.notNull().defaultTo(0)));
  await catalog('routes');

  await timestamps(
    statusColumn(
      id(db.schema.createTable('sections'))
        .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
        .addColumn('route_id', 'integer', (c) => ref('routes')(c.notNull())),
    ),
  ).execute();

  await timestamps(
    statusColumn(
      id(db.schema.createTable('routes_permission'))
        .addColumn('route_id', 'integer', (c) => ref('routes', 'cascade')(c.notNull()))
        .addColumn('role_id', 'integer', (c) => ref('roles', 'cascade')(c.notNull()))
        .addUniqueConstraint('routes_permission_route_role_unique', ['route_id', 'role_id']),
    ),
  ).execute();

  await timestamps(
    statusColumn(
      id(db.schema.createTable('sections_permission'))
        .addColumn('section_id', 'integer', (c) => ref('sections', 'cascade')(c.notNull()))
        .addColumn('role_id', 'integer', (c) => ref('roles', 'cascade')(c.notNull()))
        .addColumn('r', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('w', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('u', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('d', 'integer', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('sections_permission_section_role_unique', ['section_id', 'role_id']),
    ),
  ).execute();

  await timestamps(
    statusColumn(
      id(db.schema.createTable('users'))
        .addColumn('name', 'varchar(80)', (c) => c.notNull())
        .addColumn('last_name', 'varchar(80)', (c) => c.notNull())
        .addColumn('second_last_name', 'varchar(80)')
        .addColumn('username', 'varchar(50)', (c) => c.notNull().unique())
        .addColumn('email', 'varchar(120)', (c) => c.notNull().unique())
        .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
        .addColumn('role_id', 'integer', (c) => ref('roles')(c.notNull()))
        .addColumn('area_id', 'integer', ref('areas', 'set null'))
        .addColumn('supervisor_id', 'integer', ref('users', 'set null'))
        .addColumn('branch', 'varchar(80)')
        .addColumn('avatar_path', 'varchar(255)')
        .addColumn('sessions_valid_after', 'bigint', (c) => c.notNull().defaultTo(0)),
    ),
  ).execute();

  await timestamps(
    id(db.schema.createTable('tickets'))
      .addColumn('name', 'varchar(150)', (c) => c.notNull())
      .addColumn('description', 'varchar(2000)', (c) => c.notNull())
      .addColumn('area_id', 'integer', (c) => ref('areas')(c.notNull()))
      .addColumn('project_id', 'integer', (c) => ref('projects')(c.notNull()))
      .addColumn('category_id', 'integer', (c) => ref('categories')(c.notNull()))
      .addColumn('priority_type_id', 'integer', (c) => ref('priority_types')(c.notNull()))
      .addColumn('difficulty_id', 'integer', (c) => ref('difficulties')(c.notNull()))
      .addColumn('status_id', 'integer', (c) => ref('ticket_statuses')(c.notNull()))
      .addColumn('created_by', 'integer', (c) => ref('users')(c.notNull()))
      .addColumn('user_assigned_id', 'integer', ref('users', 'set null')),
  ).execute();

  await timestamps(
    statusColumn(
      id(db.schema.createTable('activities'))
        .addColumn('name', 'varchar(255)', (c) => c.notNull())
        .addColumn('ticket_id', 'integer', (c) => ref('tickets', 'cascade')(c.notNull()))
        .addColumn('user_id', 'integer', (c) => ref('users')(c.notNull())),
    ),
  ).execute();

  await id(db.schema.createTable('notifications'))
    .addColumn('user_id', 'integer', (c) => ref('users', 'cascade')(c.notNull()))
    .addColumn('ticket_id', 'integer', ref('tickets', 'cascade'))
    .addColumn('title', 'varchar(150)', (c) => c.notNull())
    .addColumn('message', 'varchar(500)', (c) => c.notNull())
    .addColumn('type', 'varchar(10)', (c) => c.notNull().defaultTo('info'))
    .addColumn('viewed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('visible', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();

  await id(db.schema.createTable('password_reset_codes'))
    .addColumn('user_id', 'integer', (c) => ref('users', 'cascade')(c.notNull()))
    .addColumn('code_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reset_token_hash', 'varchar(255)')
    .addColumn('reset_expires_at', timestamp)
    .addColumn('used_at', timestamp)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('revoked_tokens')
    .addColumn('jti', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();

  await id(db.schema.createTable('audit_log'))
    .addColumn('event', 'varchar(60)', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('username', 'varchar(120)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('detail', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();

  const indexes: [string, string, string[]][] = [
    ['sections_route_idx', 'sections', ['route_id']],
    ['sections_permission_role_idx', 'sections_permission', ['role_id']],
    ['routes_permission_role_idx', 'routes_permission', ['role_id']],
    ['users_role_idx', 'users', ['role_id']],
    ['users_area_idx', 'users', ['area_id']],
    ['tickets_created_by_idx', 'tickets', ['created_by', 'id']],
    ['tickets_assigned_idx', 'tickets', ['user_assigned_id', 'id']],
    ['tickets_status_idx', 'tickets', ['status_id', 'id']],
    ['activities_ticket_idx', 'activities', ['ticket_id', 'status_id', 'id']],
    ['notifications_user_idx', 'notifications', ['user_id', 'visible', 'id']],
    ['password_reset_codes_user_idx', 'password_reset_codes', ['user_id']],
    ['revoked_tokens_expires_idx', 'revoked_tokens', ['expires_at']],
    ['audit_log_created_idx', 'audit_log', ['created_at']],
  ];
  for (const [name, table, columns] of indexes) {
    await db.schema.createIndex(name).on(table).columns(columns).execute();
  }
}
