import { RECORD_STATUS } from '@portal/contract';
import type { Database } from '../../db/database.ts';
import { createLoadingCache } from '../../lib/loading-cache.ts';
import type { NotificationBus } from '../notifications/notifications.bus.ts';

/** The values of a new ticket a routing rule looks at. */
export interface RoutedTicket {
  area_id: number;
  category_id: number;
  project_id: number;
  priority_type_id: number;
}

interface Rule extends Partial<Record<keyof RoutedTicket, number | null>> {
  group_id: number;
}

const conditions: (keyof RoutedTicket)[] = ['area_id', 'category_id', 'project_id', 'priority_type_id'];

/**
 * Reglas de asignación: a new ticket without a group goes to the group of the first active
 * rule (in their order) whose every condition it meets (a condition left empty meets any
 * value) and whose group is active; none matching leaves it without one. The active rules
 * are kept in memory, in order, until the bus announces a write to them or to the groups
 * (`catalogs`), so routing a ticket reads nothing.
 */
export function createTicketRouter(database: Database, bus: Pick<NotificationBus, 'onInvalidate' | 'canCache'>) {
  const rules = createLoadingCache<'active', Rule[]>(1, () => bus.canCache());
  bus.onInvalidate(({ kind }) => {
    if (kind === 'catalogs' || kind === 'all') rules.clear();
  });
  const loadRules = () =>
    database.db
      .selectFrom('routing_rules as r')
      .innerJoin('groups as g', 'g.id', 'r.group_id')
      .select(['r.area_id', 'r.category_id', 'r.project_id', 'r.priority_type_id', 'r.group_id'])
      .where('r.status_id', '=', RECORD_STATUS.active)
      .where('g.status_id', '=', RECORD_STATUS.active)
      .orderBy('r.position')
      .orderBy('r.id')
      .execute();

  return {
    /** The group the rules send this ticket to, or null. */
    async groupFor(ticket: RoutedTicket): Promise<number | null> {
      const active = await rules.get('active', loadRules);
      const rule = active.find((r) => conditions.every((c) => r[c] == null || Number(r[c]) === Number(ticket[c])));
      return rule?.group_id ?? null;
    },
  };
}
export type TicketRouter = ReturnType<typeof createTicketRouter>;
