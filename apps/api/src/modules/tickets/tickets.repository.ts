import {
  RECORD_STATUS,
  type FoundReference,
  type TAssignableUsersQuery,
  type TicketStage,
  type TTicket,
} from '@portal/contract';
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { likePattern, nowIso, type Database } from '../../db/database.ts';
import { executePrepared } from '../../db/prepared.ts';
import { countRows, pageMeta, paginate } from '../../db/paging.ts';
import type { DB, TicketsTable } from '../../db/schema.ts';
import { createTicketIndexSync } from '../../db/ticket-derivations.ts';
import { eventRow, type NewTicketEvent } from './ticket-events.repository.ts';
import { MAX_AUTO_LINKS, openSharing } from '../references/references.repository.ts';
import { writeRotation } from '../groups/groups.repository.ts';
import { createTicketListRepository, type TicketReferenceLookup } from './ticket-list.repository.ts';
import { activeUsers, selectUserSummary, toUserSummary } from '../users/user-summaries.ts';
import { ticketOf, type TicketNamesRepository } from './ticket-names.repository.ts';
import { TICKET_COLUMNS } from './ticket-columns.ts';
import type { TicketSla } from '../sla/sla-clock.ts';

export type { TicketCursor, TicketScope, TicketSelection } from './ticket-list.repository.ts';

/** An open ticket a new one shares a reference with, and is linked to. */
export interface SharingTicket {
  id: number;
  name: string;
}

/** What the ticket form writes. */
export type TicketValues = Pick<
  TicketsTable,
  | 'name'
  | 'description'
  | 'area_id'
  | 'project_id'
  | 'category_id'
  | 'priority_type_id'
  | 'difficulty_id'
  | 'status_id'
  | 'group_id'
>;

/** The stage of a status, read in the statement that writes the ticket. */
const stageOfStatus = (statusId: number) =>
  sql<TicketStage>`(select s.stage from ticket_statuses s where s.id = ${statusId})`;

/** The catalogue of each value a ticket must refer to. */
const referenceTables: [Exclude<keyof TicketValues, 'group_id'>, keyof DB][] = [
  ['area_id', 'areas'],
  ['project_id', 'projects'],
  ['category_id', 'categories'],
  ['priority_type_id', 'priority_types'],
  ['difficulty_id', 'difficulties'],
  ['status_id', 'ticket_statuses'],
];

type ReferenceField = keyof TicketValues;

/** What `references` finds: the fields without an active row, and the names of the rows found. */
export interface TicketReferences {
  missing: ReferenceField[];
  names: Partial<Record<'group_id', string>> & Record<Exclude<ReferenceField, 'group_id'> | 'created_by', string>;
}

interface ReferenceRow {
  field: ReferenceField | 'created_by';
  name: string;
  status_id: number;
}

/** The catalogues a ticket's values refer to: every required one, and its group when it has one. */
const referencedTables = (values: TicketValues): [ReferenceField, keyof DB][] =>
  values.group_id == null ? referenceTables : [...referenceTables, ['group_id', 'groups']];

/**
 * PostgreSQL: an assignee chosen by the creation's statement itself, and what it writes with
 * them (groups.repository.ts `assigneeInCreation`). Its parts read CTE `t`, the ticket written,
 * and each part that names CTEs ends them with a comma.
 */
export interface AssigneeInStatement {
  /** CTEs before the ticket's insert: the choice. */
  choose: RawBuilder<unknown>;
  /** The assignee's id, as the ticket's insert writes it (null: nobody was chosen). */
  assignee: RawBuilder<unknown>;
  /** CTEs after the insert: what the assignment writes besides the ticket. */
  writes: RawBuilder<unknown>;
  /** More rows of the timeline's insert, each `union all select` (ticket id, user, kind, field, from, to, at). */
  events: RawBuilder<unknown>;
  /** The answer's columns that tell the choice, each followed by a comma. */
  answer: RawBuilder<unknown>;
}

/** What an `AssigneeInStatement` answers of the choice: the member, or nulls. */
export interface ChosenInStatement {
  chosen_id: number | null;
  chosen_name: string | null;
  /** The group's members, whose queue the ticket left. */
  chosen_team: number[] | null;
  /** Whether the assignee's mail was requested (mail_requests). */
  chosen_mailed: boolean;
}

/**
 * One query for the catalogue rows a ticket's values refer to (and the user `creatorId`,
 * as field `created_by`): field, name and status of each row found.
 */
function referencesQuery(values: TicketValues, creatorId?: number) {
  const branches = referencedTables(values).map(
    ([field, table]) =>
      sql`select ${sql.lit(field)} as field, name, status_id from ${sql.table(table)} where id = ${Number(values[field])}`,
  );
  if (creatorId !== undefined) {
    branches.push(
      sql`select 'created_by' as field, name || ' ' || last_name as name, status_id from users where id = ${creatorId}`,
    );
  }
  return sql<ReferenceRow>`${sql.join(branches, sql` union all `)}`;
}

const referencesOf = (values: TicketValues, rows: ReferenceRow[]): TicketReferences => {
  const active = new Set(rows.filter((r) => Number(r.status_id) === RECORD_STATUS.active).map((r) => r.field));
  return {
    missing: referencedTables(values)
      .map(([field]) => field)
      .filter((f) => !active.has(f)),
    names: Object.fromEntries(rows.map((r) => [r.field, r.name])) as TicketReferences['names'],
  };
};

export function createTicketsRepository(
  database: Database,
  names: TicketNamesRepository,
  references?: TicketReferenceLookup,
) {
  const { db } = database;
  const indexSync = createTicketIndexSync(database);
  const lists = createTicketListRepository(database, names, references);

  return {
    list: lists.list,
    count: lists.count,
    detailsOf: lists.detailsOf,
    exportBatches: lists.exportBatches,
    keysetPage: lists.keysetPage,

    /** The ticket as the API shows it; `trx`: read in the caller's transaction. */
    async findById(id: number, trx: Kysely<DB> = db): Promise<TTicket | undefined> {
      const row = await trx.selectFrom('tickets as t').select(TICKET_COLUMNS).where('t.id', '=', id).executeTakeFirst();
      return row && ticketOf(row, (await names.of([row], trx))[0]!);
    },

    /** The bare row, read for an authorization decision. */
    findOwnership(id: number, trx: Kysely<DB> = db) {
      return trx
        .selectFrom('tickets')
        .select(['id', 'created_by', 'user_assigned_id', 'status_id', 'group_id'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /**
     * Writes a new ticket and its 'created' event if every catalogue value it refers to is
     * active, and returns it as the API shows it, with the names read with the references
     * (no read-back); otherwise returns the fields at fault and writes nothing. With it go its
     * logistics references and a `related` link to each open ticket sharing one (at most
     * MAX_AUTO_LINKS), with a `linked` entry on both timelines; the tickets linked are returned.
     * An automatic assignee's group moves its rotation to them. PostgreSQL does it all in one
     * statement (its own transaction: one round trip); SQLite reads the catalogue values, then
     * writes the rows in one transaction.
     */
    async create(
      values: TicketValues,
      createdBy: number,
      {
        now = nowIso(),
        sla,
        trx,
        assignee,
        references: found = [],
        events: extraEvents = [],
        assignedIn,
      }: {
        now?: string;
        sla?: TicketSla;
        /** The caller's transaction (an automatic assignment is recorded with the creation in it). */
        trx?: Kysely<DB>;
        /**
         * SQLite: the member the automatic assignment of group `groupId` chose: the ticket is
         * written assigned to them, and the group's rotation (`group_rotations`) moves to them.
         */
        assignee?: { id: number; name: string; groupId: number };
        /** The logistics references of the ticket's text (references.repository.ts `extract`). */
        references?: readonly FoundReference[];
        /** More entries of its timeline, after the creation's (the automatic assignment's). */
        events?: readonly Omit<NewTicketEvent, 'ticketId'>[];
        /** PostgreSQL: the assignee chosen by the statement, and what it writes with them. */
        assignedIn?: AssigneeInStatement;
      } = {},
    ): Promise<
      { ticket: TTicket; linked: SharingTicket[]; chosen?: ChosenInStatement } | { missing: ReferenceField[] }
    > {
      // Inside the caller's transaction (an automatic assignment follows), or in its own.
      const executor = trx ?? db;
      // The creation, the SLA applied (if any) and the caller's entries, in this order, written
      // with the ticket's id once it has one.
      const firstEvents = [
        { userId: createdBy, kind: 'created' as const },
        ...(sla?.sla_policy_id != null
          ? [
              {
                userId: createdBy,
                kind: 'sla_assigned' as const,
                field: 'resolution_due_at',
                to: sla.resolution_due_at,
              },
            ]
          : []),
        ...extraEvents,
      ].map((e) => eventRow({ ...e, ticketId: 0 }, now));
      const s = sla ?? null;
      let row: Selectable<TicketsTable> | undefined;
      let references: TicketReferences;
      let linked: SharingTicket[] = [];
      let chosen: ChosenInStatement | undefined;
      if (database.dialect === 'postgres') {
        const v = (field: Exclude<keyof TicketValues, 'name' | 'description'>) =>
          values[field] == null ? sql`null::int` : sql`${Number(values[field])}::int`;
        // Its references, and the open tickets sharing one, in the same statement. A new
        // ticket's `related` links cannot close a cycle, and no other writer sees it before
        // this commits, so the link writers' lock is not needed.
        const sharing =
          found.length === 0
            ? sql`sh (id, name) as (select null::int, null::text where false),`
            : sql`fr (type_id, value) as (select * from unnest(${found.map((f) => f.type_id)}::int[],
                ${found.map((f) => f.value)}::text[])),
              ri as (insert into ticket_references (ticket_id, type_id, value)
                select t.id, fr.type_id, fr.value from t, fr),
              sh as (select distinct s.id, s.name from (
                select o.id, o.name from ticket_references x
                join fr on fr.type_id = x.type_id and fr.value = x.value
                join tickets o on o.id = x.ticket_id
                where o.stage <> 'closed' and exists (select 1 from t)
                order by o.id limit ${MAX_AUTO_LINKS}) s),
              li as (insert into ticket_links (from_ticket_id, to_ticket_id, kind, created_by, created_at)
                select least(t.id, sh.id), greatest(t.id, sh.id), 'related', ${createdBy}::int, ${now}::timestamptz
                from t, sh),`;
        if (assignee) throw new Error('on PostgreSQL the creation statement chooses the assignee (assignedIn)');
        const statement = sql<
          Selectable<TicketsTable> & { refs: ReferenceRow[]; linked: SharingTicket[] } & Partial<ChosenInStatement>
        >`
          with ${assignedIn?.choose ?? sql``} r as (${referencesQuery(values, createdBy)}),
          t as (
            insert into tickets (name, description, area_id, project_id, category_id, priority_type_id,
              difficulty_id, status_id, group_id, stage, created_by, user_assigned_id, created_at, updated_at,
              sla_policy_id, first_response_due_at, resolution_due_at, sla_at_risk_at, resolved_at,
              sla_paused_at, sla_state)
            select ${values.name}::text, ${values.description}::text, ${v('area_id')}, ${v('project_id')},
              ${v('category_id')}, ${v('priority_type_id')}, ${v('difficulty_id')}, ${v('status_id')}, ${v('group_id')},
              ${stageOfStatus(values.status_id)}, ${createdBy}::int, ${assignedIn?.assignee ?? sql`null::int`}, ${now}::timestamptz, ${now}::timestamptz,
              ${s?.sla_policy_id ?? null}::int, ${s?.first_response_due_at ?? null}::timestamptz,
              ${s?.resolution_due_at ?? null}::timestamptz, ${s?.sla_at_risk_at ?? null}::timestamptz,
              ${s?.resolved_at ?? null}::timestamptz, ${s?.sla_paused_at ?? null}::timestamptz,
              ${s?.sla_state ?? 'none'}::text
            where (select count(*) from r where r.field <> 'created_by' and r.status_id = ${RECORD_STATUS.active})
              = ${referencedTables(values).length}
            returning *
          ),
          ${sharing}
          ${assignedIn?.writes ?? sql``}
          e as (
            insert into ticket_events (ticket_id, user_id, kind, field, from_value, to_value, created_at)
            select t.id, x.user_id, x.kind, x.field, x.from_value, x.to_value, ${now}::timestamptz
            from t, unnest(${firstEvents.map((e) => e.user_id)}::int[], ${firstEvents.map((e) => e.kind)}::text[],
              ${firstEvents.map((e) => e.field)}::text[], ${firstEvents.map((e) => e.from_value)}::text[],
              ${firstEvents.map((e) => e.to_value)}::text[]) as x(user_id, kind, field, from_value, to_value)
            ${assignedIn?.events ?? sql``}
            union all
            select t.id, ${createdBy}::int, 'linked', 'related', null, '#' || sh.id || ' ' || sh.name, ${now}::timestamptz
            from t, sh
            union all
            select sh.id, ${createdBy}::int, 'linked', 'related', null, '#' || t.id || ' ' || t.name, ${now}::timestamptz
            from t, sh
          )
          select (select json_agg(r) from r) as refs,
            (select coalesce(json_agg(json_build_object('id', sh.id, 'name', sh.name) order by sh.id), '[]') from sh) as linked,
            ${assignedIn?.answer ?? sql``}
            t.* from (select 1) as one left join t on true`;
        const { rows } = await executePrepared(executor, statement);
        const [result] = rows;
        if (assignedIn && result) {
          chosen = {
            chosen_id: result.chosen_id ?? null,
            chosen_name: result.chosen_name ?? null,
            chosen_team: result.chosen_team ?? null,
            chosen_mailed: result.chosen_mailed ?? false,
          };
        }
        references = referencesOf(values, result?.refs ?? []);
        row = result?.id === null || result?.id === undefined ? undefined : result;
        linked = result?.linked ?? [];
      } else {
        references = referencesOf(
          values,
          await referencesQuery(values, createdBy)
            .execute(executor)
            .then((r) => r.rows),
        );
        if (references.missing.length > 0) return { missing: references.missing };
        // The links to the open tickets sharing a reference, each with an entry on both timelines.
        const linkEvents = (ticketId: number, other: SharingTicket): NewTicketEvent[] => [
          { ticketId, userId: createdBy, kind: 'linked', field: 'related', to: `#${other.id} ${other.name}` },
          {
            ticketId: other.id,
            userId: createdBy,
            kind: 'linked',
            field: 'related',
            to: `#${ticketId} ${values.name}`,
          },
        ];
        const write = async (trx: Kysely<DB>) => {
          const inserted = await trx
            .insertInto('tickets')
            .values({
              ...values,
              stage: stageOfStatus(values.status_id),
              created_by: createdBy,
              user_assigned_id: assignee?.id ?? null,
              created_at: now,
              updated_at: now,
              ...sla,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('ticket_events')
            .values(firstEvents.map((e) => ({ ...e, ticket_id: inserted.id })))
            .execute();
          if (assignee) await writeRotation(trx, assignee.groupId, assignee.id);
          if (found.length > 0) {
            await trx
              .insertInto('ticket_references')
              .values(found.map((r) => ({ ticket_id: inserted.id, type_id: r.type_id, value: r.value })))
              .execute();
            const sharing = await openSharing(trx, inserted.id, found).execute();
            linked = [...new Map(sharing.map((o) => [o.id, { id: o.id, name: o.name }])).values()];
            if (linked.length > 0) {
              await trx
                .insertInto('ticket_links')
                .values(
                  linked.map((o) => ({
                    from_ticket_id: Math.min(o.id, inserted.id),
                    to_ticket_id: Math.max(o.id, inserted.id),
                    kind: 'related' as const,
                    created_by: createdBy,
                    created_at: now,
                  })),
                )
                .execute();
              await trx
                .insertInto('ticket_events')
                .values(linked.flatMap((o) => linkEvents(inserted.id, o)).map((e) => eventRow(e, now)))
                .execute();
            }
          }
          return inserted;
        };
        row = trx ? await write(trx) : await db.transaction().execute(write);
      }
      indexSync.queued();
      if (!row) return { missing: references.missing };
      const { names } = references;
      return {
        linked,
        ...(chosen ? { chosen } : {}),
        ticket: ticketOf(row, {
          priority: names.priority_type_id,
          status: { name: names.status_id, stage: row.stage },
          project: names.project_id,
          area: names.area_id,
          category: names.category_id,
          difficulty: names.difficulty_id,
          creator: names.created_by,
          assignee: chosen?.chosen_name ?? assignee?.name ?? '',
          group: names.group_id ?? '',
        }),
      };
    },

    async update(id: number, values: TicketValues, trx: Kysely<DB> = db): Promise<void> {
      await trx
        .updateTable('tickets')
        .set({ ...values, stage: stageOfStatus(values.status_id), updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
      indexSync.queued();
    },

    /**
     * Sets the assignee only if the ticket still has the assignee the caller saw,
     * so two concurrent assignments cannot both succeed.
     */
    async assign(id: number, userId: number, previous: number | null, trx: Kysely<DB>): Promise<boolean> {
      const result = await trx
        .updateTable('tickets')
        .set({ user_assigned_id: userId, updated_at: nowIso() })
        .where('id', '=', id)
        .where((eb) => (previous === null ? eb('user_assigned_id', 'is', null) : eb('user_assigned_id', '=', previous)))
        .executeTakeFirst();
      indexSync.queued();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The fields whose catalogue row is missing or inactive, and the names of the others. */
    async references(values: TicketValues): Promise<TicketReferences> {
      return referencesOf(
        values,
        await referencesQuery(values)
          .execute(db)
          .then((r) => r.rows),
      );
    },

    /** The caller's newest tickets, for the profile card. */
    async lastOf(userId: number, limit: number) {
      return (await lists.first({ scope: { kind: 'mine', userId }, search: '' }, limit)).map((t) => ({
        id: t.id,
        name: t.name,
        description: t.description,
        created_at: t.created_at,
        priorities: t.priorities,
        difficulties: t.difficulties,
        status_tickets: t.status_tickets,
      }));
    },

    /** Active users a ticket can be assigned to, by name, paginated. */
    async assignableUsers({ search, ...paging }: TAssignableUsersQuery) {
      let q = activeUsers(db).where('r.status_id', '=', RECORD_STATUS.active);
      if (search) {
        const pattern = likePattern(search);
        const like = sql.raw(database.like);
        q = q.where(
          sql<boolean>`(u.name ${like} ${pattern} escape '\\' or u.last_name ${like} ${pattern} escape '\\' or u.username ${like} ${pattern} escape '\\' or (u.name || ' ' || u.last_name) ${like} ${pattern} escape '\\')`,
        );
      }
      const count = await countRows(q);
      const rows = await selectUserSummary(q).$call(paginate(paging)).execute();
      return { data: rows.map(toUserSummary), meta: pageMeta(count, paging) };
    },

    /** A user's full name as the lists show it, for the timeline. */
    async userName(id: number | null, trx: Kysely<DB> = db): Promise<string | null> {
      if (id === null) return null;
      const row = await trx
        .selectFrom('users as u')
        .select(sql<string>`u.name || ' ' || u.last_name`.as('full_name'))
        .where('u.id', '=', id)
        .executeTakeFirst();
      return row?.full_name ?? null;
    },

    /** Brings the text index up to the last writes now and stops syncing it (the app closes). */
    closeIndexSync: () => indexSync.close(),

    findActiveUser(id: number, trx: Kysely<DB> = db) {
      return trx
        .selectFrom('users as u')
        .innerJoin('roles as r', 'r.id', 'u.role_id')
        .select(['u.id', 'u.status_id', 'r.status_id as role_status_id'])
        .where('u.id', '=', id)
        .where('u.status_id', '=', RECORD_STATUS.active)
        .where('r.status_id', '=', RECORD_STATUS.active)
        .executeTakeFirst();
    },
  };
}
export type TicketsRepository = ReturnType<typeof createTicketsRepository>;
