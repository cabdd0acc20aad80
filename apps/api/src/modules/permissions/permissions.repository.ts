import type { PermissionFlag, TSectionPermission } from '@portal/contract';
import { RECORD_STATUS } from '@portal/contract';
import type { Database } from '../../db/database.ts';

const ACTIVE = RECORD_STATUS.active;

/**
 * A role may use a section when it holds an active permission on the section
 * and an active permission on the section's route, and all of them are active.
 */
export function createPermissionsRepository({ db }: Database) {
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

  return {
    async hasFlag(roleId: number, sectionName: string, flag: PermissionFlag): Promise<boolean> {
      const row = await grantedSections(roleId)
        .where('s.name', '=', sectionName)
        .where(`sp.${flag}`, '=', 1)
        .select('sp.id')
        .executeTakeFirst();
      return row !== undefined;
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
