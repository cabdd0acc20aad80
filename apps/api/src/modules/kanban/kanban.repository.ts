import { RECORD_STATUS, type TicketStage } from '@portal/contract';
import type { Database } from '../../db/database.ts';
import { createLoadingCache } from '../../lib/loading-cache.ts';
import type { NotificationBus } from '../notifications/notifications.bus.ts';

export interface KanbanStatus {
  id: number;
  name: string;
  stage: TicketStage;
  wip_limit: number | null;
}

const stageOrder: Record<TicketStage, number> = { open: 0, started: 1, closed: 2 };

/**
 * The board's columns: the active ticket statuses, in stage order (open → started → closed), then
 * by id. Kept in memory, as the names beside tickets are, and forgotten when a catalogue changes
 * (ticket statuses are one) or while the bus cannot vouch for them.
 */
export function createKanbanRepository({ db }: Database, bus: Pick<NotificationBus, 'onInvalidate' | 'canCache'>) {
  const kept = createLoadingCache<'columns', KanbanStatus[]>(1, () => bus.canCache());
  bus.onInvalidate((invalidation) => {
    if (invalidation.kind === 'catalogs' || invalidation.kind === 'all') kept.clear();
  });

  async function load(): Promise<KanbanStatus[]> {
    const rows = await db
      .selectFrom('ticket_statuses')
      .select(['id', 'name', 'stage', 'wip_limit'])
      .where('status_id', '=', RECORD_STATUS.active)
      .orderBy('id')
      .execute();
    return rows
      .map((r) => ({ ...r, wip_limit: r.wip_limit === null ? null : Number(r.wip_limit) }))
      .sort((a, b) => stageOrder[a.stage] - stageOrder[b.stage] || a.id - b.id);
  }

  return {
    columns: (): Promise<readonly KanbanStatus[]> => kept.get('columns', load),
  };
}
export type KanbanRepository = ReturnType<typeof createKanbanRepository>;
