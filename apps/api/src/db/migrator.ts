import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Database, Dialect } from './database.ts';
import * as initial from './migrations/0001-initial.ts';
import * as ticketListIndexes from './migrations/0002-ticket-list-indexes.ts';
import * as ticketSearchAndCounts from './migrations/0003-ticket-search-and-counts.ts';
import * as caseInsensitiveAccounts from './migrations/0004-case-insensitive-accounts.ts';
import * as attachmentsAndExample from './migrations/0005-attachments-and-example.ts';
import * as cacheInvalidation from './migrations/0006-cache-invalidation.ts';
import * as ticketEventsAndSorting from './migrations/0007-ticket-events-and-sorting.ts';
import * as auditLogScreen from './migrations/0008-audit-log-screen.ts';
import * as notificationActor from './migrations/0009-notification-actor.ts';
import * as dashboard from './migrations/0010-dashboard.ts';
import * as ticketNamesInvalidation from './migrations/0011-ticket-names-invalidation.ts';
import * as searchAttributes from './migrations/0012-search-attributes.ts';
import * as reportShards from './migrations/0013-report-shards.ts';
import * as listFilterIndexes from './migrations/0014-list-filter-indexes.ts';
import * as catalogAnswersInvalidation from './migrations/0015-catalog-answers-invalidation.ts';
import * as searchIndexWithoutPendingList from './migrations/0016-search-index-without-pending-list.ts';
import * as ticketStageFollowsStatus from './migrations/0017-ticket-stage-follows-status.ts';
import * as readableIndexTokens from './migrations/0018-readable-index-tokens.ts';
import * as sla from './migrations/0019-sla.ts';
import * as groupMembersAndTicketGroup from './migrations/0020-group-members-and-ticket-group.ts';
import * as routingRulesAndQueues from './migrations/0022-routing-rules-and-queues.ts';
import * as ticketLinks from './migrations/0023-ticket-links.ts';
import * as mailOutbox from './migrations/0024-mail-outbox.ts';
import * as mergedFrom from './migrations/0025-merged-from.ts';
import * as attributeBlockBitmaps from './migrations/0027-attribute-block-bitmaps.ts';
import * as ticketImportSection from './migrations/0028-ticket-import-section.ts';
import * as kanban from './migrations/0029-kanban.ts';
import * as savedViews from './migrations/0030-saved-views.ts';
import * as autoAssignment from './migrations/0031-auto-assignment.ts';
import * as slaAlertsAndReport from './migrations/0032-sla-alerts-and-report.ts';
import * as mailInAndOutboxScreen from './migrations/0033-mail-in-and-outbox-screen.ts';
import * as logisticsReferences from './migrations/0034-logistics-references.ts';
import * as slaDueSorts from './migrations/0035-sla-due-sorts.ts';
import * as groupRotationApart from './migrations/0036-group-rotation-apart.ts';
import * as referenceReextractionApart from './migrations/0037-reference-reextraction-apart.ts';
import * as freshGroupLoads from './migrations/0038-fresh-group-loads.ts';
import * as attrBlocksSharded from './migrations/0039-attr-blocks-sharded.ts';
import * as freshLoadsAtOnce from './migrations/0040-fresh-loads-at-once.ts';
import * as ticketSlaWatch from './migrations/0041-ticket-sla-watch.ts';
import * as ticketUpdatesByStatement from './migrations/0042-ticket-updates-by-statement.ts';
import * as slaWatchSweepIndexesMerged from './migrations/0043-sla-watch-sweep-indexes-merged.ts';
import * as functionsKeepTheirPlans from './migrations/0044-functions-keep-their-plans.ts';
import * as assigneeChosenInTheCreation from './migrations/0045-assignee-chosen-in-the-creation.ts';
import * as slaStateToken from './migrations/0046-sla-state-token.ts';
import * as reportBacklog from './migrations/0047-report-backlog.ts';
import * as ticketWordCounts from './migrations/0048-ticket-word-counts.ts';
import * as attrBlocksWider from './migrations/0049-attr-blocks-wider.ts';
import * as wordBitmaps from './migrations/0050-word-bitmaps.ts';
import * as ticketSearchPrefixes from './migrations/0051-ticket-search-prefixes.ts';
import * as ticketSearchDocPrefixes from './migrations/0052-ticket-search-doc-prefixes.ts';
import * as ticketCountsByStatus from './migrations/0053-ticket-counts-by-status.ts';
import * as sqliteTicketAttrBits from './migrations/0054-sqlite-ticket-attr-bits.ts';
import * as ticketWalkIndex from './migrations/0055-ticket-walk-index.ts';
import * as ticketWindowIndex from './migrations/0056-ticket-window-index.ts';

type DialectMigration = { up: (db: Parameters<Migration['up']>[0], dialect: Dialect) => Promise<void> };

/** Ordered by name; add new files here. Migrations are imported, not read from disk, so the bundle carries them. */
const migrations: Record<string, DialectMigration> = {
  '0001-initial': initial,
  '0002-ticket-list-indexes': ticketListIndexes,
  '0003-ticket-search-and-counts': ticketSearchAndCounts,
  '0004-case-insensitive-accounts': caseInsensitiveAccounts,
  '0005-attachments-and-example': attachmentsAndExample,
  '0006-cache-invalidation': cacheInvalidation,
  '0007-ticket-events-and-sorting': ticketEventsAndSorting,
  '0008-audit-log-screen': auditLogScreen,
  '0009-notification-actor': notificationActor,
  '0010-dashboard': dashboard,
  '0011-ticket-names-invalidation': ticketNamesInvalidation,
  '0012-search-attributes': searchAttributes,
  '0013-report-shards': reportShards,
  '0014-list-filter-indexes': listFilterIndexes,
  '0015-catalog-answers-invalidation': catalogAnswersInvalidation,
  '0016-search-index-without-pending-list': searchIndexWithoutPendingList,
  '0017-ticket-stage-follows-status': ticketStageFollowsStatus,
  '0018-readable-index-tokens': readableIndexTokens,
  '0019-sla': sla,
  '0020-group-members-and-ticket-group': groupMembersAndTicketGroup,
  '0022-routing-rules-and-queues': routingRulesAndQueues,
  '0023-ticket-links': ticketLinks,
  '0024-mail-outbox': mailOutbox,
  '0025-merged-from': mergedFrom,
  '0027-attribute-block-bitmaps': attributeBlockBitmaps,
  '0028-ticket-import-section': ticketImportSection,
  '0029-kanban': kanban,
  '0030-saved-views': savedViews,
  '0031-auto-assignment': autoAssignment,
  '0032-sla-alerts-and-report': slaAlertsAndReport,
  '0033-mail-in-and-outbox-screen': mailInAndOutboxScreen,
  '0034-logistics-references': logisticsReferences,
  '0035-sla-due-sorts': slaDueSorts,
  '0036-group-rotation-apart': groupRotationApart,
  '0037-reference-reextraction-apart': referenceReextractionApart,
  '0038-fresh-group-loads': freshGroupLoads,
  '0039-attr-blocks-sharded': attrBlocksSharded,
  '0040-fresh-loads-at-once': freshLoadsAtOnce,
  '0041-ticket-sla-watch': ticketSlaWatch,
  '0042-ticket-updates-by-statement': ticketUpdatesByStatement,
  '0043-sla-watch-sweep-indexes-merged': slaWatchSweepIndexesMerged,
  '0044-functions-keep-their-plans': functionsKeepTheirPlans,
  '0045-assignee-chosen-in-the-creation': assigneeChosenInTheCreation,
  '0046-sla-state-token': slaStateToken,
  '0047-report-backlog': reportBacklog,
  '0048-ticket-word-counts': ticketWordCounts,
  '0049-attr-blocks-wider': attrBlocksWider,
  '0050-word-bitmaps': wordBitmaps,
  '0051-ticket-search-prefixes': ticketSearchPrefixes,
  '0052-ticket-search-doc-prefixes': ticketSearchDocPrefixes,
  '0053-ticket-counts-by-status': ticketCountsByStatus,
  '0054-sqlite-ticket-attr-bits': sqliteTicketAttrBits,
  '0055-ticket-walk-index': ticketWalkIndex,
  '0056-ticket-window-index': ticketWindowIndex,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(migrations).map(([name, m]) => [name, { up: (db) => m.up(db, this.dialect) }]),
    );
  }
}

export async function migrateToLatest(database: Database): Promise<string[]> {
  // Independent migrations from parallel branches may land in any order; each runs once.
  const migrator = new Migrator({
    db: database.db,
    provider: new StaticProvider(database.dialect),
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
