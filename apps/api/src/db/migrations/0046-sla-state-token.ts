import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * The SLA state gets its token among the attributes, like every other filterable value:
 * `sla<state>` without the underscore (`slaok`, `slaatrisk`, `slabreached`, `slamet`,
 * `slanone`), since the text index splits words at one. A list that asks for an SLA state with
 * other attributes is then counted like any other: on SQLite by one query of the index, on
 * PostgreSQL from the attribute bitmaps.
 *
 * SQLite: a change of the state queues the ticket for the index, and the index is written again.
 * PostgreSQL: the token lives in the bitmaps only, not in `search_doc`. The alert sweep moves
 * states; a lexeme changed would give the ticket's new row version an entry in every index of
 * `tickets`, where a move otherwise changes the entries of `ticket_sla_watch` alone. So the
 * bitmaps follow the state from `ticket_sla_watch`, the copy the sweep's indexes live on:
 * statement triggers flip the old and the new token of each row whose state changed, and the
 * token of each row written or removed.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await runStatements(db, dialect === 'postgres' ? postgres : sqlite);
}

const sqlite = [
  `create trigger tickets_sla_index after update of sla_state on tickets
    when old.sla_state is not new.sla_state begin
    insert or ignore into tickets_fts_pending (id) values (new.id);
  end`,
  `insert into tickets_fts (tickets_fts) values ('delete-all')`,
  `insert into tickets_fts (rowid, body, attrs)
    select id, name || ' ' || description,
      'id' || id || ' ' || 'priority' || priority_type_id || ' ' || 'status' || status_id || ' '
      || 'project' || project_id || ' ' || 'area' || area_id || ' ' || 'category' || category_id || ' '
      || 'difficulty' || difficulty_id || ' ' || 'creator' || created_by || ' '
      || 'assignee' || coalesce(user_assigned_id, 0) || ' ' || 'group' || coalesce(group_id, 0) || ' '
      || 'stage' || stage || ' ' || 'sla' || replace(sla_state, '_', '')
    from tickets`,
];

/** The state's token of a `ticket_sla_watch` row `row`. */
const token = (row: string) => `'_sla' || replace(${row}.sla_state, '_', '')`;

const postgres = [
  `create function portal_ticket_sla_blocks() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform portal_ticket_attr_flip(array_agg(n.ticket_id), array_agg(${token('n')})) from new_rows n;
      elsif tg_op = 'DELETE' then
        perform portal_ticket_attr_flip(array_agg(o.ticket_id), array_agg(${token('o')})) from old_rows o;
      else
        perform portal_ticket_attr_flip(array_agg(f.id), array_agg(f.token)) from (
          select o.ticket_id, ${token('o')} from old_rows o join new_rows n on n.ticket_id = o.ticket_id
          where o.sla_state is distinct from n.sla_state
          union all
          select n.ticket_id, ${token('n')} from old_rows o join new_rows n on n.ticket_id = o.ticket_id
          where o.sla_state is distinct from n.sla_state
        ) f(id, token);
      end if;
      return null;
    end $$`,
  `create trigger ticket_sla_watch_blocks_insert after insert on ticket_sla_watch
    referencing new table as new_rows for each statement execute function portal_ticket_sla_blocks()`,
  `create trigger ticket_sla_watch_blocks_update after update on ticket_sla_watch
    referencing old table as old_rows new table as new_rows for each statement execute function portal_ticket_sla_blocks()`,
  `create trigger ticket_sla_watch_blocks_delete after delete on ticket_sla_watch
    referencing old table as old_rows for each statement execute function portal_ticket_sla_blocks()`,
  // Ticket id is bit (id >> 3) & 1023 of block id >> 13, shard id & 7.
  `insert into ticket_attr_blocks (token, block, shard, bits)
    select ${token('w')}, w.ticket_id >> 13, w.ticket_id & 7, bit_or(B'1'::bit(1024) >> ((w.ticket_id >> 3) & 1023))
    from ticket_sla_watch w
    group by 1, 2, 3`,
];
