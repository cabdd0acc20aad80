import type { Database } from '../../db/database.ts';
import { nowIso } from '../../db/database.ts';

export interface AuditEvent {
  event: string;
  userId?: number | null;
  username?: string | null;
  ip?: string | null;
  detail?: Record<string, unknown>;
}

export function createAuditRepository({ db }: Database) {
  return {
    async record(e: AuditEvent): Promise<void> {
      await db
        .insertInto('audit_log')
        .values({
          event: e.event,
          user_id: e.userId ?? null,
          username: e.username?.slice(0, 120) ?? null,
          ip: e.ip ?? null,
          detail: e.detail ? JSON.stringify(e.detail).slice(0, 2000) : null,
          created_at: nowIso(),
        })
        .execute();
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;
