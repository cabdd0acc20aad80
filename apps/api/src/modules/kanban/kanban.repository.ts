import { RECORD_STATUS, type TicketStage } from '@portal/contract';
import type { Database } from '../../db/database.ts';

export interface KanbanStatus {
  id: number;
  name: string;
  stage: TicketStage;
  wip_limit: number | null;
}

const stageOrder: Record<TicketStage, number> = { open: 0, started: 1, closed: 2 };

/** The board's columns: the active ticket statuses, in stage order (open → started → closed), then by id. */
export function createKanbanRepository({ db }: Database) {
  return {
    async columns(): Promise<KanbanStatus[]> {
      const rows = await db
        .selectFrom('ticket_statuses')
        .select(['id', 'name', 'stage', 'wip_limit'])
        .where('status_id', '=', RECORD_STATUS.active)
        .orderBy('id')
        .execute();
      return rows
        .map((r) => ({ ...r, wip_limit: r.wip_limit === null ? null : Number(r.wip_limit) }))
        .sort((a, b) => stageOrder[a.stage] - stageOrder[b.stage] || a.id - b.id);
    },
  };
}
export type KanbanRepository = ReturnType<typeof createKanbanRepository>;
