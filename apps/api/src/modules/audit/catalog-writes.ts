import {
  RECORD_STATUS,
  auditedCatalogResources,
  catalogAuditEvent,
  type AuditedCatalogResource,
  type CatalogAuditAction,
} from '@portal/contract';
import type { CatalogWrite } from '../catalogs/catalog.service.ts';
import type { AuditRepository } from './audit.repository.ts';

type Values = Record<string, unknown>;

const isAudited = (resource: string): resource is AuditedCatalogResource => resource in auditedCatalogResources;

const nameOf = (value: unknown): string | undefined =>
  value && typeof value === 'object' && typeof (value as { name?: unknown }).name === 'string'
    ? (value as { name: string }).name
    : undefined;

/** How a record reads in the log: a user by name and username, a permission by its role and route or section. */
function recordLabel(record: Values): string {
  if (typeof record.username === 'string')
    return `${String(record.name)} ${String(record.last_name)} (@${record.username})`;
  if (typeof record.name === 'string') return record.name;
  return [nameOf(record.role), nameOf(record.route) ?? nameOf(record.section)].filter(Boolean).join(' → ');
}

/** A field's value as the log keeps it: the referenced record's name (`role_id` → role's name), the status by name. */
function shown(record: Values | null, field: string): unknown {
  if (!record) return null;
  if (field === 'status_id') return nameOf(record.status) ?? record.status_id;
  if (field.endsWith('_id')) return nameOf(record[field.slice(0, -3)]) ?? record[field] ?? null;
  return record[field] ?? null;
}

/** The fields the input touched: their values on creation, `[before, after]` where an update changed them. */
function changesOf({ action, before, after, input }: CatalogWrite): Values {
  const changes: Values = {};
  for (const field of Object.keys(input)) {
    if (field === 'password') {
      changes.password = '(definida)';
      continue;
    }
    const [was, is] = [shown(before, field), shown(after, field)];
    if (action === 'created') {
      if (is !== null) changes[field] = is;
    } else if (was !== is) {
      changes[field] = [was, is];
    }
  }
  return changes;
}

function actionOf({ action, before, after }: CatalogWrite): CatalogAuditAction | null {
  if (action === 'created') return 'created';
  if (before?.status_id !== after.status_id) {
    return after.status_id === RECORD_STATUS.inactive ? 'deactivated' : 'reactivated';
  }
  return action === 'updated' ? 'updated' : null;
}

/**
 * The catalogue's write hook: users, roles, routes, sections and both
 * permission tables are audited (who may do what); an update that changes
 * nothing is not.
 */
export const auditCatalogWrites =
  (audit: AuditRepository) =>
  async (write: CatalogWrite): Promise<void> => {
    if (!isAudited(write.resource)) return;
    const action = actionOf(write);
    const changes = changesOf(write);
    if (!action || (action === 'updated' && Object.keys(changes).length === 0)) return;
    await audit.record({
      event: catalogAuditEvent(write.resource, action),
      userId: write.actor?.userId ?? null,
      username: write.actor?.username ?? null,
      ip: write.actor?.ip ?? null,
      detail: { record: `#${String(write.after.id)} ${recordLabel(write.after)}`, changes },
    });
  };
