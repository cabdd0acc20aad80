import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { runStatements } from './run-statements.ts';

/**
 * The background re-extraction's cursor and progress move out of `reference_types` into
 * `reference_reextractions`, one row per type while its re-extraction is pending or running
 * (`after_id`: the last ticket id done; `done` of `total` for the Referencias screen, `total`
 * unknown for the types a seed marks). A step writes its row after every batch, and a write to a
 * catalogue table tells every process to forget what it keeps of the catalogues (compiled
 * patterns, names, SLA calendars, list answers): thousands of steps did that once each.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await runStatements(db, [
    `create table reference_reextractions (
      type_id integer primary key references reference_types (id) on delete cascade,
      after_id integer not null,
      done integer not null,
      total integer
    )`,
    `insert into reference_reextractions (type_id, after_id, done, total)
      select id, reextract_after_id, coalesce(reextract_done, 0), reextract_total
      from reference_types where reextract_after_id is not null`,
    'alter table reference_types drop column reextract_after_id',
    'alter table reference_types drop column reextract_done',
    'alter table reference_types drop column reextract_total',
  ]);
}
