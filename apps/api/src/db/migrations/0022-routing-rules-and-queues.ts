import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { grantScreen } from './grant-screen.ts';
import { runStatements } from './run-statements.ts';

/**
 * Tickets reach their team by themselves:
 *
 * - `routing_rules` (Reglas de asignación, /routing-rules, section rr_main): ordered by
 *   `position`, each with optional conditions on area, category, project and priority (null:
 *   any) and the group a matching new ticket goes to; the first active matching rule wins. On
 *   PostgreSQL a write is announced as `catalogs` (every process forgets its copies).
 * - Colas (/queues, section qu_main): a group's queue is its unassigned tickets that are not
 *   closed, most urgent first; the partial index `tickets_queue_idx` holds exactly those, in
 *   that order, so a queue's page and its bounded count read only its own rows.
 * - On a database already seeded, both screens' routes, sections and the roles' permissions
 *   (a fresh database gets them from the seed, seed-data.ts): Administrador everything;
 *   Supervisor reads the rules and takes from every queue; Agente takes from their groups' queues.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const pg = dialect === 'postgres';
  const [serial, timestamp] = pg
    ? ['serial primary key', 'timestamptz']
    : ['integer primary key autoincrement', 'text'];
  await runStatements(db, [
    `create table routing_rules (
      id ${serial},
      name varchar(100) not null unique,
      position integer not null,
      area_id integer references areas (id),
      category_id integer references categories (id),
      project_id integer references projects (id),
      priority_type_id integer references priority_types (id),
      group_id integer not null references groups (id),
      status_id integer not null default 1 references statuses (id),
      created_at ${timestamp} not null,
      updated_at ${timestamp} not null
    )`,
    `create index routing_rules_position_idx on routing_rules (position, id)`,
    // Every process keeps the rules' list answers and the rules themselves: a write is announced to all.
    ...(pg
      ? [
          `create trigger routing_rules_invalidate after insert or update or delete on routing_rules
            for each statement execute function portal_invalidate_statement('catalogs')`,
        ]
      : []),
    `create index tickets_queue_idx on tickets (group_id, priority_type_id desc, id)
      where user_assigned_id is null and group_id is not null and stage <> 'closed'`,
  ]);
  await grantScreen(db, {
    route: 'routing-rules',
    section: 'rr_main',
    grants: [
      { roleId: 1, flags: { r: 1, w: 1, u: 1, d: 1 } },
      { roleId: 2, flags: { r: 1, w: 0, u: 0, d: 0 } },
    ],
  });
  await grantScreen(db, {
    route: 'queues',
    section: 'qu_main',
    grants: [
      { roleId: 1, flags: { r: 1, w: 1, u: 1, d: 1 } },
      { roleId: 2, flags: { r: 1, w: 1, u: 0, d: 0 } },
      { roleId: 3, flags: { r: 1, w: 1, u: 0, d: 0 } },
    ],
  });
}
