import type { TicketStage, TTicket } from '@portal/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB, TicketsTable } from '../../db/schema.ts';
import { createLoadingCache } from '../../lib/loading-cache.ts';
import type { Invalidation, NotificationBus } from '../notifications/notifications.bus.ts';

/** The names a ticket's row refers to. */
export interface TicketNames {
  priority: string;
  status: { name: string; stage: TicketStage };
  project: string;
  area: string;
  category: string;
  difficulty: string;
  creator: string;
  assignee: string;
  /** The group's name; '' for none. */
  group: string;
}

/** The columns of a ticket row that refer to a name. */
export interface TicketRefs {
  priority_type_id: number;
  status_id: number;
  stage: TicketStage;
  project_id: number;
  area_id: number;
  category_id: number;
  difficulty_id: number;
  created_by: number;
  user_assigned_id: number | null;
  group_id: number | null;
}

interface CatalogNames {
  priorities: Map<number, string>;
  statuses: Map<number, { name: string; stage: TicketStage }>;
  projects: Map<number, string>;
  areas: Map<number, string>;
  categories: Map<number, string>;
  difficulties: Map<number, string>;
  groups: Map<number, string>;
}

/** Most users' names kept; the least recently loaded go first. */
const MAX_USERS = 10_000;

/**
 * The names shown beside tickets (catalogues and users), kept in memory for the
 * lists and the export: reading them beside each row (nine lookups per ticket)
 * cost more than the page itself. The catalogues are small and read whole; users
 * are read as their ids first appear. Forgotten on the bus's invalidations (at
 * once for this process's writes; on PostgreSQL for every process's, through the
 * triggers of migrations 0006 and 0011), and not kept while the bus cannot vouch
 * for them (`canCache`). A load that an invalidation overtook is used, not kept.
 * Inside a transaction, what it must read is read in that transaction (SQLite's one
 * connection is the transaction's until it ends).
 */
export function createTicketNamesRepository(
  database: Database,
  bus: Pick<NotificationBus, 'onInvalidate' | 'canCache'>,
) {
  const { db } = database;
  // The catalogues are read whole: one entry.
  const catalogs = createLoadingCache<'all', CatalogNames>(1, () => bus.canCache());
  const users = new Map<number, string>();
  let userGeneration = 0;

  bus.onInvalidate((invalidation: Invalidation) => {
    if (invalidation.kind === 'catalogs' || invalidation.kind === 'all') catalogs.clear();
    if (invalidation.kind === 'user') {
      userGeneration += 1;
      users.delete(invalidation.userId);
    }
    if (invalidation.kind === 'users' || invalidation.kind === 'all') {
      userGeneration += 1;
      users.clear();
    }
  });

  async function loadCatalogs(reader: Kysely<DB>): Promise<CatalogNames> {
    const namesOf = async (table: 'priority_types' | 'projects' | 'areas' | 'categories' | 'difficulties' | 'groups') =>
      new Map((await reader.selectFrom(table).select(['id', 'name']).execute()).map((r) => [r.id, r.name]));
    const [priorities, projects, areas, categories, difficulties, groups, statuses] = await Promise.all([
      namesOf('priority_types'),
      namesOf('projects'),
      namesOf('areas'),
      namesOf('categories'),
      namesOf('difficulties'),
      namesOf('groups'),
      reader.selectFrom('ticket_statuses').select(['id', 'name', 'stage']).execute(),
    ]);
    return {
      priorities,
      projects,
      areas,
      categories,
      difficulties,
      groups,
      statuses: new Map(statuses.map((s) => [s.id, { name: s.name, stage: s.stage as TicketStage }])),
    };
  }

  /** The names of these users: the cached ones, and the others read in one query. */
  async function userNames(ids: Iterable<number>, reader: Kysely<DB>): Promise<Map<number, string>> {
    const found = new Map<number, string>();
    const missing: number[] = [];
    for (const id of new Set(ids)) {
      const name = users.get(id);
      if (name === undefined) missing.push(id);
      else found.set(id, name);
    }
    if (missing.length === 0) return found;
    const startedAt = userGeneration;
    const rows = await reader
      .selectFrom('users as u')
      .select(['u.id', sql<string>`u.name || ' ' || u.last_name`.as('full_name')])
      .where('u.id', 'in', missing)
      .execute();
    const canKeep = bus.canCache() && userGeneration === startedAt;
    for (const r of rows) {
      found.set(r.id, r.full_name);
      if (!canKeep) continue;
      users.set(r.id, r.full_name);
      if (users.size > MAX_USERS) users.delete(users.keys().next().value!);
    }
    return found;
  }

  return {
    /** The names of each of these rows, in their order; `executor`: the caller's transaction, if any. */
    async of(rows: readonly TicketRefs[], executor: Kysely<DB> = db): Promise<TicketNames[]> {
      // In a SQLite transaction the catalogues are read in it, never awaited from a load in
      // flight: that load waits for the one connection, which the transaction holds.
      const isOwnRead = executor.isTransaction && database.dialect === 'sqlite';
      const [catalog, people] = await Promise.all([
        isOwnRead ? loadCatalogs(executor) : catalogs.get('all', () => loadCatalogs(executor)),
        userNames(
          rows.flatMap((r) => (r.user_assigned_id === null ? [r.created_by] : [r.created_by, r.user_assigned_id])),
          executor,
        ),
      ]);
      return rows.map((r) => ({
        priority: catalog.priorities.get(r.priority_type_id) ?? '',
        status: catalog.statuses.get(r.status_id) ?? { name: '', stage: r.stage },
        project: catalog.projects.get(r.project_id) ?? '',
        area: catalog.areas.get(r.area_id) ?? '',
        category: catalog.categories.get(r.category_id) ?? '',
        difficulty: catalog.difficulties.get(r.difficulty_id) ?? '',
        creator: people.get(r.created_by) ?? '',
        assignee: r.user_assigned_id === null ? '' : (people.get(r.user_assigned_id) ?? ''),
        group: r.group_id === null ? '' : (catalog.groups.get(r.group_id) ?? ''),
      }));
    },
  };
}
export type TicketNamesRepository = ReturnType<typeof createTicketNamesRepository>;

/** A ticket as the API shows it (read side): its row and the names it refers to. */
export const ticketOf = (
  r: Omit<Selectable<TicketsTable>, 'stage' | 'group_sort' | 'first_response_due_sort' | 'resolution_due_sort'>,
  names: TicketNames,
): TTicket => ({
  id: r.id,
  name: r.name,
  description: r.description,
  area_id: r.area_id,
  project_id: r.project_id,
  category_id: r.category_id,
  priority_type_id: r.priority_type_id,
  difficulty_id: r.difficulty_id,
  status_id: r.status_id,
  created_by: r.created_by,
  user_assigned_id: r.user_assigned_id,
  group_id: r.group_id,
  created_at: r.created_at,
  updated_at: r.updated_at,
  priorities: { name: names.priority },
  status_tickets: names.status,
  projects: { name: names.project },
  areas: { name: names.area },
  categories: { name: names.category },
  difficulties: { name: names.difficulty },
  users: { id: r.created_by, name: names.creator },
  assigned_to: r.user_assigned_id === null ? null : { id: r.user_assigned_id, name: names.assignee },
  sla_state: r.sla_state,
  first_response_due_at: r.first_response_due_at,
  resolution_due_at: r.resolution_due_at,
  group: r.group_id === null ? null : { id: r.group_id, name: names.group },
});
