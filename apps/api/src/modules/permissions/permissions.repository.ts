import type { PermissionFlag, TSectionPermission } from '@portal/contract';
import { RECORD_STATUS } from '@portal/contract';
import type { Database } from '../../db/database.ts';
import type { NotificationBus } from '../notifications/notifications.bus.ts';

const ACTIVE = RECORD_STATUS.active;

type Flags = Record<PermissionFlag, number>;

/**
 * A role may use a section when it holds an active permission on the section
 * and an active permission on the section's route, and all of them are active.
 *
 * Every signed-in request asks this, so each role's grants are read in one query
 * and kept until the bus announces a change to roles, routes, sections or their
 * permissions: at once for writes of this process, and on PostgreSQL for writes
 * of any process (triggers and LISTEN/NOTIFY, migration 0006). While the bus
 * cannot vouch for that (`canCache`), every check reads the database.
 */
export function createPermissionsRepository({ db }: Database, bus: Pick<NotificationBus, 'onInvalidate' | 'canCache'>) {
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

  const cache = new Map<number, Promise<Map<string, Flags>>>();
  let generation = 0;
  const invalidate = () => {
    generation += 1;
    cache.clear();
  };
  bus.onInvalidate(({ kind }) => {
    if (kind === 'grants' || kind === 'roles' || kind === 'all') invalidate();
  });

  const readGrants = async (roleId: number) => {
    const rows = await grantedSections(roleId).select(['s.name', 'sp.r', 'sp.w', 'sp.u', 'sp.d']).execute();
    return new Map(rows.map(({ name, ...flags }) => [name, flags]));
  };
  const grantsOf = (roleId: number): Promise<Map<string, Flags>> => {
    if (!bus.canCache()) return readGrants(roleId);
    const cached = cache.get(roleId);
    if (cached) return cached;
    const startedAt = generation;
    const grants = readGrants(roleId);
    cache.set(roleId, grants);
    const forget = () => {
      if (cache.get(roleId) === grants) cache.delete(roleId);
    };
    grants.then(() => {
      if (generation !== startedAt) forget();
    }, forget);
    return grants;
  };

  return {
    async hasFlag(roleId: number, sectionName: string, flag: PermissionFlag): Promise<boolean> {
      return (await grantsOf(roleId)).get(sectionName)?.[flag] === 1;
    },

    /** Forgets every cached grant (after a change to roles, routes, sections or their permissions). */
    invalidate,

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
