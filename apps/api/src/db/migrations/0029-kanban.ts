import type { Kysely } from 'kysely';
import { grantScreen } from './grant-screen.ts';
import { runStatements } from './run-statements.ts';

/**
 * Kanban (/kanban, section kb_main): a column per active ticket status.
 *
 * - `ticket_statuses.wip_limit`: the column's WIP limit (null: none); a column holding more
 *   tickets shows it in a warning colour, nothing is blocked.
 * - A closed status's column shows the tickets changed in the last days: `(status_id,
 *   updated_at, id)` lets its count and pages read only those.
 * - On a database already seeded, the screen's route, section and the roles' permissions (a
 *   fresh database gets them from the seed, seed-data.ts): Administrador everything, Supervisor
 *   and Agente read (moving a card is a ticket update: it needs `u` on the ticket).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `alter table ticket_statuses add column wip_limit integer`,
    `create index tickets_status_updated_idx on tickets (status_id, updated_at, id)`,
  ]);
  await grantScreen(db, {
    route: 'kanban',
    section: 'kb_main',
    grants: [
      { roleId: 1, flags: { r: 1, w: 1, u: 1, d: 1 } },
      { roleId: 2, flags: { r: 1, w: 0, u: 0, d: 0 } },
      { roleId: 3, flags: { r: 1, w: 0, u: 0, d: 0 } },
    ],
  });
}
