import { RECORD_STATUS, type TicketStage } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { compileCalendar, InvalidCalendarError, type WorkingCalendar } from '../../lib/business-time.ts';
import { createLoadingCache } from '../../lib/loading-cache.ts';
import type { Invalidation, NotificationBus } from '../notifications/notifications.bus.ts';
import type { SlaRule, TicketSla } from './sla-clock.ts';

/** What the clock reads of the catalogues: the active policies, and each status's stage and pause. */
export interface SlaCatalog {
  rules: SlaRule[];
  statuses: Map<number, { stage: TicketStage; pausesSla: boolean }>;
}

export const SLA_COLUMNS = [
  'sla_policy_id',
  'first_response_due_at',
  'resolution_due_at',
  'sla_at_risk_at',
  'first_responded_at',
  'resolved_at',
  'sla_paused_minutes',
  'sla_paused_at',
  'sla_state',
] as const;

/**
 * The SLA policies with their calendars compiled, and the statuses, kept in memory and
 * dropped on the bus's `catalogs` invalidations (both catalogues and the statuses announce
 * their writes). Active policies on active calendars only.
 */
export function createSlaRepository(database: Database, bus: Pick<NotificationBus, 'onInvalidate' | 'canCache'>) {
  const { db } = database;
  const cache = createLoadingCache<'all', SlaCatalog>(1, () => bus.canCache());
  bus.onInvalidate((invalidation: Invalidation) => {
    if (invalidation.kind === 'catalogs' || invalidation.kind === 'all') cache.clear();
  });

  async function load(): Promise<SlaCatalog> {
    const [policies, statuses] = await Promise.all([
      db
        .selectFrom('sla_policies as p')
        .innerJoin('business_calendars as c', 'c.id', 'p.calendar_id')
        .select([
          'p.id',
          'p.name',
          'p.priority_type_id',
          'p.area_id',
          'p.first_response_minutes',
          'p.resolution_minutes',
          'c.time_zone',
          'c.week',
          'c.holidays',
        ])
        .where('p.status_id', '=', RECORD_STATUS.active)
        .where('c.status_id', '=', RECORD_STATUS.active)
        .orderBy('p.id')
        .execute(),
      db.selectFrom('ticket_statuses').select(['id', 'stage', 'pauses_sla']).execute(),
    ]);
    const rules: SlaRule[] = [];
    for (const p of policies) {
      const calendar: WorkingCalendar = {
        timeZone: p.time_zone,
        week: JSON.parse(p.week),
        holidays: (JSON.parse(p.holidays) as { date: string }[]).map((h) => h.date),
      };
      try {
        rules.push({
          id: p.id,
          name: p.name,
          priorityTypeId: p.priority_type_id,
          areaId: p.area_id,
          calendar: compileCalendar(calendar),
          firstResponseMinutes: p.first_response_minutes,
          resolutionMinutes: p.resolution_minutes,
        });
      } catch (error) {
        // A calendar the API refused could only come from SQL: its policies do not apply.
        if (!(error instanceof InvalidCalendarError)) throw error;
      }
    }
    return {
      rules,
      statuses: new Map(
        statuses.map((s) => [s.id, { stage: s.stage as TicketStage, pausesSla: Number(s.pauses_sla) === 1 }]),
      ),
    };
  }

  return {
    catalog: () => cache.get('all', load),

    /** A ticket's SLA columns and what the clock needs of it, read in the writing transaction. */
    async ticketClock(id: number, trx: Kysely<DB>) {
      return trx
        .selectFrom('tickets')
        .select([...SLA_COLUMNS, 'created_at', 'priority_type_id', 'area_id', 'status_id', 'stage', 'created_by'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** The ticket's first response, at `at`, unless it had one. */
    async recordFirstResponse(ticketId: number, at: string, trx: Kysely<DB>): Promise<void> {
      await trx
        .updateTable('tickets')
        .set({ first_responded_at: at })
        .where('id', '=', ticketId)
        .where('first_responded_at', 'is', null)
        .execute();
    },

    async write(id: number, sla: TicketSla, trx: Kysely<DB>): Promise<void> {
      await trx.updateTable('tickets').set(sla).where('id', '=', id).execute();
    },
  };
}
export type SlaRepository = ReturnType<typeof createSlaRepository>;
