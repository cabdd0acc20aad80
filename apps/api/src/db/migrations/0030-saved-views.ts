import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { grantScreen } from './grant-screen.ts';
import { runStatements } from './run-statements.ts';

/**
 * Saved views: a ticket list's search, filters, sort and page size under a name.
 *
 * - `saved_views`: the owner, the name (one per owner), the list it belongs to (`mine`,
 *   `general`, `current`, `old`, `kanban`) and the query as JSON text, which the API validates
 *   with the lists' own contract on every write.
 * - `saved_view_roles`: the roles a view is shared with (none: personal); looked up by role for
 *   the sidebar of everyone in it.
 * - Section vi_main (on the route `views`, which has no screen of its own): w shares a view, u
 *   and d change and delete another person's shared view. On a database already seeded, only
 *   Administrador gets it (a fresh database gets it from the seed, seed-data.ts).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const pg = dialect === 'postgres';
  const [serial, timestamp] = pg
    ? ['serial primary key', 'timestamptz']
    : ['integer primary key autoincrement', 'text'];
  await runStatements(db, [
    `create table saved_views (
      id ${serial},
      owner_id integer not null references users (id) on delete cascade,
      name varchar(60) not null,
      list varchar(10) not null check (list in ('mine', 'general', 'current', 'old', 'kanban')),
      query text not null,
      created_at ${timestamp} not null,
      updated_at ${timestamp} not null
    )`,
    `create unique index saved_views_owner_name_idx on saved_views (owner_id, name)`,
    `create table saved_view_roles (
      view_id integer not null references saved_views (id) on delete cascade,
      role_id integer not null references roles (id) on delete cascade,
      primary key (view_id, role_id)
    )`,
    `create index saved_view_roles_role_idx on saved_view_roles (role_id, view_id)`,
  ]);
  await grantScreen(db, {
    route: 'views',
    section: 'vi_main',
    grants: [{ roleId: 1, flags: { r: 1, w: 1, u: 1, d: 1 } }],
  });
}
