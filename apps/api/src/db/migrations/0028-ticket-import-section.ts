import type { Kysely } from 'kysely';
import { grantScreen } from './grant-screen.ts';

const ROUTE = 'general-tickets';
const SECTION = 'ti_import';
const ADMINISTRATOR_ROLE_ID = 1;

/**
 * Importar CSV on Tickets Generales (section ti_import of the general-tickets route): on a
 * database already seeded, the section and Administrador's permissions on it (a fresh
 * database gets them from the seed, seed-data.ts). No other role gets it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await grantScreen(db, {
    route: ROUTE,
    section: SECTION,
    grants: [{ roleId: ADMINISTRATOR_ROLE_ID, flags: { r: 1, w: 1, u: 1, d: 1 } }],
  });
}
