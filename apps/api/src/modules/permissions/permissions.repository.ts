import type { PermissionFlag, TSectionPermission } from '@portal/contract';
import { RECORD_STATUS } from '@portal/contract';
import type { Database } from '../../db/database.ts';

const ACTIVE = RECORD_STATUS.active;

type Flags = Record<PermissionFlag, number>;

/** How long a role's grants are reused before being read again. */
export const GRANTS_CACHE_MS = 5_000;

/**
 * A role may use a section when it holds an active permission on the section
 * and an active permission on the section's route, and all of them are active.
 *
 * Every signed-in request asks this, so each role's grants are read in one query
 * and kept for GRANTS_CACHE_MS. Changes made through this process's catalogue
 * API drop the cache at once (`invalidate`); another process sharing the database
 * sees them within GRANTS_CACHE_MS.
 */
export function createPermissionsRepository({ db }: Database, { cacheMs = GRANTS_CACHE_MS } = {}) {
  const grantedSections = (roleId: number) =>
    db
      .selectFrom('sections_permission as sp')
      .innerJoin('sections as s', 's.id', 'sp.section_id')
      .innerJoin('routes as ro', 'ro.id', 's.route_id')
      .innerJoin('routes_permission as rp', (j) =>
        j.onRef('rp.route_id', '=', 'ro.id').onRef('rp.role_id', '=', 'sp.role_id'),
      )
      .where('sp.role_id', '=', roleId)
      .where('sp.status_id', '=', ACTIVE)
      .where('s.status_id', '=', ACTIVE)
      .where('ro.status_id', '=', ACTIVE)
      .where('rp.status_id', '=', ACTIVE);

  const cache = new Map<number, { at: number; grants: Promise<Map<string, Flags>> }>();
  const readGrants = async (roleId: number) => {
    const rows = await grantedSections(roleId).select(['s.name', 'sp.r', 'sp.w', 'sp.u', 'sp.d']).execute();
    return new Map(rows.map(({ name, ...flags }) => [name, flags]));
  };
  const grantsOf = (roleId: number): Promise<Map<string, Flags>> => {
    const cached = cache.get(roleId);
    if (cached && Date.now() - cached.at < cacheMs) return cached.grants;
    const grants = readGrants(roleId);
    cache.set(roleId, { at: Date.now(), grants });
    grants.catch(() => cache.delete(roleId));
    return grants;
  };

  return {
    async hasFlag(roleId: number, sectionName: string, flag: PermissionFlag): Promise<boolean> {
      return (await grantsOf(roleId)).get(sectionName)?.[flag] === 1;
    },

    /** Forgets every cached grant (after a change to roles, routes, sections or their permissions). */
    invalidate(): void {
      cache.clear();
    },

    async findRoute(routeName: string) {
      return db
        .selectFrom('routes')
        .select(['id', 'name'])
        .where('name', '=', routeName)
        .where('status_id', '=', ACTIVE)
        .executeTakeFirst();
    },

    /** Every active section of the route with the role's flags (0 where it holds none). */
    async sectionsOfRoute(roleId: number, routeId: number): Promise<TSectionPermission[]> {
      const sections = await db
        .selectFrom('sections')
        .select(['id', 'name'])
        .where('route_id', '=', routeId)
        .where('status_id', '=', ACTIVE)
        .orderBy('id')
        .execute();
      const granted = await grantedSections(roleId)
        .where('s.route_id', '=', routeId)
        .select(['sp.section_id', 'sp.r', 'sp.w', 'sp.u', 'sp.d'])
        .execute();
      const bySection = new Map(granted.map((g) => [g.section_id, g]));
      return sections.map((s) => {
        const g = bySection.get(s.id);
        return { name: s.name, r: g?.r ?? 0, w: g?.w ?? 0, u: g?.u ?? 0, d: g?.d ?? 0 };
      });
    },

    async routesOfRole(roleId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('routes_permission as rp')
        .innerJoin('routes as ro', 'ro.id', 'rp.route_id')
        .select('ro.name')
        .where('rp.role_id', '=', roleId)
        .where('rp.status_id', '=', ACTIVE)
        .where('ro.status_id', '=', ACTIVE)
        .orderBy('ro.id')
        .execute();
      return rows.map((r) => r.name);
    },
  };
}
export type PermissionsRepository = ReturnType<typeof createPermissionsRepository>;
