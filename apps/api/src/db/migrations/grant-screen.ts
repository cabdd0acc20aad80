import type { Generated, Kysely } from 'kysely';

interface Stamped {
  id: Generated<number>;
  status_id: number;
  created_at: string;
  updated_at: string;
}

/*
 * Part of the migrations' history, like run-statements.ts: the screen migrations call it, so it
 * never changes. A migration that needs something else writes its own.
 */

/** The permission tables as the screen migrations found them. */
interface ScreenTables {
  routes: Stamped & { name: string };
  sections: Stamped & { name: string; route_id: number };
  roles: Stamped & { name: string };
  routes_permission: Stamped & { route_id: number; role_id: number };
  sections_permission: Stamped & { section_id: number; role_id: number; r: number; w: number; u: number; d: number };
}

type Flag = 0 | 1;

export interface ScreenGrant {
  roleId: number;
  flags: { r: Flag; w: Flag; u: Flag; d: Flag };
}

/**
 * Gives a database seeded before a new screen its route, its section and the
 * roles' permissions on them, as the seed gives a fresh one (seed-data.ts).
 * An empty database is left alone: the seed runs after the migrations. Whatever
 * already exists is kept, so running it twice changes nothing.
 */
export async function grantScreen(
  database: Kysely<unknown>,
  { route, section, grants }: { route: string; section: string; grants: ScreenGrant[] },
): Promise<void> {
  const db = database as unknown as Kysely<ScreenTables>;
  const isSeeded = await db.selectFrom('routes').select('id').limit(1).executeTakeFirst();
  if (!isSeeded) return;

  const now = new Date().toISOString();
  const stamp = { status_id: 1, created_at: now, updated_at: now };
  const routeId =
    (await db.selectFrom('routes').select('id').where('name', '=', route).executeTakeFirst())?.id ??
    (
      await db
        .insertInto('routes')
        .values({ name: route, ...stamp })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const sectionId =
    (await db.selectFrom('sections').select('id').where('name', '=', section).executeTakeFirst())?.id ??
    (
      await db
        .insertInto('sections')
        .values({ name: section, route_id: routeId, ...stamp })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  for (const { roleId, flags } of grants) {
    const role = await db.selectFrom('roles').select('id').where('id', '=', roleId).executeTakeFirst();
    if (!role) continue;
    const hasRoute = await db
      .selectFrom('routes_permission')
      .select('id')
      .where('route_id', '=', routeId)
      .where('role_id', '=', role.id)
      .executeTakeFirst();
    if (!hasRoute) {
      await db
        .insertInto('routes_permission')
        .values({ route_id: routeId, role_id: role.id, ...stamp })
        .execute();
    }
    const hasSection = await db
      .selectFrom('sections_permission')
      .select('id')
      .where('section_id', '=', sectionId)
      .where('role_id', '=', role.id)
      .executeTakeFirst();
    if (!hasSection) {
      await db
        .insertInto('sections_permission')
        .values({ section_id: sectionId, role_id: role.id, ...flags, ...stamp })
        .execute();
    }
  }
}
